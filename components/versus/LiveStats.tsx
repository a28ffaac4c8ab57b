import type { LiveStats as Stats } from '@/lib/client/versus-stats';
import { formatRateOf, RATE_KEYS, RATE_TEXT } from '@/lib/ui/stats';

/** APM, PPS and VS of one field, live (components/versus/runtime.ts counts them) or at the replay viewer's tick; `who` heads them where nothing else names the field. */
export function LiveStats({ who, stats, testId }: { who?: string; stats: Stats; testId: string }) {
  return (
    <div data-testid={testId} data-apm={stats.apm.toFixed(2)} data-pps={stats.pps.toFixed(2)} data-vs={stats.vs.toFixed(2)} className="min-w-0 text-xs leading-tight">
      {who === undefined ? null : <p className="truncate font-semibold">{who}</p>}
      <dl className="flex flex-wrap gap-x-2 font-mono tabular-nums">
        {RATE_KEYS.map((k) => (
          <div key={k} className="flex gap-1">
            <dt className="text-muted"><abbr title={RATE_TEXT[k].title} className="no-underline">{RATE_TEXT[k].label}</abbr></dt>
            <dd>{formatRateOf(k, stats[k])}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

