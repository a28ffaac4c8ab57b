import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { PlayerLink } from '@/components/boards/PlayerLink';
import { RoomSetViewer } from '@/components/room-sets/RoomSetViewer';
import { PageHeading } from '@/components/ui/PageHeading';
import { getStoredRoomSet } from '@/lib/server/versus/room-sets';
import { formatDate, formatTime } from '@/lib/ui/format';
import { roomSetHref, ticksFromParam } from '@/lib/ui/links';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { roomSeatName } from '@/lib/ui/players';
import { ROOM_END_TEXT, rulesSummary, teamName } from '@/lib/ui/room-sets';
import { formatRating, formatRatingChange } from '@/lib/ui/versus';
import type { RoomSet, RoomSetSeat } from '@/lib/validations/room-sets';
import { gameParamSchema, matchIdSchema } from '@/lib/validations/versus';

type Props = { params: Promise<{ matchId: string }>; searchParams: Promise<{ t?: string | string[]; game?: string | string[] }> };

// Once per request, though both the metadata and the page ask (it carries every replay).
const findSet = cache(async (matchId: string) => (matchIdSchema.safeParse(matchId).success ? getStoredRoomSet({ matchId }) : null));

const isTeams = (set: RoomSet) => set.rules.teams !== null;

/** Who won: a team ("Team A") or, in a free-for-all, the player. */
function winnerName(set: RoomSet, team: number | null): string {
  if (team === null) return 'draw';
  if (isTeams(set)) return teamName(team);
  return roomSeatName(set.players[team]!);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const set = await findSet((await params).matchId);
  return { title: set ? `Room set · ${set.seats} players · ${winnerName(set, set.winnerTeam)} won` : 'Room set' };
}

/** A stored room set: its seats, rules and games, and the viewer for one game (`?game=`, `?t=`). */
export default async function RoomSetPage({ params, searchParams }: Props) {
  const { t, game: gameParam } = await searchParams;
  const set = await findSet((await params).matchId);
  if (!set) notFound();
  const asked = gameParamSchema.safeParse(gameParam);
  const index = asked.success ? Math.max(0, Math.min(asked.data, set.games.length) - 1) : 0;
  const game = set.games[index]!;
  const names = set.players.map(roomSeatName);
  const teams = set.players.map((p) => (isTeams(set) ? teamName(p.team) : null));
  const wins = new Map<number, number>();
  for (const g of set.games) if (g.winnerTeam !== null) wins.set(g.winnerTeam, (wins.get(g.winnerTeam) ?? 0) + 1);
  return (
    <div className="space-y-4">
      <header className="space-y-2">
        <PageHeading size="compact" data-testid="room-set-title">
          Room set · {set.seats} players · {VERSUS_MODE_INFO[set.mode].label}
        </PageHeading>
        <Seats set={set} />
        <p className="text-sm text-muted">
          {isTeams(set) ? 'Teams' : 'Free-for-all'} · {set.ranked ? 'ranked' : 'unranked'} · {formatDate(set.playedAt)} ·{' '}
          <span data-testid="room-set-result" className="font-semibold text-fg">
            {winnerName(set, set.winnerTeam)} won the set ({wins.get(set.winnerTeam) ?? 0} of {set.games.length} games)
          </span>
        </p>
        <p className="text-xs text-muted" data-testid="room-set-rules">
          Rules v{set.rulesVersion}: {rulesSummary(set.rules)}
        </p>
      </header>
      <nav aria-label="Games of the set" className="flex flex-wrap gap-2 text-sm" data-testid="game-selector">
        {set.games.map((g) => (
          <Link
            key={g.index}
            href={roomSetHref(set.id, { game: g.index + 1 })}
            aria-current={g.index === index ? 'page' : undefined}
            className={`rounded-lg border px-3 py-2 ${g.index === index ? 'border-primary bg-primary text-on-primary' : 'border-line-strong hover:bg-surface-2'}`}
          >
            Game {g.index + 1}: {g.winnerTeam === null ? 'draw' : `${winnerName(set, g.winnerTeam)} won`} ({ROOM_END_TEXT[g.reason]}, {formatTime(g.endTick)})
          </Link>
        ))}
      </nav>
      <RoomSetViewer
        key={game.index}
        mode={set.mode}
        rules={set.rules}
        replays={game.replays}
        leaves={game.leaves}
        endTick={game.endTick}
        names={names}
        teams={teams}
        path={roomSetHref(set.id, { game: index + 1 })}
        startAt={ticksFromParam(typeof t === 'string' ? t : undefined)}
        matchId={set.id}
        game={index + 1}
      />
    </div>
  );
}

/** Every seat by name (a link for an account), bots marked, grouped by team in a team room; ratings once ranked sets carry them. */
function Seats({ set }: { set: RoomSet }) {
  const groups = isTeams(set) ? [...new Set(set.players.map((p) => p.team))].sort((a, b) => a - b).map((team) => set.players.filter((p) => p.team === team)) : [set.players];
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="room-set-seats">
      {groups.map((seats) => (
        <li key={seats[0]!.seat} className="flex flex-wrap gap-x-3">
          {isTeams(set) ? <span className="text-muted">{teamName(seats[0]!.team)}:</span> : null}
          {seats.map((s) => (
            <SeatName key={s.seat} seat={s} />
          ))}
        </li>
      ))}
    </ul>
  );
}

function SeatName({ seat }: { seat: RoomSetSeat }) {
  return (
    <span data-testid={`seat-${seat.seat}`} className={seat.won ? 'font-semibold' : ''}>
      {seat.player ? <PlayerLink username={seat.player.username} /> : <span className={seat.deleted ? 'italic text-muted' : ''}>{roomSeatName(seat)}</span>}
      {seat.rating ? (
        <span className="ml-1 font-mono text-muted">
          {formatRating(seat.rating.after)} ({formatRatingChange(seat.rating.before, seat.rating.after)})
        </span>
      ) : null}
    </span>
  );
}
