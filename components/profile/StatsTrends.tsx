import type { VersusMode } from '@/lib/engine';
import type { StatsTrend } from '@/lib/server/versus/field-stats';
import { Card } from '@/components/ui/Card';
import { formatDate } from '@/lib/ui/format';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { formatRateOf, RATE_KEYS, RATE_TEXT, type RateKey } from '@/lib/ui/stats';
import { trendChart } from '@/lib/ui/trend-chart';
import type { Rates } from '@/lib/versus/stats';

export type ModeTrend = StatsTrend & { mode: VersusMode };

/** A card per versus mode: APM, PPS and VS over the last ten matches and all time, and a line of each per match. */
export function StatsTrends({ trends }: { trends: ModeTrend[] }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {trends.map((t) => (
        <Card key={t.mode} className="space-y-3" data-testid={`stats-trend-${t.mode}`} data-matches={t.points.length}>
          <h3 className="font-semibold">{VERSUS_MODE_INFO[t.mode].label}</h3>
          {t.points.length === 0 ? (
            <p className="text-sm text-muted">No measured {VERSUS_MODE_INFO[t.mode].label} matches yet.</p>
          ) : (
            <>
              <Averages mode={t.mode} rows={[['Last 10 matches', t.last10], ['All time', t.allTime]]} />
              <div className="grid gap-2 sm:grid-cols-3">
                {RATE_KEYS.map((k) => <TrendLine key={k} mode={t.mode} rate={k} points={t.points} />)}
              </div>
              <p className="text-xs text-muted">
                One dot per match, {formatDate(t.points[0]!.at)} to {formatDate(t.points.at(-1)!.at)}; a match’s rates are its games’ totals over its time.
              </p>
            </>
          )}
          {t.unmeasured > 0 ? (
            <p className="text-xs text-muted" data-testid={`stats-unmeasured-${t.mode}`}>
              {t.unmeasured} earlier {t.unmeasured === 1 ? 'game was' : 'games were'} stored before attack was measured and {t.unmeasured === 1 ? 'counts' : 'count'} in none of these.
            </p>
          ) : null}
        </Card>
      ))}
    </div>
  );
}

function Averages({ mode, rows }: { mode: VersusMode; rows: Array<[string, Rates | null]> }) {
  return (
    <table className="w-full text-sm" data-testid={`stats-averages-${mode}`}>
      <thead className="text-xs text-muted">
        <tr>
          <th className="py-1 text-left font-normal"><span className="sr-only">Over</span></th>
          {RATE_KEYS.map((k) => (
            <th key={k} className="py-1 text-right font-normal"><abbr title={RATE_TEXT[k].title} className="no-underline">{RATE_TEXT[k].label}</abbr></th>
          ))}
        </tr>
      </thead>
      <tbody className="font-mono tabular-nums">
        {rows.map(([label, r]) => (
          <tr key={label} className="border-t border-line">
            <th scope="row" className="py-1 text-left font-sans font-normal text-muted">{label}</th>
            {RATE_KEYS.map((k) => <td key={k} className="py-1 text-right" data-rate={k}>{r ? formatRateOf(k, r[k]) : '—'}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const BOX = { width: 200, height: 64, pad: { left: 4, right: 4, top: 6, bottom: 6 } };

/** One rate over the matches: plain server-rendered SVG, as the rating chart; its words are HTML, so they keep their size whatever the chart's width. */
function TrendLine({ mode, rate, points }: { mode: VersusMode; rate: RateKey; points: StatsTrend['points'] }) {
  const values = points.map((p) => p[rate]);
  const shape = trendChart(values, BOX);
  const text = RATE_TEXT[rate];
  return (
    <figure data-testid={`stats-line-${mode}-${rate}`}>
      <figcaption className="flex justify-between text-xs">
        <abbr title={text.title} className="text-muted no-underline">{text.label}</abbr>
        <span className="font-mono" title="the newest match">{formatRateOf(rate, values.at(-1)!)}</span>
      </figcaption>
      <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} className="w-full text-brand" role="img"
        aria-label={`${text.label} (${text.title}) over ${points.length} matches, from ${formatRateOf(rate, values[0]!)} to ${formatRateOf(rate, values.at(-1)!)}`}>
        <path d={shape.path} fill="none" stroke="currentColor" strokeWidth={1.5} />
        {points.map((p, i) => (
          <circle key={p.matchId} cx={shape.dots[i]!.x} cy={shape.dots[i]!.y} r={2.5} fill="currentColor">
            <title>{`${text.label} ${formatRateOf(rate, p[rate])} on ${formatDate(p.at)}`}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}
