// The geometry of the profile's rating chart, apart from its markup so it can be tested as numbers.
import { BANDS, type BandId } from '@/lib/versus/bands';

export type ChartPoint = { at: string; before: number; after: number };
export type ChartBox = { width: number; height: number; pad: { left: number; right: number; top: number; bottom: number } };

export type RatingChartShape = {
  /** The line through every rating: the first match's rating before, then each match's after. */
  path: string;
  /** One dot per match, at its rating after. */
  dots: Array<{ x: number; y: number }>;
  /** Horizontal guides at round ratings inside the range, with their labels. */
  guides: Array<{ y: number; label: string }>;
  /** A line at each band edge inside the range, named by the band it opens. */
  bands: Array<{ y: number; label: string; band: BandId }>;
  low: number;
  high: number;
};

/**
 * Places a player's ratings over their matches. The x axis is the match's number, not its date:
 * a week off should not squash a whole evening of matches into one spot. The y range covers every
 * rating with a margin, at least 100 points, so a single match still reads as a small step.
 * Band edges (`edges`, as they stand today) are marked where they fall inside that range; they
 * never widen it, so a chart far from any edge keeps its scale.
 */
export function ratingChart(points: readonly ChartPoint[], box: ChartBox, edges: ReadonlyArray<{ band: BandId; rating: number }> = []): RatingChartShape {
  const ratings = points.length === 0 ? [] : [points[0]!.before, ...points.map((p) => p.after)];
  const lo = Math.min(...ratings);
  const hi = Math.max(...ratings);
  const margin = Math.max(10, (100 - (hi - lo)) / 2);
  const low = Math.floor((lo - margin) / 10) * 10;
  const high = Math.ceil((hi + margin) / 10) * 10;
  const plotW = box.width - box.pad.left - box.pad.right;
  const plotH = box.height - box.pad.top - box.pad.bottom;
  const x = (i: number) => round(box.pad.left + (ratings.length > 1 ? (i / (ratings.length - 1)) * plotW : plotW / 2));
  const y = (r: number) => round(box.pad.top + ((high - r) / (high - low)) * plotH);
  const path = ratings.map((r, i) => `${i === 0 ? 'M' : 'L'}${x(i)} ${y(r)}`).join('');
  const dots = points.map((p, i) => ({ x: x(i + 1), y: y(p.after) }));
  const step = guideStep(high - low);
  const guides: RatingChartShape['guides'] = [];
  for (let r = Math.ceil(low / step) * step; r <= high; r += step) guides.push({ y: y(r), label: String(r) });
  const bands = edges.filter((e) => e.rating > low && e.rating < high).map((e) => ({ y: y(e.rating), label: BANDS[e.band].label, band: e.band }));
  return { path, dots, guides, bands, low, high };
}

/** About three to five guides whatever the range: 25, 50, 100, 250… points apart. */
function guideStep(span: number): number {
  for (const step of [25, 50, 100, 250, 500, 1000]) if (span / step <= 5) return step;
  return 2500;
}

const round = (v: number) => Math.round(v * 10) / 10;
