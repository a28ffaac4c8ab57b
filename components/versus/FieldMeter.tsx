import { UNITS_H, UNITS_W } from '@/components/game/draw';

/** Rows shown at full height; a bigger queue fills the meter and says its number. */
const FULL = 20;
// Where the matrix lies in the field's picture (components/game/draw.ts): it starts 5.5 cells in,
// its top 2.5 cells down (the spawn rows and a half-cell edge), and is 20 rows high. The bar
// stands in the half cell between the hold column and the matrix.
const pct = (cells: number, of: number) => `${(cells / of) * 100}%`;
const BAR = { right: pct(UNITS_W - 5.45, UNITS_W), width: pct(0.35, UNITS_W), top: pct(2.5, UNITS_H), height: pct(20, UNITS_H) };

/**
 * Incoming garbage, drawn against the matrix's left edge over the field's picture (the parent is
 * the picture's box): the old meter stood at the box's edge, 240 px from the matrix at a desk.
 * With `ready` (the player's own meter), the rows that have landed are solid at the bottom and the
 * rows still in flight hatched above them; without it (an opponent's frames say only the total),
 * every row is solid. The count sits beside the bar's foot.
 */
export function FieldMeter({ rows, ready = rows, testId }: { rows: number; ready?: number; testId: string }) {
  const landed = Math.min(ready, rows, FULL);
  const flying = Math.min(rows, FULL) - landed;
  const flyingNote = rows > ready ? `, ${rows - ready} in flight` : '';
  return (
    <div className="pointer-events-none absolute min-w-[3px]" style={BAR} data-testid={testId} data-rows={rows} data-ready={ready}>
      <div className="absolute inset-0 overflow-hidden rounded-sm bg-field-panel" aria-hidden="true">
        <div className="absolute inset-x-0 bottom-0 bg-danger" style={{ height: `${(landed / FULL) * 100}%` }} />
        <div
          className="absolute inset-x-0 bg-[repeating-linear-gradient(135deg,var(--color-danger)_0_3px,transparent_3px_6px)]"
          style={{ bottom: `${(landed / FULL) * 100}%`, height: `${(flying / FULL) * 100}%` }}
        />
      </div>
      <span className={`absolute right-full bottom-0 mr-0.5 rounded bg-field-panel px-0.5 font-mono text-[10px] leading-tight text-field-fg tabular-nums ${rows === 0 ? 'opacity-0' : ''}`}>
        {rows}
        <span className="sr-only"> incoming garbage {rows === 1 ? 'row' : 'rows'}{flyingNote}</span>
      </span>
    </div>
  );
}
