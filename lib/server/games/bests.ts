import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { isRankable, metricOf, type Mode } from '@/lib/engine';
import type { Db } from '../db';

type Tx = Pick<Db, '$executeRaw' | '$queryRaw'>;

/** A stored game as far as its bests are concerned. */
export type BestGame = { id: string; mode: Mode; score: number; ticks: number; finished: boolean; createdAt: Date; week: string };

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

/**
 * Makes a stored game the player's best for its mode, all-time and in the week it was played,
 * where it is better and its mode ranks it (a topped-out Sprint has no time). For games that
 * reach the boards after they were stored: claimed guest games and approved held ones.
 */
export async function recordGameBests(tx: Tx, userId: string, game: BestGame): Promise<void> {
  if (!isRankable(game.mode, game)) return;
  const metric = metricOf(game.mode, game);
  await tx.$executeRaw`
    INSERT INTO "PersonalBest" ("userId", "mode", "period", "gameId", "metric", "achievedAt")
    VALUES (${userId}, ${game.mode}, 'all', ${game.id}, ${metric}, ${game.createdAt}),
           (${userId}, ${game.mode}, ${game.week}, ${game.id}, ${metric}, ${game.createdAt})
    ${UPSERT_BEST}`;
}

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

export type Ranks = { global: number; weekly: number; isBest: boolean };

/** Ranks of a stored game on its all-time and weekly boards, and whether it is the player's best. */
export async function ranksOf(tx: Tx, position: RankPosition & { week: string }): Promise<Ranks> {
  const rows = await tx.$queryRaw<{ global: bigint | number; weekly: bigint | number; best: string | null }[]>`
    SELECT ${aheadOf(position, 'all')} AS "global", ${aheadOf(position, position.week)} AS "weekly",
           (SELECT "gameId" FROM "PersonalBest"
            WHERE "userId" = ${position.userId ?? ''} AND "mode" = ${position.mode} AND "period" = 'all') AS "best"`;
  const row = rows[0];
  return { global: Number(row?.global ?? 0) + 1, weekly: Number(row?.weekly ?? 0) + 1, isBest: row?.best === position.gameId };
}
