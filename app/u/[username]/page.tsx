import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { SignOutButton } from '@/components/auth/SignOutButton';
import { GameList } from '@/components/boards/GameList';
import { isMode, MODE_INFO, MODE_ORDER } from '@/lib/ui/modes';
import { VERSUS_MODE_NAMES } from '@/lib/engine';
import { MatchHistory } from '@/components/profile/MatchHistory';
import { RoomSetHistory } from '@/components/profile/RoomSetHistory';
import { StatsTrends } from '@/components/profile/StatsTrends';
import { VersusRatings } from '@/components/profile/VersusRatings';
import { bandEdges } from '@/lib/server/versus/bands';
import { getVersusRating } from '@/lib/server/versus/boards';
import { getStatsTrend } from '@/lib/server/versus/field-stats';
import { getMatchHistory, getRatingHistory } from '@/lib/server/versus/history';
import { getRoomSetHistory } from '@/lib/server/versus/room-sets';
import { getSeasonBadges } from '@/lib/server/versus/season-boards';
import { drawnEdges } from '@/lib/versus/bands';
import { historyCursorSchema } from '@/lib/validations/versus';
import { formatDate } from '@/lib/ui/format';
import { BestChart } from '@/components/profile/BestChart';
import { PersonalBests } from '@/components/profile/PersonalBests';
import { ReportButton } from '@/components/moderation/ReportButton';
import { renamedTo } from '@/lib/server/account/username';
import { getSessionUser } from '@/lib/server/auth';
import { getAbandonCounts } from '@/lib/server/games/abandons';
import { cachedBestProgression, getBestProgression } from '@/lib/server/games/progression';
import { getPlayerBests, listRecentGames } from '@/lib/server/games/replays';
import { clientAddressKey } from '@/lib/server/limits/http';
import { hit } from '@/lib/server/limits/limiter';
import { getUserByUsername } from '@/lib/server/users';
import { usernameSchema } from '@/lib/validations/auth';
import { PageHeading } from '@/components/ui/PageHeading';
import { buttonClass } from '@/components/ui/button-class';

type Props = { params: Promise<{ username: string }>; searchParams?: Promise<{ matches?: string | string[]; rooms?: string | string[] }> };

/** Matches per page of the history; the rating chart shows up to RATING_POINTS ranked matches per mode. */
const HISTORY_PAGE = 20;
const RATING_POINTS = 200;
/** Matches per mode in the APM / PPS / VS trend lines. */
const TREND_MATCHES = 50;

