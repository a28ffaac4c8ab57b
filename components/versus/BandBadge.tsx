import { BANDS, type BandId } from '@/lib/versus/bands';

/** A rank band as every page names it (the table is lib/versus/bands.ts). */
export function BandBadge({ band, testId }: { band: BandId; testId?: string }) {
  return (
    <span className="font-semibold text-fg" data-band={band} data-testid={testId}>
      {BANDS[band].label}
    </span>
  );
}
