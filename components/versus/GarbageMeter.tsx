/** Rows shown at full height; a bigger queue fills the meter and says its number. */
const FULL = 20;

/**
 * Incoming garbage waiting to rise, beside a field: a bar that fills from the floor, and its count.
 * With `ready` (the player's own meter), the rows that have landed, which the next lock that clears
 * nothing raises, are solid at the bottom; the rows still in flight (rules 6: they land a fixed
 * delay after they were sent, the same for everyone) are hatched above them. Without it (an
 * opponent's frames say only the total), every row is drawn solid.
 */
export function GarbageMeter({ rows, ready = rows, testId }: { rows: number; ready?: number; testId: string }) {
  const landed = Math.min(ready, rows, FULL);
  const flying = Math.min(rows, FULL) - landed;
  const flyingNote = rows > ready ? `, ${rows - ready} in flight` : '';
  return (
    <div className="flex w-6 flex-col items-center gap-1" data-testid={testId} data-rows={rows} data-ready={ready}>
      <div className="relative w-3 flex-1 overflow-hidden rounded border border-line-strong" aria-hidden="true">
        <div className="absolute inset-x-0 bottom-0 bg-danger" style={{ height: `${(landed / FULL) * 100}%` }} />
        <div
          className="absolute inset-x-0 bg-[repeating-linear-gradient(135deg,var(--color-danger)_0_3px,transparent_3px_6px)]"
          style={{ bottom: `${(landed / FULL) * 100}%`, height: `${(flying / FULL) * 100}%` }}
        />
      </div>
      <span className="font-mono text-xs tabular-nums">
        {rows}
        <span className="sr-only"> incoming garbage {rows === 1 ? 'row' : 'rows'}{flyingNote}</span>
      </span>
    </div>
  );
}
