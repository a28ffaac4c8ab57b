import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import type { Db } from '../db';

type Tx = Pick<Db, '$executeRaw' | '$queryRaw'>;

export type BestEntry = { userId: string; mode: string; gameId: string; metric: number; achievedAt: Date; week: string };

/**
 * Makes the game the player's best for its mode, all-time and in its week, where it beats the
 * current best (a lower metric, or the same metric achieved earlier). One atomic statement per
 * period, so concurrent submissions by one player cannot lose a best.
 */
export async function recordBests(tx: Tx, entry: BestEntry): Promise<void> {
  for (const period of ['all', entry.week]) {
    await tx.$executeRaw`
      INSERT INTO "PersonalBest" ("userId", "mode", "period", "gameId", "metric", "achievedAt")
      VALUES (${entry.userId}, ${entry.mode}, ${period}, ${entry.gameId}, ${entry.metric}, ${entry.achievedAt})
      ON CONFLICT ("userId", "mode", "period") DO UPDATE
        SET "gameId" = EXCLUDED."gameId", "metric" = EXCLUDED."metric", "achievedAt" = EXCLUDED."achievedAt"
        WHERE EXCLUDED."metric" < "PersonalBest"."metric"
           OR (EXCLUDED."metric" = "PersonalBest"."metric" AND EXCLUDED."achievedAt" < "PersonalBest"."achievedAt")`;
  }
}

/**
 * 1-based position a result takes on a board: one more than the players whose best is better.
 * `excludeUserId` leaves out the player's own current best (it is the row being ranked, or
 * the one this result is compared with).
 */
export async function rankOn(
  tx: Tx,
  options: { mode: string; period: string; metric: number; achievedAt: Date; gameId: string; excludeUserId: string | null },
): Promise<number> {
  const { mode, period, metric, achievedAt, gameId, excludeUserId } = options;
  const rows = await tx.$queryRaw<{ ahead: bigint | number }[]>`
    SELECT count(*) AS ahead FROM "PersonalBest"
    WHERE "mode" = ${mode} AND "period" = ${period}
      AND ("metric", "achievedAt", "gameId") < (${metric}, ${achievedAt}, ${gameId})
      ${excludeUserId ? Prisma.sql`AND "userId" <> ${excludeUserId}` : Prisma.empty}`;
  return Number(rows[0]?.ahead ?? 0) + 1;
}
