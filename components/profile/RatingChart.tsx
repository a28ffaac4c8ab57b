import type { VersusMode } from '@/lib/engine';
import type { RatingPoint } from '@/lib/server/versus/history';
import { formatDate } from '@/lib/ui/format';
import { matchHref } from '@/lib/ui/links';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { ratingChart } from '@/lib/ui/rating-chart';
import { formatRating, formatRatingChange } from '@/lib/ui/versus';
import type { BandId } from '@/lib/versus/bands';

// About the width it is shown at (half the page), so its text stays at its CSS size.
const BOX = { width: 420, height: 170, pad: { left: 44, right: 12, top: 10, bottom: 22 } };
/** With band edges, their names stand in a right margin of their own, clear of the line and its dots. */
const BANDED_BOX = { ...BOX, pad: { ...BOX.pad, right: 78 } };

/**
 * A player's rating over their ranked matches in a mode, one dot per match (a link to its
 * replay), and today's band edges within its range as dashed lines. Plain server-rendered SVG, as
 * the personal best chart: no script, no chart library.
 */
export function RatingChart({ mode, points, edges = [] }: { mode: VersusMode; points: RatingPoint[]; edges?: ReadonlyArray<{ band: BandId; rating: number }> }) {
  const testId = `rating-chart-${mode}`;
  const label = VERSUS_MODE_INFO[mode].label;
  if (points.length === 0) {
    return (
      <p className="text-sm text-muted" data-testid={testId} data-points={0}>
        No ranked {label} matches yet.
      </p>
    );
  }
  // The margin only when an edge falls in the chart's range (the heights do not depend on the width).
  const plain = ratingChart(points, BOX, edges);
  const box = plain.bands.length > 0 ? BANDED_BOX : BOX;
  const shape = box === BOX ? plain : ratingChart(points, box, edges);
  const labelYs = apart(shape.bands.map((b) => b.y), 11, box.pad.top, box.height - box.pad.bottom);
  const first = points[0]!;
  const last = points.at(-1)!;
  return (
    <figure data-testid={testId} data-points={points.length}>
      {/* A group, not an image: each dot is a link to its match, reachable by keyboard. */}
      <svg
        viewBox={`0 0 ${box.width} ${box.height}`}
        className="w-full text-brand"
        role="group"
        aria-label={`${label} rating over ${points.length} ranked matches, from ${formatRating(first.before)} to ${formatRating(last.after)}`}
      >
        {shape.guides.map((g) => (
          <g key={g.label}>
            <line x1={box.pad.left} x2={box.width - box.pad.right} y1={g.y} y2={g.y} className="stroke-line" />
            <text x={box.pad.left - 6} y={g.y} textAnchor="end" dominantBaseline="middle" className="fill-muted text-[11px]">
              {g.label}
            </text>
          </g>
        ))}
        {shape.bands.map((b, i) => (
          <g key={b.band} data-band-edge={b.band}>
            <line x1={box.pad.left} x2={box.width - box.pad.right} y1={b.y} y2={b.y} className="stroke-line-strong" strokeDasharray="4 3" />
            <text x={box.width - box.pad.right + 4} y={labelYs[i]} dominantBaseline="middle" className="fill-muted text-[10px]">
              {b.label}
            </text>
          </g>
        ))}
        <text x={box.pad.left} y={box.height - 5} className="fill-muted text-[11px]">{formatDate(first.at)}</text>
        <text x={box.width - box.pad.right} y={box.height - 5} textAnchor="end" className="fill-muted text-[11px]">{formatDate(last.at)}</text>
        <path d={shape.path} fill="none" stroke="currentColor" strokeWidth={2} />
        {points.map((p, i) => {
          const text = `${formatRating(p.after)} (${formatRatingChange(p.before, p.after)}) on ${formatDate(p.at)}`;
          return (
            <a key={p.matchId} href={matchHref(p.matchId)} aria-label={`${text}: watch the match`}>
              <circle cx={shape.dots[i]!.x} cy={shape.dots[i]!.y} r={4} fill="currentColor">
                <title>{text}</title>
              </circle>
            </a>
          );
        })}
      </svg>
    </figure>
  );
}

/**
 * Positions for labels at `ys`, each as near its own as keeps every two at least `gap` apart
 * (band edges can nearly meet) and all within [top, bottom]: pushed down, then back up from the bottom.
 */
function apart(ys: readonly number[], gap: number, top: number, bottom: number): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  const out = ys.slice();
  order.forEach(({ y, i }, k) => (out[i] = Math.max(y, top, k > 0 ? out[order[k - 1]!.i]! + gap : -Infinity)));
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k]!.i;
    out[i] = Math.min(out[i]!, k < order.length - 1 ? out[order[k + 1]!.i]! - gap : bottom);
  }
  return out;
}