// Once per request, though both the metadata and the page ask.
const findPlayer = cache(async (username: string) => {
  const name = usernameSchema.safeParse(username);
  return name.success ? getUserByUsername({ username: name.data }) : null;
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const profile = await findPlayer((await params).username);
  return { title: profile ? profile.username : 'Unknown player' };
}

export default async function PlayerPage({ params, searchParams }: Props) {
  // Public, and the heaviest page to read: limited per address like the public API reads.
  const verdict = await hit([{ rule: 'publicReadAddress', subject: await clientAddressKey() }]);
  if (!verdict.ok) {
    return (
      <p role="alert" className="text-muted">
        Too many page loads from your network. Try again in {verdict.retryAfterSeconds} seconds.
      </p>
    );
  }
  const profile = await findPlayer((await params).username);
  if (!profile) {
    // A renamed player's old name leads to them for 90 days (account/username.ts).
    const current = await renamedTo({ username: (await params).username });
    if (current) redirect(`/u/${encodeURIComponent(current)}`);
    notFound();
  }
  const viewer = await getSessionUser();
  const own = viewer?.id === profile.id;
  const { matches: matchesParam, rooms: roomsParam } = (await searchParams) ?? {};
  // A bad or stale page link shows the newest matches rather than an error.
  const after = typeof matchesParam === 'string' ? historyCursorSchema.safeParse(matchesParam).data : undefined;
  const roomsAfter = typeof roomsParam === 'string' ? historyCursorSchema.safeParse(roomsParam).data : undefined;
  const [bests, recent, progression, abandons, ratings, history, badges, trends, roomSets] = await Promise.all([
    getPlayerBests({ userId: profile.id }),
    // Games held for review show only to their player, marked as such.
    listRecentGames({ userId: profile.id, includeHeld: own, limit: 20 }),
    // The player sees their own at once; everyone else's view may be up to 10 s old.
    own ? getBestProgression({ userId: profile.id }) : cachedBestProgression(profile.id),
    getAbandonCounts({ userId: profile.id }),
    Promise.all(
      VERSUS_MODE_NAMES.map(async (mode) => ({
        mode,
        ...(await getVersusRating({ userId: profile.id, mode })),
        points: await getRatingHistory({ userId: profile.id, mode, limit: RATING_POINTS }),
        edges: drawnEdges(await bandEdges({ mode })),
      })),
    ),
    getMatchHistory({ userId: profile.id, limit: HISTORY_PAGE, after }),
    getSeasonBadges({ userId: profile.id, modes: VERSUS_MODE_NAMES }),
    Promise.all(VERSUS_MODE_NAMES.map(async (mode) => ({ mode, ...(await getStatsTrend({ userId: profile.id, mode, limit: TREND_MATCHES })) }))),
    getRoomSetHistory({ userId: profile.id, limit: HISTORY_PAGE, after: roomsAfter }),
  ]);
  const profileHref = `/u/${encodeURIComponent(profile.username)}`;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <PageHeading data-testid="profile-username">
            {profile.username}
          </PageHeading>
          <p className="text-sm text-muted">Playing since {formatDate(profile.createdAt.toISOString())}</p>
          {abandons.length > 0 ? (
            // Starting a new game forfeits the open one in that mode (no shopping for good seeds).
            <p className="text-sm text-muted" data-testid="profile-abandons">
              Abandoned games: {abandons.map((a) => `${isMode(a.mode) ? MODE_INFO[a.mode].label : a.mode} ${a.count}`).join(' · ')}
            </p>
          ) : null}
        </div>
        {own ? (
          <div className="flex gap-2">
            <Link href="/account" className={buttonClass({ size: 'md' })}>Account</Link>
            <SignOutButton />
          </div>
        ) : viewer ? (
          <ReportButton username={profile.username} />
        ) : null}
      </div>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Personal bests</h2>
        <PersonalBests bests={bests} own={own} />
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Progress</h2>
        <div className="grid gap-6 lg:grid-cols-3">
          {MODE_ORDER.map((mode) => (
            <div key={mode} className="space-y-1">
              <h3 className="text-sm text-muted">{MODE_INFO[mode].label}</h3>
              <BestChart mode={mode} points={progression[mode]} />
            </div>
          ))}
        </div>
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Recent games</h2>
        <GameList games={recent} />
      </section>
      <section className="space-y-3" aria-labelledby="versus-heading">
        <h2 id="versus-heading" className="text-lg font-semibold">Versus</h2>
        <VersusRatings ratings={ratings} badges={badges} />
      </section>
      <section className="space-y-3" aria-labelledby="stats-heading">
        <h2 id="stats-heading" className="text-lg font-semibold">Versus stats</h2>
        <StatsTrends trends={trends} />
      </section>
      <section className="space-y-3" id="matches" aria-labelledby="matches-heading">
        <h2 id="matches-heading" className="text-lg font-semibold">Match history</h2>
        <MatchHistory entries={history.entries} />
        <div className="flex justify-between text-sm">
          {after ? <Link className="hover:underline" href={`${profileHref}#matches`}>← Newest matches</Link> : <span />}
          {history.nextCursor ? (
            <Link className="hover:underline" href={`${profileHref}?matches=${history.nextCursor}#matches`}>
              Older matches →
            </Link>
          ) : null}
        </div>
      </section>
      <section className="space-y-3" id="rooms" aria-labelledby="rooms-heading">
        <h2 id="rooms-heading" className="text-lg font-semibold">Room sets</h2>
        <RoomSetHistory entries={roomSets.entries} />
        <div className="flex justify-between text-sm">
          {roomsAfter ? <Link className="hover:underline" href={`${profileHref}#rooms`}>← Newest sets</Link> : <span />}
          {roomSets.nextCursor ? (
            <Link className="hover:underline" href={`${profileHref}?rooms=${roomSets.nextCursor}#rooms`}>
              Older sets →
            </Link>
          ) : null}
        </div>
      </section>
    </div>
  );
}
