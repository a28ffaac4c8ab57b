import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { isRankable, metricOf, type Mode } from '@/lib/engine';
import { ALL_TIME, bucketsAt, PERIOD_IDS, type PeriodId } from '@/lib/periods';
import type { Db } from '@/lib/server/db';

type Tx = Pick<Db, '$executeRaw' | '$queryRaw'>;

/** A stored game as far as its bests are concerned. */
export type BestGame = { id: string; mode: Mode; score: number; ticks: number; clears: number; finished: boolean; createdAt: Date };

/**
 * Keeps a player's best per (mode, period): a new row wins over the stored one when its metric
 * is lower, or equal and achieved earlier. The one definition of "better", shared by every
 * statement that writes bests, each of them a single atomic upsert (no read-then-write race).
 */
export const UPSERT_BEST = Prisma.sql`
  ON CONFLICT ("userId", "mode", "period") DO UPDATE
    SET "gameId" = EXCLUDED."gameId", "metric" = EXCLUDED."metric", "achievedAt" = EXCLUDED."achievedAt"
    WHERE EXCLUDED."metric" < "PersonalBest"."metric"
       OR (EXCLUDED."metric" = "PersonalBest"."metric" AND EXCLUDED."achievedAt" < "PersonalBest"."achievedAt")`;

/** A VALUES list of the buckets a moment counts in, one row per period: the boards a game played then is on. */
export function bucketRows(at: Date): Prisma.Sql {
  const buckets = bucketsAt(at);
  return Prisma.join(PERIOD_IDS.map((p) => Prisma.sql`(${buckets[p]})`));
}

/**
 * Makes a stored game the player's best for its mode on every board of the moment it was played,
 * where it is better and its mode ranks it (a topped-out Sprint has no time). For games that
 * reach the boards after they were stored: claimed guest games and approved held ones. The caller
 * calls boardsChanged() once its transaction has committed (board-cache.ts).
 */
export async function recordGameBests(tx: Tx, userId: string, game: BestGame): Promise<void> {
  if (!isRankable(game.mode, game)) return;
  const metric = metricOf(game.mode, game);
  await tx.$executeRaw`
    INSERT INTO "PersonalBest" ("userId", "mode", "period", "gameId", "metric", "achievedAt")
    SELECT ${userId}, ${game.mode}, period, ${game.id}, ${metric}, ${game.createdAt}
    FROM (VALUES ${bucketRows(game.createdAt)}) AS buckets (period)
    WHERE ${NOT_BANNED(Prisma.sql`${userId}`)}
    ${UPSERT_BEST}`;
}

/** A banned player gets no bests by any path (claimed guest games, approvals, tickets from before the ban). */
export const NOT_BANNED = (userId: Prisma.Sql) => Prisma.sql`NOT EXISTS (SELECT 1 FROM "User" WHERE "id" = ${userId} AND "bannedAt" IS NOT NULL)`;

export type RankPosition = { mode: string; metric: number; achievedAt: Date; gameId: string; userId: string | null };

/**
 * How many players' bests on one board are better than a result: its rank is this plus one.
 * The player's own best is left out (it is the row being ranked, or the one this result
 * competes with). A fragment, so a write statement can rank what it stores in the same trip.
 */
export function aheadOf(position: RankPosition, period: string): Prisma.Sql {
  const { mode, metric, achievedAt, gameId, userId } = position;
  const ahead = Prisma.sql`"mode" = ${mode} AND "period" = ${period}
       AND ("metric", "achievedAt", "gameId") < (${metric}, ${achievedAt}, ${gameId})`;
  // Count everyone ahead, then take the player's own best back out: the first count is then
  // an index-only scan of the board's index (filtering on userId would visit every row).
  const all = Prisma.sql`(SELECT count(*) FROM "PersonalBest" WHERE ${ahead})`;
  if (!userId) return all;
  return Prisma.sql`(${all} - (SELECT count(*) FROM "PersonalBest" WHERE "userId" = ${userId} AND ${ahead}))`;
}

/** A game's position on each board it counts on: 1 is first. */
export type BoardRanks = Record<PeriodId, number>;
export type Ranks = { rank: BoardRanks; isBest: boolean };

/**
 * One JSON object of how many bests are ahead of a result on each board of its moment, keyed by
 * period: a fragment, so submit.ts ranks what it stores in the same statement.
 */
export function aheadOnEveryBoard(position: RankPosition): Prisma.Sql {
  const buckets = bucketsAt(position.achievedAt);
  return Prisma.sql`json_build_object(${Prisma.join(PERIOD_IDS.map((p) => Prisma.sql`${p}::text, ${aheadOf(position, buckets[p])}`))})`;
}

export function ranksFrom(ahead: Record<string, number>): BoardRanks {
  return Object.fromEntries(PERIOD_IDS.map((p) => [p, Number(ahead[p] ?? 0) + 1])) as BoardRanks;
}

/** Ranks of a stored game on every board it counts on, and whether it is the player's all-time best. */
export async function ranksOf(tx: Tx, position: RankPosition): Promise<Ranks> {
  const rows = await tx.$queryRaw<{ ahead: Record<string, number>; best: string | null }[]>`
    SELECT ${aheadOnEveryBoard(position)} AS "ahead",
           (SELECT "gameId" FROM "PersonalBest"
            WHERE "userId" = ${position.userId ?? ''} AND "mode" = ${position.mode} AND "period" = ${ALL_TIME}) AS "best"`;
  const row = rows[0];
  return { rank: ranksFrom(row?.ahead ?? {}), isBest: row?.best === position.gameId };
}
