import { formatPps, formatTime } from '@/lib/ui/format';
import type { Snapshot } from '@/lib/engine';

/** Stats of the moment shown, from the engine's snapshot at that tick. */
export function ReplayStats({ snap }: { snap: Snapshot }) {
  const stats: Array<[string, string]> = [
    ['Time', formatTime(snap.tick)],
    ['Score', snap.score.toLocaleString('en-US')],
    ['Lines', String(snap.lines)],
    ['Pieces', String(snap.pieces)],
    ['PPS', formatPps(snap.pieces, snap.tick)],
    ['KPP', snap.pieces === 0 ? '0.00' : (snap.keys / snap.pieces).toFixed(2)],
  ];
  return (
    <dl className="grid grid-cols-3 gap-x-4 gap-y-1 text-sm" data-testid="replay-stats">
      {stats.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs uppercase tracking-wide text-muted">{label}</dt>
          <dd className="font-mono tabular-nums" data-testid={`stat-${label.toLowerCase()}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
