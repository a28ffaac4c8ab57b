/**
 * The ranked season calendar (docs/decisions/0024-seasons.md): season 1 starts at a fixed UTC
 * instant and every season lasts the same whole number of weeks, so any instant's season is
 * arithmetic, the same on the server and in the browser, and a new season is never an admin task.
 */
export const SEASONS = {
  /** Season 1's start: a Monday, 00:00 UTC. Everything before it belongs to season 1 too. */
  firstStartMs: Date.UTC(2026, 10, 2),
  weeks: 8,
} as const satisfies Record<string, number>;

const WEEK_MS = 7 * 86_400_000;
const SEASON_MS = SEASONS.weeks * WEEK_MS;

/** A season: its number (from 1) and its half-open span [start, end). */
export type Season = { number: number; start: Date; end: Date };

export function seasonByNumber(number: number): Season {
  const start = SEASONS.firstStartMs + (number - 1) * SEASON_MS;
  return { number, start: new Date(start), end: new Date(start + SEASON_MS) };
}

/** The season `date` falls in: the end instant is the next season's first. */
export function seasonAt(date: Date): Season {
  const number = Math.max(1, Math.floor((date.getTime() - SEASONS.firstStartMs) / SEASON_MS) + 1);
  return seasonByNumber(number);
}

/** "S3": how a season is named on badges and the board's selector. */
export function seasonLabel(number: number): string {
  return `S${number}`;
}
