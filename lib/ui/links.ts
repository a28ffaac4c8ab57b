import { TICKS_PER_SECOND, type Mode } from '@/lib/engine';
import { ALL_TIME, type PeriodId } from '@/lib/periods';

// URLs that several pages build or read, in one place: server pages and client components alike.

/** A board page; without a bucket, the period's current board (so "This week" stays this week). */
export function boardHref(q: { mode: Mode; period?: PeriodId; bucket?: string; cursor?: string }): string {
  const params = new URLSearchParams({ mode: q.mode });
  const period = q.period ?? ALL_TIME;
  if (period !== ALL_TIME) params.set('period', period);
  if (q.bucket && q.bucket !== ALL_TIME) params.set(period, q.bucket);
  if (q.cursor) params.set('cursor', q.cursor);
  return `/leaderboards?${params}`;
}

/** `?t=` is seconds with decimals (as on video sites); the viewer works in ticks. */
export function ticksFromParam(t: string | undefined): number | null {
  if (t === undefined || !/^\d{1,5}(\.\d{1,3})?$/.test(t)) return null;
  return Math.round(Number(t) * TICKS_PER_SECOND);
}

export function secondsParam(tick: number): string {
  return String(Math.round((tick * 100) / TICKS_PER_SECOND) / 100);
}
