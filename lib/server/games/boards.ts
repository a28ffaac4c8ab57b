import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { MODES, type Mode, type RankBy } from '@/lib/engine';
import { PERIODS, type PeriodId } from '@/lib/periods';
import { getDb } from '@/lib/server/db';

export type BoardRow = {
  rank: number;
  gameId: string;
  player: { id: string; username: string };
  score: number;
  lines: number;
  ticks: number;
  pieces: number;
  pps: number;
  kpp: number;
  achievedAt: string;
};

export type Board = {
  mode: Mode;
  period: PeriodId;
  /** The board shown: 'all', or the period's bucket (an ISO week, a UTC day). */
  bucket: string;
  metric: RankBy;
  rows: BoardRow[];
  nextCursor: string | null;
  /** The signed-in player's own row, wherever it is on the board. */
  me: BoardRow | null;
};

type Cursor = { rank: number; metric: number; achievedAt: Date; gameId: string };

export class InvalidCursorError extends Error {}

// Keyset pagination: the cursor is the last row's sort key plus its rank, so page N costs
// the same as page 1 (no OFFSET). Only the rank numbering trusts the cursor.
function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.rank, c.metric, c.achievedAt.getTime(), c.gameId])).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 4) {
      const [rank, metric, at, gameId] = value as unknown[];
      // Only values a real row can hold: a forged cursor gets a 400, not a database error.
      const int4 = (v: unknown): v is number => Number.isInteger(v) && Math.abs(v as number) <= 2_147_483_647;
      const achievedAt = new Date(Number.isSafeInteger(at) ? (at as number) : NaN);
      if (Number.isSafeInteger(rank) && (rank as number) >= 0 && int4(metric) && !Number.isNaN(achievedAt.getTime()) && typeof gameId === 'string' && gameId.length <= 40) {
        return { rank: rank as number, metric, achievedAt, gameId };
      }
    }
  } catch {
    // fall through
  }
  throw new InvalidCursorError('cursor is invalid');
}

type RawRow = Omit<BoardRow, 'rank' | 'player' | 'achievedAt'> & {
  userId: string;
  username: string;
  metric: number;
  achievedAt: Date;
  rank?: bigint | number;
};

function selectRows(where: Prisma.Sql, limit: number, withRank = false) {
  // The rank of a single row (the viewer's own) is counted in the same query.
  const rank = withRank
    ? Prisma.sql`, (SELECT count(*) + 1 FROM "PersonalBest" ahead
         WHERE ahead."mode" = pb."mode" AND ahead."period" = pb."period"
           AND (ahead."metric", ahead."achievedAt", ahead."gameId") < (pb."metric", pb."achievedAt", pb."gameId")) AS "rank"`
    : Prisma.empty;
  return Prisma.sql`
    SELECT pb."gameId", pb."metric", pb."achievedAt", u."id" AS "userId", u."username",
           g."score", g."lines", g."ticks", g."pieces", g."pps", g."kpp" ${rank}
    FROM "PersonalBest" pb
    JOIN "User" u ON u."id" = pb."userId"
    JOIN "Game" g ON g."id" = pb."gameId"
    WHERE ${where}
    ORDER BY pb."metric", pb."achievedAt", pb."gameId"
    LIMIT ${limit}`;
}

function toRow(raw: RawRow, rank: number): BoardRow {
  return {
    rank,
    gameId: raw.gameId,
    player: { id: raw.userId, username: raw.username },
    score: raw.score,
    lines: raw.lines,
    ticks: raw.ticks,
    pieces: raw.pieces,
    pps: raw.pps,
    kpp: raw.kpp,
    achievedAt: raw.achievedAt.toISOString(),
  };
}

/** One row per player (their best), best first; ties go to the earlier achievement. */
export async function getBoard(options: {
  mode: Mode;
  period: PeriodId;
  /** A past board of the period; its current one when omitted. */
  bucket?: string;
  cursor?: string;
  limit: number;
  viewerId?: string | null;
  now?: Date;
}): Promise<Board> {
  const db = await getDb();
  const bucket = options.bucket ?? PERIODS[options.period].bucketOf(options.now ?? new Date());
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  const base = Prisma.sql`pb."mode" = ${options.mode} AND pb."period" = ${bucket}`;
  const where = cursor
    ? Prisma.sql`${base} AND (pb."metric", pb."achievedAt", pb."gameId") > (${cursor.metric}, ${cursor.achievedAt}, ${cursor.gameId})`
    : base;
  const raw = await db.$queryRaw<RawRow[]>(selectRows(where, options.limit + 1));
  const firstRank = (cursor?.rank ?? 0) + 1;
  const rows = raw.slice(0, options.limit).map((r, i) => toRow(r, firstRank + i));
  const last = rows.at(-1);
  const lastRaw = raw[options.limit - 1];
  const nextCursor =
    raw.length > options.limit && last && lastRaw
      ? encodeCursor({ rank: last.rank, metric: lastRaw.metric, achievedAt: lastRaw.achievedAt, gameId: lastRaw.gameId })
      : null;

  let me: BoardRow | null = null;
  if (options.viewerId) {
    const [mine] = await db.$queryRaw<RawRow[]>(selectRows(Prisma.sql`${base} AND pb."userId" = ${options.viewerId}`, 1, true));
    if (mine) me = toRow(mine, Number(mine.rank));
  }
  return { mode: options.mode, period: options.period, bucket, metric: MODES[options.mode].rankBy, rows, nextCursor, me };
}
