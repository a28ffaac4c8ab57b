import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { MODES, type Mode, type RankBy } from '@/lib/engine';
import { PERIODS, type PeriodId } from '@/lib/periods';
import { getDb } from '@/lib/server/db';
import { cachedBoardPage } from '@/lib/server/games/board-cache';
import { decodeCursor, encodeCursor, InvalidCursorError, type Cursor } from '@/lib/server/games/cursor';

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
  /** Finesse faults of the game, counted when it was verified (finesse.ts); null where none were counted (older games). */
  finesseFaults: number | null;
  /** The clears a drill mode counts (Perfect Clears ranks by them); 0 in the other modes. */
  clears: number;
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

export { InvalidCursorError };

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
           g."score", g."lines", g."ticks", g."pieces", g."pps", g."kpp", g."finesseFaults", g."clears" ${rank}
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
    finesseFaults: raw.finesseFaults,
    clears: raw.clears,
    achievedAt: raw.achievedAt.toISOString(),
  };
}

/** One page of a board as everyone sees it. */
async function readPage(mode: Mode, bucket: string, base: Prisma.Sql, cursor: Cursor | null, limit: number) {
  const db = await getDb();
  const where = cursor
    ? Prisma.sql`${base} AND (pb."metric", pb."achievedAt", pb."gameId") > (${cursor.metric}, ${cursor.achievedAt}, ${cursor.gameId})`
    : base;
  const raw = await db.$queryRaw<RawRow[]>(selectRows(where, limit + 1));
  const firstRank = (cursor?.rank ?? 0) + 1;
  const rows = raw.slice(0, limit).map((r, i) => toRow(r, firstRank + i));
  const last = rows.at(-1);
  const lastRaw = raw[limit - 1];
  const nextCursor =
    raw.length > limit && last && lastRaw
      ? encodeCursor({ mode, period: bucket }, { rank: last.rank, metric: lastRaw.metric, achievedAt: lastRaw.achievedAt, gameId: lastRaw.gameId })
      : null;
  return { rows, nextCursor };
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
  const bucket = options.bucket ?? PERIODS[options.period].bucketOf(options.now ?? new Date());
  // The cursor is checked on every read: a bad one is refused, never served from the cache.
  const cursor = options.cursor ? decodeCursor({ mode: options.mode, period: bucket }, options.cursor) : null;
  const base = Prisma.sql`pb."mode" = ${options.mode} AND pb."period" = ${bucket}`;
  const page = () => readPage(options.mode, bucket, base, cursor, options.limit);
  // A caller with its own clock (a test, a past board's moment) reads afresh.
  const { rows, nextCursor } = options.now ? await page() : await cachedBoardPage(`${options.mode}|${bucket}|${options.cursor ?? ''}|${options.limit}`, page);

  let me: BoardRow | null = null;
  if (options.viewerId) {
    const db = await getDb();
    const [mine] = await db.$queryRaw<RawRow[]>(selectRows(Prisma.sql`${base} AND pb."userId" = ${options.viewerId}`, 1, true));
    if (mine) me = toRow(mine, Number(mine.rank));
  }
  return { mode: options.mode, period: options.period, bucket, metric: MODES[options.mode].rankBy, rows, nextCursor, me };
}
