import type { Metadata } from 'next';
import Link from 'next/link';
import { GameList } from '@/components/boards/GameList';
import { MODE_INFO, MODE_ORDER } from '@/lib/ui/modes';
import { Tabs } from '@/components/boards/Tabs';
import { listRecentGames } from '@/lib/server/games/replays';
import { modeSchema } from '@/lib/validations/games';
import { PageHeading } from '@/components/ui/PageHeading';

export const metadata: Metadata = { title: 'Replays' };

export default async function ReplaysPage({ searchParams }: { searchParams: Promise<{ mode?: string }> }) {
  const { mode: raw } = await searchParams;
  const mode = raw ? modeSchema.safeParse(raw).data : undefined;
  const games = await listRecentGames({ mode, limit: 50 });
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <PageHeading>Replays</PageHeading>
          <p className="text-sm text-muted">The latest verified games. Best games are on the <Link className="link" href="/leaderboards">leaderboards</Link>.</p>
        </div>
        <Tabs
          label="Mode"
          tabs={[
            { href: '/replays', label: 'All', active: !mode },
            ...MODE_ORDER.map((m) => ({ href: `/replays?mode=${m}`, label: MODE_INFO[m].label, active: m === mode })),
          ]}
        />
      </header>
      <GameList games={games} showPlayer />
    </div>
  );
}
