import type { Attack } from '@/lib/client/attacks';

/**
 * Under the seek bar: a mark at each attack's moment, the first seat's above the line and the
 * second's below, taller for bigger attacks. Decoration: the attack log says the same in words.
 */
export function AttackMarkers({ attacks, end }: { attacks: readonly Attack[]; end: number }) {
  const span = Math.max(1, end);
  const path = (seat: 0 | 1) =>
    attacks
      .filter((a) => a.from === seat)
      .map((a) => {
        const x = ((a.sentAt / span) * 1000).toFixed(1);
        const h = Math.min(10, 2 + a.size);
        return seat === 0 ? `M${x} 10V${10 - h}` : `M${x} 10V${10 + h}`;
      })
      .join('');
  return (
    <svg viewBox="0 0 1000 20" preserveAspectRatio="none" aria-hidden="true" className="block h-4 w-full" data-testid="attack-markers" data-count={attacks.length}>
      <path d={path(0)} stroke="currentColor" strokeWidth={2} vectorEffect="non-scaling-stroke" className="text-brand" />
      <path d={path(1)} stroke="currentColor" strokeWidth={2} vectorEffect="non-scaling-stroke" className="text-danger" />
    </svg>
  );
}
