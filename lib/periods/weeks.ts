// UTC ISO-8601 weeks ("2026-W47"): weeks start on Monday 00:00:00 UTC, and week 1 is the
// week that holds the year's first Thursday. Weekly leaderboards are bucketed by this.
// Navigation and resets for every period are in ./index.ts.

const DAY_MS = 86_400_000;
export const ISO_WEEK_PATTERN = /^(\d{4})-W(\d{2})$/;

export function isoWeek(date: Date): string {
  const day = Math.floor(date.getTime() / DAY_MS);
  // 1970-01-01 was a Thursday: (day + 3) mod 7 is 0 on Monday.
  const weekday = (((day + 3) % 7) + 7) % 7;
  const thursday = new Date((day - weekday + 3) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const firstThursdayDay = Math.floor(Date.UTC(year, 0, 4) / DAY_MS);
  const firstWeekday = (((firstThursdayDay + 3) % 7) + 7) % 7;
  const week1Monday = firstThursdayDay - firstWeekday;
  const week = Math.floor((day - weekday - week1Monday) / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** Monday 00:00 UTC starting the week, or null if the text is not an existing ISO week. */
export function weekStart(week: string): Date | null {
  const match = ISO_WEEK_PATTERN.exec(week);
  if (!match) return null;
  const year = Number(match[1]);
  const n = Number(match[2]);
  const jan4 = Math.floor(Date.UTC(year, 0, 4) / DAY_MS);
  const monday = jan4 - ((((jan4 + 3) % 7) + 7) % 7) + (n - 1) * 7;
  const start = new Date(monday * DAY_MS);
  return n >= 1 && isoWeek(start) === week ? start : null;
}

export function isValidIsoWeek(week: string): boolean {
  return weekStart(week) !== null;
}

/** The week before or after, for "previous week" links. */
export function shiftWeek(week: string, by: number): string | null {
  const start = weekStart(week);
  return start ? isoWeek(new Date(start.getTime() + by * 7 * DAY_MS)) : null;
}
