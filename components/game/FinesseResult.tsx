import type { FinesseSummary } from '@/lib/client/play-controller';

/** The result panel's finesse line: faults over the pieces judged (tucks and spins are not). */
export function FinesseResult({ finesse }: { finesse: FinesseSummary | undefined }) {
  if (!finesse) return null;
  const { faults, judged } = finesse;
  return (
    <p data-testid="result-finesse" className="mt-1 text-sm text-field-muted tabular-nums">
      {faults === 0 ? 'No finesse faults' : `${faults} finesse fault${faults === 1 ? '' : 's'}`} in {judged} piece{judged === 1 ? '' : 's'} judged
    </p>
  );
}
