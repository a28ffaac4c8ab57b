// UTC days ("2026-11-22"): a day starts at 00:00:00 UTC whatever the server's or player's time
// zone. Daily leaderboards are bucketed by this.

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** 00:00 UTC starting the day, or null if the text is not an existing day. */
export function dayStart(day: string): Date | null {
  if (!DAY_PATTERN.test(day)) return null;
  const start = new Date(`${day}T00:00:00.000Z`);
  // Date accepts 2026-02-30 (as 2 March): only a day that reads back the same exists.
  return !Number.isNaN(start.getTime()) && utcDay(start) === day ? start : null;
}

export function shiftDay(day: string, by: number): string | null {
  const start = dayStart(day);
  return start ? utcDay(new Date(start.getTime() + by * DAY_MS)) : null;
}
