/** Rows shown at full height; a bigger queue fills the meter and says its number. */
const FULL = 20;

/** Incoming garbage waiting to rise, beside a field: a bar that fills from the floor, and its count. */
export function GarbageMeter({ rows, testId }: { rows: number; testId: string }) {
  const share = Math.min(rows, FULL) / FULL;
  return (
    <div className="flex w-6 flex-col items-center gap-1" data-testid={testId} data-rows={rows}>
      <div className="relative w-3 flex-1 overflow-hidden rounded border border-line-strong" aria-hidden="true">
        <div className="absolute inset-x-0 bottom-0 bg-danger" style={{ height: `${share * 100}%` }} />
      </div>
      <span className="font-mono text-xs tabular-nums" aria-label={`Incoming garbage: ${rows} ${rows === 1 ? 'row' : 'rows'}`}>
        {rows}
      </span>
    </div>
  );
}
