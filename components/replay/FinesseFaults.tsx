import type { FinesseTally } from '@/lib/engine';

/** Finesse faults up to the moment shown, of the whole game, and where the timeline marks them. */
export function FinesseFaults({ tally, tick }: { tally: FinesseTally; tick: number }) {
  let sofar = 0;
  for (const p of tally.pieces) if (p.tick < tick) sofar += p.faults;
  return (
    <p className="text-sm" data-testid="replay-faults" data-faults={tally.faults}>
      <span className="text-xs uppercase tracking-wide text-muted">Finesse faults</span>{' '}
      <span className="font-mono tabular-nums">{sofar}</span>
      <span className="text-muted"> of {tally.faults}</span>
      {tally.faults > 0 && <span className="block text-xs text-muted">Marked in red under the timeline, where the piece locked.</span>}
    </p>
  );
}
