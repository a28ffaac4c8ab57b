import type { VersusMode } from '@/lib/engine';
import type { VersusStanding } from '@/lib/server/versus/boards';
import type { RatingPoint } from '@/lib/server/versus/history';
import type { SeasonBadge } from '@/lib/server/versus/season-boards';
import { RatingChart } from '@/components/profile/RatingChart';
import { PROVISIONAL_TEXT } from '@/components/versus/provisional';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { formatPlacement, formatRating, formatSeasonBadge } from '@/lib/ui/versus';
import { Card } from '@/components/ui/Card';
import { BandBadge } from '@/components/versus/BandBadge';
import type { BandId } from '@/lib/versus/bands';

/** `edges`: the mode's band edges today, for the chart to mark. */
export type ModeRating = VersusStanding & { mode: VersusMode; points: RatingPoint[]; edges: ReadonlyArray<{ band: BandId; rating: number }> };

/** A card per versus mode: the rating ("?" while provisional) and band, the placement or matches and wins, past seasons' badges, and the rating chart. */
export function VersusRatings({ ratings, badges = [] }: { ratings: ModeRating[]; badges?: SeasonBadge[] }) {
  const anyProvisional = ratings.some((r) => r.provisional && r.matches > 0);
  return (
    <div className="space-y-2">
      <div className="grid gap-6 lg:grid-cols-2">
        {ratings.map((r) => (
          <Card key={r.mode} className="space-y-2" data-testid={`versus-rating-${r.mode}`}>
            <h3 className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-semibold">{VERSUS_MODE_INFO[r.mode].label}</span>
              <span className="text-sm text-muted">
                Rating{' '}
                <strong className="font-mono text-2xl text-fg" data-testid={`versus-rating-value-${r.mode}`} title={r.provisional ? 'Provisional' : undefined}>
                  {formatRating(r.rating, r.provisional)}
                </strong>
                {r.band ? <> · <BandBadge band={r.band} testId={`versus-band-${r.mode}`} /></> : null}
              </span>
            </h3>
            <p className="text-sm text-muted">
              {r.placement ? (
                <span className="font-semibold text-fg" data-testid={`versus-placement-${r.mode}`}>{formatPlacement(r.placement)} · </span>
              ) : null}
              {r.matches} ranked {r.matches === 1 ? 'match' : 'matches'}, {r.wins} won
            </p>
            <SeasonBadges badges={badges.filter((b) => b.mode === r.mode)} mode={r.mode} />
            <RatingChart mode={r.mode} points={r.points} edges={r.edges} />
          </Card>
        ))}
      </div>
      {anyProvisional ? <p className="text-xs text-muted">{PROVISIONAL_TEXT}</p> : null}
    </div>
  );
}

/** Past seasons the player ended with a band, newest first: "S1 · Platinum (peak Diamond)". */
function SeasonBadges({ badges, mode }: { badges: SeasonBadge[]; mode: VersusMode }) {
  if (badges.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2 text-xs" aria-label="Past seasons" data-testid={`versus-seasons-${mode}`}>
      {badges.map((b) => (
        <li key={b.season} className="rounded-md border border-line px-2 py-0.5" data-band={b.band}>
          {formatSeasonBadge(b)}
        </li>
      ))}
    </ul>
  );
}
