// How versus numbers read on every page (boards, profile, match viewer): no React, no server code.
import { BAND_IDS, bandIndex, BANDS, type BandId } from '@/lib/versus/bands';
import { seasonLabel } from '@/lib/versus/seasons';

/** A rating as players read it: whole points, with "?" while it is provisional. */
export function formatRating(rating: number, provisional = false): string {
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}

/** How far a player is into their placement matches (the count is the server's rule): "placement 3/10". */
export function formatPlacement(p: { played: number; of: number }): string {
  return `placement ${p.played}/${p.of}`;
}

/** A rating change: "+12", "−8" (a real minus sign), "±0". */
export function formatRatingChange(before: number, after: number): string {
  const d = Math.round(after) - Math.round(before);
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

/** A set score from one side: "2–1". */
export function formatSetScore(score: readonly [number, number]): string {
  return `${score[0]}–${score[1]}`;
}

/** Why a game of a set ended, as the viewer's game selector says it. */
export const GAME_END_TEXT: Readonly<Record<string, string>> = { topOut: 'topped out', goal: 'reached the goal', forfeit: 'forfeit' };

/** A band's name ("Gold"), or how far the band changed: "Gold → Platinum"; null when there is none to show (provisional). */
export function formatBandChange(before: BandId | null, after: BandId | null): string | null {
  if (!after) return null;
  return before && before !== after ? `${BANDS[before].label} → ${BANDS[after].label}` : BANDS[after].label;
}

const SET_LENGTHS = [...new Set(BAND_IDS.map((b) => BANDS[b].firstTo))].sort((a, b) => a - b);
/** Every set length a ranked quick match can have, from the band table: "2, 3 or 4". */
export const RANKED_SET_LENGTHS = `${SET_LENGTHS.slice(0, -1).join(', ')} or ${SET_LENGTHS.at(-1)}`;

/**
 * A past season's badge: "S1 · Platinum (peak Diamond)". The peak is named only when it was
 * higher than where the season ended (the end's band is read against the end's edges, so it can
 * even be the higher of the two).
 */
export function formatSeasonBadge(b: { season: number; band: BandId; peakBand: BandId | null }): string {
  const end = `${seasonLabel(b.season)} · ${BANDS[b.band].label}`;
  return b.peakBand && bandIndex(b.peakBand) > bandIndex(b.band) ? `${end} (peak ${BANDS[b.peakBand].label})` : end;
}
