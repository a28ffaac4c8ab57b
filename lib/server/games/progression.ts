import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { MODE_NAMES, RANKED_MODE_NAMES, type Mode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { memoize } from '@/lib/server/memo';
import { BOARDABLE_SQL, METRIC_SQL, RANKABLE_SQL } from '@/lib/server/games/metric';

/** A game that beat every earlier game of the player in its mode: a point on the PB chart. */
export type BestPoint = { gameId: string; at: string; score: number; ticks: number; clears: number };
export type Progression = Record<Mode, BestPoint[]>;

type Raw = { id: string; mode: string; score: number; ticks: number; clears: number; createdAt: Date };

/** The PB chart looks at each mode's latest games only, so a profile costs the same however much its player played. */
export const PROGRESSION_GAMES = 1_000;

/**
 * A player's personal-best history per mode, oldest first, derived from their verified games:
 * a game is a point when its metric beats the best of all their earlier games in that mode
 * (a tie is not an improvement, as on the boards); games held for review do not count. Bounded:
 * per mode, the latest `recent` games (PROGRESSION_GAMES) over the (userId, mode, createdAt)
 * index, then one window function over those.
 */
export async function getBestProgression(options: { userId: string; recent?: number }): Promise<Progression> {
  const db = await getDb();
  const recent = options.recent ?? PROGRESSION_GAMES;
  const rows = await db.$queryRaw<Raw[]>(Prisma.sql`
    SELECT "id", "mode", "score", "ticks", "clears", "createdAt" FROM (
      SELECT g."id", g."mode", g."score", g."ticks", g."clears", g."createdAt", ${METRIC_SQL} AS "metric",
             min(${METRIC_SQL}) OVER (PARTITION BY g."mode" ORDER BY g."createdAt", g."id"
                                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS "before"
      FROM unnest(${[...RANKED_MODE_NAMES]}::text[]) AS m ("mode")
      CROSS JOIN LATERAL (
        SELECT * FROM "Game" g
        WHERE g."userId" = ${options.userId} AND g."mode" = m."mode" AND ${RANKABLE_SQL} AND ${BOARDABLE_SQL}
        ORDER BY g."createdAt" DESC, g."id" DESC
        LIMIT ${recent}
      ) g
    ) s
    WHERE "before" IS NULL OR "metric" < "before"
    ORDER BY "createdAt", "id"`);
  const out = Object.fromEntries(MODE_NAMES.map((m) => [m, [] as BestPoint[]])) as Progression;
  for (const r of rows) {
    out[r.mode as Mode]?.push({ gameId: r.id, at: r.createdAt.toISOString(), score: r.score, ticks: r.ticks, clears: r.clears });
  }
  return out;
}

/** The same for other people's views of a profile, kept 10 s: a popular profile costs one read per 10 s. */
export const cachedBestProgression = memoize({ ttlMs: 10_000, max: 1_000 }, (userId) => getBestProgression({ userId }));
