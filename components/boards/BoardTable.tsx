import Link from 'next/link';
import type { BoardRow } from '@/lib/server/games/boards';
import { RankedTable, type Column } from '@/components/boards/RankedTable';
import { formatResult, MODE_INFO } from '@/lib/ui/modes';
import { formatDate, formatRate } from '@/lib/ui/format';
import { formatFaults } from '@/lib/ui/finesse';
import { MODES, type Mode } from '@/lib/engine';

/** One page of a solo board: each player's best, with its replay. A phone shows rank, player, result and replay. */
export function BoardTable({ mode, rows, me }: { mode: Mode; rows: BoardRow[]; me: BoardRow | null }) {
  const columns: Array<Column<BoardRow>> = [
    { header: MODE_INFO[mode].result.label, align: 'right', cell: (row) => formatResult(mode, row) },
    { header: 'Lines', align: 'right', wide: true, cell: (row) => row.lines },
    { header: 'PPS', align: 'right', wide: true, cell: (row) => formatRate(row.pps) },
    // In a race every wasted press costs time: boards ranked by time show the finesse faults.
    ...(MODES[mode].rankBy === 'time'
      ? [{ header: <abbr title="Finesse faults: presses beyond the fewest that place each piece">Faults</abbr>, align: 'right', wide: true, cell: (row) => formatFaults(row.finesseFaults) } satisfies Column<BoardRow>]
      : []),
    { header: 'Date', muted: true, wide: true, cell: (row) => formatDate(row.achievedAt) },
    {
      header: <span className="sr-only">Replay</span>,
      cell: (row) => (
        <Link href={`/replays/${row.gameId}`} className="link">
          Watch
        </Link>
      ),
    },
  ];
  return <RankedTable columns={columns} rows={rows} me={me} keyOf={(r) => r.gameId} empty="No verified games here yet. Be the first." />;
}
