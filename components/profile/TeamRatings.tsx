import type { TeamHistoryEntry, TeamStanding } from '@/lib/server/versus/team-boards';
import { formatDate } from '@/lib/ui/format';
import { ratingChart } from '@/lib/ui/rating-chart';
import { formatPlacement, formatRating, formatRatingChange } from '@/lib/ui/versus';

const BOX = { width: 420, height: 170, pad: { left: 44, right: 12, top: 10, bottom: 22 } };
const name = (p: { username: string } | null) => p?.username ?? 'deleted player';

/**
 * A player's ranked 2v2: their rating, its chart over their last sets (oldest first, as the 1v1
 * chart: one dot per set), and those sets with partner, opponents and the change. Server-rendered
 * SVG and a list; no script.
 */
export function TeamRatings({ standing, history }: { standing: TeamStanding; history: TeamHistoryEntry[] }) {
  const points = history.toReversed().map((h) => ({ at: h.playedAt, before: h.ratingBefore, after: h.ratingAfter }));
  const shape = points.length > 0 ? ratingChart(points, BOX) : null;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-1">
        <p className="text-sm" data-testid="team-rating">
          Rating {formatRating(standing.rating, standing.provisional)}
          {standing.placement ? ` · ${formatPlacement(standing.placement)}` : ''} · {standing.wins}/{standing.matches} sets won
        </p>
        {shape ? (
          <figure data-testid="rating-chart-teams2" data-points={points.length}>
            <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} className="w-full text-brand" role="img" aria-label={`2v2 rating over ${points.length} ranked sets, from ${formatRating(points[0]!.before)} to ${formatRating(points.at(-1)!.after)}`}>
              {shape.guides.map((g) => (
                <g key={g.label}>
                  <line x1={BOX.pad.left} x2={BOX.width - BOX.pad.right} y1={g.y} y2={g.y} className="stroke-line" />
                  <text x={BOX.pad.left - 6} y={g.y} textAnchor="end" dominantBaseline="middle" className="fill-muted text-[11px]">{g.label}</text>
                </g>
              ))}
              <path d={shape.path} fill="none" stroke="currentColor" strokeWidth={2} />
              {shape.dots.map((d, i) => (
                <circle key={history[history.length - 1 - i]!.matchId} cx={d.x} cy={d.y} r={4} fill="currentColor" />
              ))}
            </svg>
          </figure>
        ) : (
          <p className="text-sm text-muted" data-testid="rating-chart-teams2" data-points={0}>No ranked 2v2 sets yet.</p>
        )}
      </div>
      {history.length > 0 ? (
        <ul className="space-y-1 text-sm" data-testid="team-history">
          {history.map((h) => (
            <li key={h.matchId}>
              <span className={h.won ? 'font-semibold' : ''}>{h.won ? 'Won' : 'Lost'}</span> with {name(h.partner)} against{' '}
              {h.opponents.map(name).join(' and ')} · {formatRating(h.ratingAfter)} ({formatRatingChange(h.ratingBefore, h.ratingAfter)}) ·{' '}
              <span className="text-muted">{formatDate(h.playedAt)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
