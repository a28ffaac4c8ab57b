import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { MODE_NAMES, type Mode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { BOARDABLE_SQL, METRIC_SQL, RANKABLE_SQL } from '@/lib/server/games/metric';

/** A game that beat every earlier game of the player in its mode: a point on the PB chart. */
export type BestPoint = { gameId: string; at: string; score: number; ticks: number };
export type Progression = Record<Mode, BestPoint[]>;

type Raw = { id: string; mode: string; score: number; ticks: number; createdAt: Date };

/**
 * A player's personal-best history per mode, oldest first, derived from their verified games:
 * a game is a point when its metric beats the best of all their earlier games in that mode
 * (a tie is not an improvement, as on the boards); games held for review do not count. One window-function scan of the player's
 * games over the (userId, mode, createdAt) index.
 */
export async function getBestProgression(options: { userId: string }): Promise<Progression> {
  const db = await getDb();
  const rows = await db.$queryRaw<Raw[]>(Prisma.sql`
    SELECT "id", "mode", "score", "ticks", "createdAt" FROM (
      SELECT g."id", g."mode", g."score", g."ticks", g."createdAt", ${METRIC_SQL} AS "metric",
             min(${METRIC_SQL}) OVER (PARTITION BY g."mode" ORDER BY g."createdAt", g."id"
                                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS "before"
      FROM "Game" g
      WHERE g."userId" = ${options.userId} AND ${RANKABLE_SQL} AND ${BOARDABLE_SQL}
    ) s
    WHERE "before" IS NULL OR "metric" < "before"
    ORDER BY "createdAt", "id"`);
  const out = Object.fromEntries(MODE_NAMES.map((m) => [m, [] as BestPoint[]])) as Progression;
  for (const r of rows) {
    out[r.mode as Mode]?.push({ gameId: r.id, at: r.createdAt.toISOString(), score: r.score, ticks: r.ticks });
  }
  return out;
}
