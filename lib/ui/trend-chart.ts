// The geometry of the profile's APM / PPS / VS trend lines, apart from their markup so it can be tested as numbers.
import type { ChartBox } from '@/lib/ui/rating-chart';

export type TrendShape = {
  path: string;
  /** One dot per value, left to right in order. */
  dots: Array<{ x: number; y: number }>;
  /** The value range drawn: every value inside it, with a margin. */
  low: number;
  high: number;
};

/**
 * Places values (one per match, oldest first) evenly along x, as the rating chart does: by
 * match, not by date. The y range is the values' own with a tenth of their spread (or of their
 * size, when they are all equal) either side, never below zero: a trend is read against the
 * player's own range, where a rate from 0 would flatten every change.
 */
export function trendChart(values: readonly number[], box: ChartBox): TrendShape {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const margin = Math.max((hi - lo) / 10, Math.abs(hi) / 10, 0.01);
  const low = Math.max(0, lo - margin);
  const high = hi + margin;
  const plotW = box.width - box.pad.left - box.pad.right;
  const plotH = box.height - box.pad.top - box.pad.bottom;
  const x = (i: number) => round(box.pad.left + (values.length > 1 ? (i / (values.length - 1)) * plotW : plotW / 2));
  const y = (v: number) => round(box.pad.top + ((high - v) / (high - low)) * plotH);
  const dots = values.map((v, i) => ({ x: x(i), y: y(v) }));
  const path = dots.map((d, i) => `${i === 0 ? 'M' : 'L'}${d.x} ${d.y}`).join('');
  return { path, dots, low, high };
}

const round = (v: number) => Math.round(v * 10) / 10;
