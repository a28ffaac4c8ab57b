import Link from 'next/link';
import type { Mode } from '@/lib/engine';
import type { BoardRow } from '@/lib/server/games/boards';
import { PlayerLink } from '@/components/boards/PlayerLink';
import { formatResult, MODE_INFO } from '@/lib/ui/modes';
import { formatDate, formatRate } from '@/lib/ui/format';

/**
 * One page of a board. The signed-in player's own row is highlighted where it appears, and
 * pinned above or below the page (after a gap) when it is on another page.
 */
export function BoardTable({ mode, rows, me }: { mode: Mode; rows: BoardRow[]; me: BoardRow | null }) {
  const pinned = me && !rows.some((r) => r.gameId === me.gameId) ? me : null;
  const pinAbove = pinned !== null && rows.length > 0 && pinned.rank < rows[0]!.rank;
  const pin = pinned ? (
    <>
      {pinAbove ? null : <Gap />}
      <Row mode={mode} row={pinned} mine pinned />
      {pinAbove ? <Gap /> : null}
    </>
  ) : null;
  return (
    // Relative: the header's screen-reader-only text is positioned, and would otherwise escape the
    // scroll box and widen the whole page on a phone.
    <div className="relative overflow-x-auto rounded-xl border border-line">
      <table className="w-full text-left text-sm" data-testid="leaderboard">
        <thead className="bg-surface-2 text-xs uppercase tracking-wide text-muted">
          <tr>
            <th className="px-4 py-2">#</th>
            <th className="px-4 py-2">Player</th>
            <th className="px-4 py-2 text-right">{MODE_INFO[mode].result.label}</th>
            <th className="px-4 py-2 text-right">Lines</th>
            <th className="px-4 py-2 text-right">PPS</th>
            <th className="px-4 py-2">Date</th>
            <th className="px-4 py-2">
              <span className="sr-only">Replay</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {pinAbove ? pin : null}
          {rows.map((row) => (
            <Row key={row.gameId} mode={mode} row={row} mine={row.gameId === me?.gameId} />
          ))}
          {rows.length === 0 && !pinned ? (
            <tr>
              <td colSpan={7} className="px-4 py-8 text-center text-muted">
                No verified games here yet. Be the first.
              </td>
            </tr>
          ) : null}
          {pinAbove ? null : pin}
        </tbody>
      </table>
    </div>
  );
}

function Gap() {
  return (
    <tr aria-hidden="true" className="border-t border-line">
      <td colSpan={7} className="px-4 py-0.5 text-center text-muted">⋯</td>
    </tr>
  );
}

function Row({ mode, row, mine, pinned = false }: { mode: Mode; row: BoardRow; mine: boolean; pinned?: boolean }) {
  return (
    <tr
      className={`border-t border-line ${mine ? 'bg-highlight font-semibold' : ''}`}
      data-testid={pinned ? 'pinned-row' : mine ? 'my-row' : undefined}
      aria-current={mine ? 'true' : undefined}
    >
      <td className="px-4 py-2 font-mono text-muted">{row.rank}</td>
      <td className="px-4 py-2 font-medium">
        <PlayerLink username={row.player.username} />
        {mine ? <span className="ml-2 text-xs font-normal text-brand">(you)</span> : null}
      </td>
      <td className="px-4 py-2 text-right font-mono">{formatResult(mode, row)}</td>
      <td className="px-4 py-2 text-right font-mono">{row.lines}</td>
      <td className="px-4 py-2 text-right font-mono">{formatRate(row.pps)}</td>
      <td className="px-4 py-2 text-muted">{formatDate(row.achievedAt)}</td>
      <td className="px-4 py-2">
        <Link href={`/replays/${row.gameId}`} className="link">
          Watch
        </Link>
      </td>
    </tr>
  );
}
