import type { Metadata } from 'next';
import Link from 'next/link';
import { MODE_LABELS, formatDate, formatRate, formatResult } from '@/components/boards/result';
import { Tabs } from '@/components/boards/Tabs';
import { MODE_NAMES } from '@/lib/engine';
import { listRecentGames } from '@/lib/server/games/replays';
import { modeSchema } from '@/lib/validations/games';

export const metadata: Metadata = { title: 'Replays' };

export default async function ReplaysPage({ searchParams }: { searchParams: Promise<{ mode?: string }> }) {
  const { mode: raw } = await searchParams;
  const mode = raw ? modeSchema.safeParse(raw).data : undefined;
  const games = await listRecentGames({ mode, limit: 50 });
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Replays</h1>
          <p className="text-sm text-slate-500">The latest verified games. Best games are on the <Link className="text-cyan-600 hover:underline dark:text-cyan-400" href="/leaderboards">leaderboards</Link>.</p>
        </div>
        <Tabs
          label="Mode"
          tabs={[
            { href: '/replays', label: 'All', active: !mode },
            ...MODE_NAMES.map((m) => ({ href: `/replays?mode=${m}`, label: MODE_LABELS[m], active: m === mode })),
          ]}
        />
      </header>
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {games.map((g) => (
          <li key={g.id}>
            <Link href={`/replays/${g.id}`} className="flex items-center gap-4 px-4 py-3 hover:bg-slate-100 dark:hover:bg-slate-900">
              <span className="w-28 text-sm text-slate-500">{MODE_LABELS[g.mode]}</span>
              <span className="flex-1 font-medium">{g.player?.username}</span>
              <span className="font-mono">{formatResult(g.mode, g)}</span>
              <span className="hidden w-20 text-right font-mono text-sm text-slate-500 sm:block">{formatRate(g.pps)} PPS</span>
              <span className="hidden w-24 text-right text-sm text-slate-500 sm:block">{formatDate(g.createdAt)}</span>
            </Link>
          </li>
        ))}
        {games.length === 0 ? <li className="px-4 py-8 text-center text-slate-500">No verified games yet.</li> : null}
      </ul>
    </div>
  );
}
