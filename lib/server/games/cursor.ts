import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { env } from '@/lib/server/env';

/**
 * Board page cursors. Keyset pagination: a cursor is the last row's sort key plus its rank, so
 * page N costs the same as page 1 (no OFFSET). The rank is shown as the next rows' numbering,
 * so the cursor is signed (HMAC with the server secret) and bound to its board: a hand-made or
 * edited cursor would otherwise show anyone as #1 on a real page of the site.
 */
export type Cursor = { rank: number; metric: number; achievedAt: Date; gameId: string };

/**
 * A board whose sort key is a float (the versus rating board) decodes with `float: true`; every
 * other board's metric is an int4 and is refused otherwise.
 */
export type CursorOptions = { float?: boolean };

/** Which board a cursor belongs to: mode and period ('all' or a week). */
export type BoardKey = { mode: string; period: string };

export class InvalidCursorError extends Error {}

function sign(board: BoardKey, payload: string): string {
  // 128 bits of the tag are plenty for a value anyone may request afresh.
  return createHmac('sha256', `${env.AUTH_SECRET}:board-cursor`).update(`${board.mode}\n${board.period}\n${payload}`).digest().subarray(0, 16).toString('base64url');
}

export function encodeCursor(board: BoardKey, c: Cursor): string {
  const payload = Buffer.from(JSON.stringify([c.rank, c.metric, c.achievedAt.getTime(), c.gameId])).toString('base64url');
  return `${payload}.${sign(board, payload)}`;
}

export function decodeCursor(board: BoardKey, text: string, options: CursorOptions = {}): Cursor {
  const [payload = '', tag = '', extra] = text.split('.');
  const expected = Buffer.from(sign(board, payload));
  const given = Buffer.from(tag);
  if (extra !== undefined || expected.length !== given.length || !timingSafeEqual(expected, given)) throw new InvalidCursorError('cursor is invalid');
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 4) {
      const [rank, metric, at, gameId] = value as unknown[];
      // Signed by us, so well-formed; checked anyway in case the secret ever leaks.
      const int4 = (v: unknown): v is number => Number.isInteger(v) && Math.abs(v as number) <= 2_147_483_647;
      const achievedAt = new Date(Number.isSafeInteger(at) ? (at as number) : NaN);
      const metricOk = options.float ? Number.isFinite(metric) : int4(metric);
      if (Number.isSafeInteger(rank) && (rank as number) >= 0 && metricOk && !Number.isNaN(achievedAt.getTime()) && typeof gameId === 'string' && gameId.length <= 40) {
        return { rank: rank as number, metric: metric as number, achievedAt, gameId };
      }
    }
  } catch {
    // fall through
  }
  throw new InvalidCursorError('cursor is invalid');
}
