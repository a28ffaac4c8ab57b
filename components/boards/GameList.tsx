import Link from 'next/link';
import type { Mode } from '@/lib/engine';
import { PlayerLink } from '@/components/boards/PlayerLink';
import { MODE_INFO, formatResult } from '@/lib/ui/modes';
import { formatDate, formatRate } from '@/lib/ui/format';

type ListedGame = {
  id: string;
  mode: Mode;
  score: number;
  ticks: number;
  pps: number;
  createdAt: string;
  player?: { username: string } | null;
  /** 'pending' or 'rejected': held off the boards for inhuman input timing (only the player's own list shows these). */
  reviewStatus?: string | null;
};

const HELD: Record<string, string> = { pending: 'held for review', rejected: 'not ranked' };

/** Verified games, newest first, each with a link to its replay; `showPlayer` for mixed lists. */
export function GameList({ games, showPlayer = false }: { games: ListedGame[]; showPlayer?: boolean }) {
  return (
    <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800" data-testid="game-list">
      {games.map((g) => (
        <li key={g.id} className="flex items-center gap-4 px-4 py-3">
          <span className="w-28 text-sm text-slate-500">{MODE_INFO[g.mode].label}</span>
          {showPlayer ? <span className="flex-1 font-medium">{g.player ? <PlayerLink username={g.player.username} /> : 'Guest'}</span> : null}
          <span className={`font-mono ${showPlayer ? '' : 'flex-1'}`}>
            {formatResult(g.mode, g)}
            {g.reviewStatus && HELD[g.reviewStatus] ? (
              <span data-testid="held" className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 font-sans text-xs text-amber-800 dark:bg-amber-900/40 dark:text-amber-300">
                {HELD[g.reviewStatus]}
              </span>
            ) : null}
          </span>
          <span className="hidden w-20 text-right font-mono text-sm text-slate-500 sm:block">{formatRate(g.pps)} PPS</span>
          <span className="hidden w-24 text-right text-sm text-slate-500 sm:block">{formatDate(g.createdAt)}</span>
          <Link href={`/replays/${g.id}`} className="text-cyan-600 hover:underline dark:text-cyan-400">
            Watch
          </Link>
        </li>
      ))}
      {games.length === 0 ? <li className="px-4 py-8 text-center text-slate-500">No verified games yet.</li> : null}
    </ul>
  );
}
