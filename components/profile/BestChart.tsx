import { MODE_INFO, formatResult } from '@/lib/ui/modes';
import { formatDate } from '@/lib/ui/format';
import { MODES, rankValue, type Mode } from '@/lib/engine';
import type { BestPoint } from '@/lib/server/games/progression';

// About the width it is shown at (a third of the page), so its text stays at its CSS size.
const W = 360;
const H = 160;
const PAD = { left: 64, right: 12, top: 12, bottom: 24 };

/**
 * Personal best over time as a step line (a best holds until beaten), better results higher up
 * for every mode. Plain server-rendered SVG: no script, no chart library, readable without JS.
 */
export function BestChart({ mode, points }: { mode: Mode; points: BestPoint[] }) {
  const testId = `pb-chart-${mode}`;
  if (points.length === 0) {
    return (
      <p className="text-sm text-muted" data-testid={testId} data-points={0}>
        No {MODE_INFO[mode].label} bests yet.
      </p>
    );
  }
  if (points.length === 1) {
    // One dot on an empty plot says less than a sentence: the line starts with the first improvement.
    const only = points[0]!;
    return (
      <p className="text-sm" data-testid={testId} data-points={1}>
        One {MODE_INFO[mode].label} best so far: <span className="font-mono">{formatResult(mode, only)}</span> on {formatDate(only.at)} (
        <a className="link" href={`/replays/${only.gameId}`}>watch</a>). The chart starts when you beat it.
      </p>
    );
  }
  const value = (p: BestPoint) => rankValue(mode, p);
  const times = points.map((p) => Date.parse(p.at));
  const values = points.map(value);
  const [t0, t1] = spread(Math.min(...times), Math.max(...times));
  const [v0, v1] = spread(Math.min(...values), Math.max(...values));
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  // Up is better, whichever way the mode ranks.
  const share = (v: number) => (MODES[mode].better === 'lower' ? (v - v0) / (v1 - v0) : (v1 - v) / (v1 - v0));
  const y = (v: number) => PAD.top + share(v) * (H - PAD.top - PAD.bottom);
  const xy = points.map((p, i) => [x(times[i]!), y(values[i]!)] as const);
  const path = xy.map(([px, py], i) => (i === 0 ? `M${px} ${py}` : `H${px}V${py}`)).join('');
  const first = points[0]!;
  const last = points.at(-1)!;
  return (
    <figure data-testid={testId} data-points={points.length}>
      {/* A group, not an image: each point is a link to its replay, reachable by keyboard. */}
      <svg viewBox={`0 0 ${W} ${H}`} className="w-full text-brand" role="group" aria-label={`${MODE_INFO[mode].label} personal best over time: ${points.length} improvements, from ${formatResult(mode, first)} to ${formatResult(mode, last)}`}>
        <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} className="stroke-line-strong" />
        <text x={PAD.left - 8} y={y(value(last))} textAnchor="end" dominantBaseline="middle" className="fill-muted text-[11px]">
          {formatResult(mode, last)}
        </text>
        <text x={PAD.left - 8} y={y(value(first))} textAnchor="end" dominantBaseline="middle" className="fill-muted text-[11px]">
          {formatResult(mode, first)}
        </text>
        <text x={PAD.left} y={H - 6} className="fill-muted text-[11px]">{formatDate(first.at)}</text>
        <text x={W - PAD.right} y={H - 6} textAnchor="end" className="fill-muted text-[11px]">{formatDate(last.at)}</text>
        <path d={path} fill="none" stroke="currentColor" strokeWidth={2} />
        {points.map((p, i) => (
          <a key={p.gameId} href={`/replays/${p.gameId}`} aria-label={`${formatResult(mode, p)} on ${formatDate(p.at)}: watch the replay`}>
            <circle cx={xy[i]![0]} cy={xy[i]![1]} r={4} fill="currentColor">
              <title>{`${formatResult(mode, p)} on ${formatDate(p.at)}`}</title>
            </circle>
          </a>
        ))}
      </svg>
    </figure>
  );
}

/** A non-empty range, so a single point or equal values still land inside the plot. */
function spread(lo: number, hi: number): [number, number] {
  return hi > lo ? [lo, hi] : [lo - 1, hi + 1];
}
