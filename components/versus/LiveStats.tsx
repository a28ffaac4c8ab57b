import type { LiveStats as Stats } from '@/lib/client/versus-stats';

/** APM, PPS and VS of one field, live (components/versus/runtime.ts counts them). */
export function LiveStats({ who, stats, testId }: { who: string; stats: Stats; testId: string }) {
  const items = [
    ['APM', stats.apm.toFixed(1), 'attack lines per minute'],
    ['PPS', stats.pps.toFixed(2), 'pieces per second'],
    ['VS', stats.vs.toFixed(1), 'attack and garbage cleared per second, × 100'],
  ] as const;
  return (
    <div data-testid={testId} data-apm={stats.apm.toFixed(2)} data-pps={stats.pps.toFixed(2)} data-vs={stats.vs.toFixed(2)} className="min-w-0 text-xs leading-tight">
      <p className="truncate font-semibold">{who}</p>
      <dl className="flex flex-wrap gap-x-2 font-mono tabular-nums">
        {items.map(([k, v, what]) => (
          <div key={k} className="flex gap-1">
            <dt className="text-muted"><abbr title={what} className="no-underline">{k}</abbr></dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
