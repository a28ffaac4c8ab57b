/**
 * Rank bands: where a player's rating stands among the active established players of a mode, by
 * percentile, as Tetra League ranks do (docs/decisions/0023-rank-bands.md). Shared by the server,
 * which reads the edges (lib/server/versus/bands.ts), and the pages that show the bands.
 */

/** Lowest first: a band's index is how far up the ladder it is. */
export const BAND_IDS = ['bronze', 'silver', 'gold', 'platinum', 'diamond', 'master', 'grandmaster'] as const;
export type BandId = (typeof BAND_IDS)[number];

type Band = {
  label: string;
  /**
   * The band and every band above it hold at most this share of the active players, in
   * thousandths (10 = the top 1 %): whole numbers, so the server's count of who fits is exact.
   */
  topPerMille: number;
  /** A ranked quick match is first to this many games, by the lower band of its two players. */
  firstTo: number;
};

export const BANDS = {
  bronze: { label: 'Bronze', topPerMille: 1000, firstTo: 2 },
  silver: { label: 'Silver', topPerMille: 850, firstTo: 2 },
  gold: { label: 'Gold', topPerMille: 600, firstTo: 3 },
  platinum: { label: 'Platinum', topPerMille: 350, firstTo: 3 },
  diamond: { label: 'Diamond', topPerMille: 150, firstTo: 4 },
  master: { label: 'Master', topPerMille: 50, firstTo: 4 },
  grandmaster: { label: 'Grandmaster', topPerMille: 10, firstTo: 4 },
} as const satisfies Record<BandId, Band>;

/**
 * The lowest rating in each band as the population stands: -Infinity for the lowest band (every
 * established player has a band), +Infinity for a band the population is too small to fill.
 */
export type BandEdges = Readonly<Record<BandId, number>>;

/** The highest band whose edge the rating reaches. */
export function bandOf(rating: number, edges: BandEdges): BandId {
  for (let i = BAND_IDS.length - 1; i > 0; i--) if (rating >= edges[BAND_IDS[i]!]) return BAND_IDS[i]!;
  return BAND_IDS[0];
}

export function bandIndex(band: BandId): number {
  return BAND_IDS.indexOf(band);
}

/** How long a ranked quick match between these two bands is: the lower band's set. */
export function setLengthOf(a: BandId, b: BandId): number {
  return BANDS[BAND_IDS[Math.min(bandIndex(a), bandIndex(b))]!].firstTo;
}

/** The edges a chart can draw: each band's lowest rating, for the bands above the lowest that anyone can reach. */
export function drawnEdges(edges: BandEdges): Array<{ band: BandId; rating: number }> {
  return BAND_IDS.slice(1).flatMap((band) => (Number.isFinite(edges[band]) ? [{ band, rating: edges[band] }] : []));
}
