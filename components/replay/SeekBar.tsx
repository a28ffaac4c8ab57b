import { formatTime } from '@/lib/ui/format';

/**
 * The position slider by tick, with a tick mark under it where each piece appeared, and a
 * stronger one where a piece was placed with finesse faults (`faultTicks`, its lock).
 */
export function SeekBar({ tick, end, pieceTicks, faultTicks = [], onSeek }: { tick: number; end: number; pieceTicks: readonly number[]; faultTicks?: readonly number[]; onSeek: (tick: number) => void }) {
  const span = Math.max(1, end);
  // One path for every marker: hundreds of pieces cost one DOM node.
  const marks = (ticks: readonly number[]) => ticks.map((t) => `M${((t / span) * 1000).toFixed(1)} 0V10`).join('');
  const path = marks(pieceTicks);
  return (
    // Its own line when the row is narrow (a phone): sharing it with the transport's seven
    // buttons left the slider 4 px wide at 360 px.
    <div className="min-w-48 flex-1 basis-48">
      <input
        type="range"
        min={0}
        max={end}
        step={1}
        value={Math.min(tick, end)}
        onChange={(e) => onSeek(Number(e.target.value))}
        aria-label="Position"
        aria-valuetext={`${formatTime(tick)} of ${formatTime(end)}`}
        className="block w-full accent-link"
        data-testid="seek-bar"
      />
      <svg viewBox="0 0 1000 10" preserveAspectRatio="none" aria-hidden="true" className="block h-2 w-full" data-testid="piece-markers" data-count={pieceTicks.length}>
        <path d={path} stroke="currentColor" strokeWidth={1.5} vectorEffect="non-scaling-stroke" className="text-line-strong" />
      </svg>
      {faultTicks.length > 0 && (
        <svg viewBox="0 0 1000 10" preserveAspectRatio="none" aria-hidden="true" className="block h-2 w-full" data-testid="fault-markers" data-count={faultTicks.length}>
          <path d={marks(faultTicks)} stroke="currentColor" strokeWidth={2.5} vectorEffect="non-scaling-stroke" className="text-danger" />
        </svg>
      )}
    </div>
  );
}
