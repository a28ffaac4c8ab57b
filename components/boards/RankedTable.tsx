import type { ReactNode } from 'react';
import { PlayerLink } from '@/components/boards/PlayerLink';
import { TABLE_FRAME, TABLE_HEAD } from '@/components/ui/table-class';

/** A board row: its rank (null: off the board, e.g. a provisional rating) and its player. */
export type RankedRow = { rank: number | null; player: { username: string } };

/**
 * A board's own column. `wide`: shown only from the `sm` breakpoint up, for the columns a phone can
 * do without (at 360 px every column at once made the board scroll sideways).
 */
export type Column<Row> = { header: ReactNode; cell: (row: Row) => ReactNode; align?: 'right'; muted?: boolean; wide?: boolean };

/** Narrower cells on a phone, the desk's padding from `sm` up. */
const CELL = 'px-2 py-2 sm:px-4';
const cellClass = (c: Pick<Column<unknown>, 'wide' | 'align'>, ...more: string[]) => [CELL, c.wide ? 'hidden sm:table-cell' : '', c.align === 'right' ? 'text-right' : '', ...more].filter(Boolean).join(' ');

/**
 * One page of any board: rank, player, then the board's own columns. The signed-in player's own
 * row is highlighted where it appears, and pinned above or below the page (after a gap) when it
 * is on another page or on no page at all; `pinnedNote` then says why under it.
 */
export function RankedTable<Row extends RankedRow>(props: {
  columns: ReadonlyArray<Column<Row>>;
  rows: Row[];
  me: Row | null;
  keyOf: (row: Row) => string;
  empty: ReactNode;
  pinnedNote?: ReactNode;
}) {
  const { columns, rows, me, keyOf } = props;
  const width = columns.length + 2;
  const mine = me ? keyOf(me) : null;
  const pinned = me && !rows.some((r) => keyOf(r) === mine) ? me : null;
  const pinAbove = pinned !== null && pinned.rank !== null && rows.length > 0 && rows[0]!.rank !== null && pinned.rank < rows[0]!.rank;
  // The gap stands for the rows between the page and the pinned row; with no rows on the page,
  // there is nothing to stand for (it drew an empty "⋯" row over the board's only row).
  const pin = pinned ? (
    <>
      {pinAbove || rows.length === 0 ? null : <Gap width={width} />}
      <Row columns={columns} row={pinned} mine pinned />
      {props.pinnedNote ? (
        <tr className="bg-highlight" data-testid="pinned-note">
          <td colSpan={width} className="px-2 pb-2 text-xs sm:px-4">{props.pinnedNote}</td>
        </tr>
      ) : null}
      {pinAbove ? <Gap width={width} /> : null}
    </>
  ) : null;
  return (
    // Relative: the header's screen-reader-only text is positioned, and would otherwise escape the
    // scroll box and widen the whole page on a phone.
    <div className={TABLE_FRAME}>
      <table className="w-full text-left text-sm" data-testid="leaderboard">
        <thead className={TABLE_HEAD}>
          <tr>
            <th className={CELL}>#</th>
            <th className={CELL}>Player</th>
            {columns.map((c, i) => (
              <th key={i} className={cellClass(c)}>{c.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {pinAbove ? pin : null}
          {rows.map((row) => (
            <Row key={keyOf(row)} columns={columns} row={row} mine={keyOf(row) === mine} />
          ))}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={width} className="px-4 py-8 text-center text-muted">{props.empty}</td>
            </tr>
          ) : null}
          {pinAbove ? null : pin}
        </tbody>
      </table>
    </div>
  );
}

function Gap({ width }: { width: number }) {
  return (
    <tr aria-hidden="true" className="border-t border-line">
      <td colSpan={width} className="px-4 py-0.5 text-center text-muted">⋯</td>
    </tr>
  );
}

function Row<R extends RankedRow>({ columns, row, mine, pinned = false }: { columns: ReadonlyArray<Column<R>>; row: R; mine: boolean; pinned?: boolean }) {
  return (
    <tr
      className={`border-t border-line ${mine ? 'bg-highlight font-semibold' : ''}`}
      data-testid={pinned ? 'pinned-row' : mine ? 'my-row' : undefined}
      aria-current={mine ? 'true' : undefined}
    >
      <td className={`${CELL} font-mono text-muted`}>{row.rank ?? '–'}</td>
      {/* A long name wraps rather than pushing the result and its replay past a phone's edge. */}
      <td className={`${CELL} font-medium [overflow-wrap:anywhere]`}>
        <PlayerLink username={row.player.username} />
        {mine ? <span className="ml-2 text-xs font-normal text-brand">(you)</span> : null}
      </td>
      {columns.map((c, i) => (
        <td key={i} className={cellClass(c, c.align === 'right' ? 'font-mono' : '', c.muted ? 'text-muted' : '')}>{c.cell(row)}</td>
      ))}
    </tr>
  );
}
