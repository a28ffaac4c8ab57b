'use client';

/**
 * A plain GET form (works without JS: pick, then "Show"); with JS, picking a week submits at once.
 */
export function PeriodPicker({ mode, weeks, selected }: { mode: string; weeks: string[]; selected: string }) {
  return (
    <form method="get" action="/leaderboards" className="flex items-center gap-2 text-sm">
      <input type="hidden" name="mode" value={mode} />
      <input type="hidden" name="period" value="week" />
      <label className="flex items-center gap-1">
        Week
        <select
          name="week"
          defaultValue={selected}
          onChange={(e) => e.currentTarget.form?.requestSubmit()}
          className="rounded border border-slate-300 bg-transparent px-1 py-0.5 font-mono dark:border-slate-700"
          data-testid="week-picker"
        >
          {weeks.map((w) => (
            <option key={w} value={w}>
              {w}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="rounded border border-slate-300 px-2 py-0.5 dark:border-slate-700">
        Show
      </button>
    </form>
  );
}
