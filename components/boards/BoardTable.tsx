import Link from 'next/link';
import type { Mode } from '@/lib/engine';
import type { BoardRow } from '@/lib/server/games/boards';
import { formatDate, formatRate, formatResult } from './result';

export function BoardTable({ mode, rows, me }: { mode: Mode; rows: BoardRow[]; me: BoardRow | null }) {
  const resultLabel = mode === 'sprint' ? 'Time' : 'Score';
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-800">
      <table className="w-full text-left text-sm" data-testid="leaderboard">
        <thead className="bg-slate-100 text-xs uppercase tracking-wide text-slate-500 dark:bg-slate-900">
          <tr>
            <th className="px-4 py-2">#</th>
            <th className="px-4 py-2">Player</th>
            <th className="px-4 py-2 text-right">{resultLabel}</th>
            <th className="px-4 py-2 text-right">Lines</th>
            <th className="px-4 py-2 text-right">PPS</th>
            <th className="px-4 py-2">Date</th>
            <th className="px-4 py-2">
              <span className="sr-only">Replay</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <Row key={row.gameId} mode={mode} row={row} mine={row.player.id === me?.player.id} />
          ))}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={7} className="px-4 py-8 text-center text-slate-500">
                No verified games here yet. Be the first.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

function Row({ mode, row, mine }: { mode: Mode; row: BoardRow; mine: boolean }) {
  return (
    <tr className={`border-t border-slate-200 dark:border-slate-800 ${mine ? 'bg-cyan-50 dark:bg-cyan-950/40' : ''}`}>
      <td className="px-4 py-2 font-mono text-slate-500">{row.rank}</td>
      <td className="px-4 py-2 font-medium">{row.player.username}</td>
      <td className="px-4 py-2 text-right font-mono">{formatResult(mode, row)}</td>
      <td className="px-4 py-2 text-right font-mono">{row.lines}</td>
      <td className="px-4 py-2 text-right font-mono">{formatRate(row.pps)}</td>
      <td className="px-4 py-2 text-slate-500">{formatDate(row.achievedAt)}</td>
      <td className="px-4 py-2">
        <Link href={`/replays/${row.gameId}`} className="text-cyan-600 hover:underline dark:text-cyan-400">
          Watch
        </Link>
      </td>
    </tr>
  );
}
