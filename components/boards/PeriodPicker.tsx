'use client';

import type { Mode } from '@/lib/engine';
import type { PeriodId } from '@/lib/periods';
import { Button } from '@/components/ui/Button';

/**
 * Picks a past board of a period (a week, a day). A plain GET form (works without JS: pick, then
 * "Show"); with JS, picking submits at once.
 */
export function PeriodPicker(props: { mode: Mode; period: PeriodId; label: string; buckets: string[]; selected: string }) {
  return (
    <form method="get" action="/leaderboards" className="flex items-center gap-2 text-sm">
      <input type="hidden" name="mode" value={props.mode} />
      <input type="hidden" name="period" value={props.period} />
      <label className="flex items-center gap-1">
        {props.label}
        <select
          name={props.period}
          defaultValue={props.selected}
          onChange={(e) => e.currentTarget.form?.requestSubmit()}
          className="rounded border border-line-strong bg-transparent px-1 py-0.5 font-mono"
          data-testid="period-picker"
        >
          {props.buckets.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit">
        Show
      </Button>
    </form>
  );
}
