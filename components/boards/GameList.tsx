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
  clears: number;
  pps: number;
  createdAt: string;
  player?: { username: string } | null;
  /** 'pending' or 'rejected': held off the boards for inhuman input timing (only the player's own list shows these). */
  reviewStatus?: string | null;
};

const HELD: Record<string, string> = { pending: 'held for review', rejected: 'not ranked', unpaced: 'unpaced: not ranked' };

/** Verified games, newest first, each with a link to its replay; `showPlayer` for mixed lists. */
export function GameList({ games, showPlayer = false }: { games: ListedGame[]; showPlayer?: boolean }) {
  return (
    <ul className="divide-y divide-line rounded-xl border border-line" data-testid="game-list">
      {games.map((g) => (
        <li key={g.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
          <span className="w-20 text-sm text-muted sm:w-28">{MODE_INFO[g.mode].label}</span>
          {showPlayer ? <span className="min-w-0 flex-1 font-medium break-all">{g.player ? <PlayerLink username={g.player.username} /> : 'Guest'}</span> : null}
          <span className={`font-mono ${showPlayer ? '' : 'flex-1'}`}>
            {formatResult(g.mode, g)}
            {g.reviewStatus && HELD[g.reviewStatus] ? (
              <span data-testid="held" className="ml-2 rounded bg-warning-bg px-1.5 py-0.5 font-sans text-xs text-on-warning-bg">
                {HELD[g.reviewStatus]}
              </span>
            ) : null}
          </span>
          <span className="hidden w-20 text-right font-mono text-sm text-muted sm:block">{formatRate(g.pps)} PPS</span>
          <span className="hidden w-24 text-right text-sm text-muted sm:block">{formatDate(g.createdAt)}</span>
          <Link href={`/replays/${g.id}`} className="link">
            Watch
          </Link>
        </li>
      ))}
      {games.length === 0 ? <li className="px-4 py-8 text-center text-muted">No verified games yet.</li> : null}
    </ul>
  );
}
