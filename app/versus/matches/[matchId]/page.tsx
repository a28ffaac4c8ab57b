import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { PlayerLink } from '@/components/boards/PlayerLink';
import { ActionForm } from '@/components/moderation/ActionForm';
import { MatchStats } from '@/components/versus/MatchStats';
import { MatchViewer } from '@/components/versus/MatchViewer';
import { getSessionUser } from '@/lib/server/auth';
import { canModerate } from '@/lib/server/moderation/roles';
import { getMatchFieldStats } from '@/lib/server/versus/field-stats';
import { getStoredMatch, type StoredMatch, type StoredSeat } from '@/lib/server/versus/matches';
import { isProvisional, placementOf } from '@/lib/server/versus/rating';
import { formatDate, formatTime } from '@/lib/ui/format';
import { matchHref, ticksFromParam, versusBoardHref } from '@/lib/ui/links';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { seatName } from '@/lib/ui/players';
import { formatPlacement, formatRating, formatRatingChange, GAME_END_TEXT } from '@/lib/ui/versus';
import { gameParamSchema, matchIdSchema } from '@/lib/validations/versus';
import { PageHeading } from '@/components/ui/PageHeading';

type Props = { params: Promise<{ matchId: string }>; searchParams: Promise<{ t?: string | string[]; game?: string | string[] }> };

// Once per request, though both the metadata and the page ask (it carries every replay).
const findMatch = cache(async (matchId: string) => (matchIdSchema.safeParse(matchId).success ? getStoredMatch({ matchId }) : null));

const nameOf = seatName;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const match = await findMatch((await params).matchId);
  return { title: match ? `${nameOf(match.seats[0])} vs ${nameOf(match.seats[1])} · ${VERSUS_MODE_INFO[match.mode].label}` : 'Match' };
}

export default async function MatchPage({ params, searchParams }: Props) {
  const { t, game: gameParam } = await searchParams;
  const match = await findMatch((await params).matchId);
  if (!match) notFound();
  const asked = gameParamSchema.safeParse(gameParam);
  const index = asked.success ? Math.max(0, Math.min(asked.data, match.games.length) - 1) : 0;
  const game = match.games[index];
  const [viewer, stats] = await Promise.all([getSessionUser(), getMatchFieldStats({ matchId: match.id })]);
  const names = [nameOf(match.seats[0]), nameOf(match.seats[1])] as const;
  const path = matchHref(match.id, { game: index + 1 });
  return (
    <div className="space-y-4">
      <header className="space-y-2">
        <PageHeading size="compact" data-testid="match-title">
          <Seat seat={match.seats[0]} /> <span className="font-mono">{match.seats[0].gamesWon}–{match.seats[1].gamesWon}</span> <Seat seat={match.seats[1]} />
        </PageHeading>
        <p className="text-sm text-muted">
          {VERSUS_MODE_INFO[match.mode].label} · first to {match.firstTo} · {match.ranked ? 'ranked' : 'unranked'} · {formatDate(match.playedAt)} ·{' '}
          <span data-testid="match-result">
            {names[match.winnerSeat]} won{match.endReason === 'games' ? '' : ' by forfeit'}
            {match.noContest ? ' · no contest (the leaver played too few pieces: no rating or win for the winner)' : ''}
          </span>
        </p>
        {match.voided ? (
          <p role="note" className="rounded-lg bg-surface-2 px-3 py-2 text-sm" data-testid="match-void">
            Voided by a moderator on {formatDate(match.voided.at)}: {match.voided.reason}. Its rating changes and weekly win were taken back.
          </p>
        ) : null}
        {match.ranked ? <Ratings match={match} /> : null}
        {viewer && canModerate(viewer.role) && !match.voided ? (
          <ActionForm label="Void this match" matchId={match.id} actions={['void']} />
        ) : null}
      </header>
      {game ? <Games match={match} index={index} names={names} path={path} game={game} t={t} /> : (
        <p className="text-muted" data-testid="no-games">
          {names[match.winnerSeat === 0 ? 1 : 0]}’s replay of this match could not be stored (over the replay limits), so they lost it and no game was kept.
        </p>
      )}
      {match.games.length > 0 ? (
        <section className="space-y-2" aria-labelledby="match-stats-heading">
          <h2 id="match-stats-heading" className="text-lg font-semibold">Stats</h2>
          <MatchStats games={match.games} names={names} stats={stats} />
        </section>
      ) : null}
      <Link href={versusBoardHref({ mode: match.mode })} className="link text-sm">
        ← {VERSUS_MODE_INFO[match.mode].label} leaderboard
      </Link>
    </div>
  );
}

function Games({ match, index, names, path, game, t }: { match: StoredMatch; index: number; names: readonly [string, string]; path: string; game: StoredMatch['games'][number]; t: string | string[] | undefined }) {
  return (
    <>
      <nav aria-label="Games of the set" className="flex flex-wrap gap-2 text-sm" data-testid="game-selector">
        {match.games.map((g) => (
          <Link
            key={g.index}
            href={matchHref(match.id, { game: g.index + 1 })}
            aria-current={g.index === index ? 'page' : undefined}
            className={`rounded-lg border px-3 py-1.5 ${g.index === index ? 'border-primary bg-primary text-on-primary' : 'border-line-strong hover:bg-surface-2'}`}
          >
            Game {g.index + 1}: {g.winnerSeat === null ? 'draw' : `${names[g.winnerSeat]} won`} ({GAME_END_TEXT[g.reason] ?? g.reason}, {formatTime(g.endTick)})
          </Link>
        ))}
      </nav>
      <MatchViewer
        key={game.index}
        mode={match.mode}
        replays={game.replays}
        endTick={game.endTick}
        names={names}
        path={path}
        startAt={ticksFromParam(typeof t === 'string' ? t : undefined)}
        matchId={match.id}
        game={index + 1}
      />
    </>
  );
}

function Seat({ seat }: { seat: StoredSeat }) {
  return seat.player ? <PlayerLink username={seat.player.username} /> : <>{nameOf(seat)}</>;
}

/** Each seat's rating before and after the match, "?" while provisional, and the placement match it was. */
function Ratings({ match }: { match: StoredMatch }) {
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="match-ratings">
      {match.seats.map((s) => {
        if (!s.rating) return null;
        const r = s.rating;
        // A rated match played in placement is that placement match: "placement 4/10".
        const placement = placementOf(r.matchesBefore);
        return (
          <li key={s.seat}>
            {nameOf(s)}: <span className="font-mono">{formatRating(r.before, isProvisional({ rd: r.rdBefore, matches: r.matchesBefore }))}</span> →{' '}
            <span className="font-mono font-semibold">{formatRating(r.after, isProvisional({ rd: r.rdAfter, matches: r.matchesAfter }))}</span>{' '}
            <span className="font-mono text-muted">({formatRatingChange(r.before, r.after)})</span>
            {placement && r.matchesAfter > r.matchesBefore ? <span className="text-muted"> · {formatPlacement({ played: r.matchesAfter, of: placement.of })}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
