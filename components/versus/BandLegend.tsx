import { BAND_IDS, BANDS } from '@/lib/versus/bands';

/** What the bands mean, from the band table: each one's share of the active players, the highest first. */
export function BandLegend({ activeDays }: { activeDays: number }) {
  const shares = [...BAND_IDS].reverse().map((b, i) => `${BANDS[b].label} ${i === BAND_IDS.length - 1 ? 'the rest' : `top ${BANDS[b].topPerMille / 10} %`}`);
  return (
    <p className="text-xs text-muted" data-testid="band-legend">
      Rank bands, by standing among the established players with a ranked match in the last {activeDays} days: {shares.join(' · ')}.
    </p>
  );
}
