import { TICKS_PER_SECOND, type Mode, type VersusMode } from '@/lib/engine';
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

/** A versus board page: a mode's rating board, or its weekly wins. */
export function versusBoardHref(q: { mode: VersusMode; board?: 'rating' | 'wins'; cursor?: string; season?: number }): string {
  const params = new URLSearchParams({ mode: q.mode });
  if (q.board && q.board !== 'rating') params.set('board', q.board);
  if (q.season !== undefined) params.set('season', String(q.season));
  if (q.cursor) params.set('cursor', q.cursor);
  return `/leaderboards/versus?${params}`;
}

/** A stored versus match in the viewer; `game` counts from 1, as players do. */
export function matchHref(matchId: string, q: { game?: number } = {}): string {
  const path = `/versus/matches/${encodeURIComponent(matchId)}`;
  return q.game && q.game > 1 ? `${path}?game=${q.game}` : path;
}

/** A stored room set in its viewer; `game` counts from 1. */
export function roomSetHref(matchId: string, q: { game?: number } = {}): string {
  const path = `/versus/rooms/sets/${encodeURIComponent(matchId)}`;
  return q.game && q.game > 1 ? `${path}?game=${q.game}` : path;
}

/** Where a stored replay's moment opens in the practice sandbox: a solo game's, or one seat's field in a match's or a room set's game (1-based). */
export type PracticeFrom = { replay: string } | { match: string; game: number; seat: 0 | 1 } | { room: string; game: number; seat: number };

/** The practice sandbox at `tick` of a stored replay. */
export function practiceFromHref(from: PracticeFrom, tick: number): string {
  const params = new URLSearchParams(
    'replay' in from ? { replay: from.replay } : 'room' in from ? { room: from.room, game: String(from.game), seat: String(from.seat) } : { match: from.match, game: String(from.game), seat: String(from.seat) },
  );
  params.set('tick', String(tick));
  return `/practice?${params}`;
}

/** A viewer's page opened at a moment: `?t=` added to its path. */
export function atMoment(path: string, tick: number): string {
  return `${path}${path.includes('?') ? '&' : '?'}t=${secondsParam(tick)}`;
}

/** `?t=` is seconds with decimals (as on video sites); the viewer works in ticks. */
export function ticksFromParam(t: string | undefined): number | null {
  if (t === undefined || !/^\d{1,5}(\.\d{1,3})?$/.test(t)) return null;
  return Math.round(Number(t) * TICKS_PER_SECOND);
}

export function secondsParam(tick: number): string {
  return String(Math.round((tick * 100) / TICKS_PER_SECOND) / 100);
}
