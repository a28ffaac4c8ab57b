import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import type { Mode } from '@/lib/engine';

/** What a board ranks by; stored so that lower is better for every mode. */
export const BOARD_METRIC: Record<Mode, 'time' | 'score'> = { sprint: 'time', marathon: 'score', ultra: 'score' };

export function metricOf(mode: string, game: { ticks: number; score: number }): number {
  return mode === 'sprint' ? game.ticks : -game.score;
}

/** A Sprint that topped out has no time to rank; Marathon and Ultra rank every score. */
export function isRankable(mode: string, game: { finished: boolean }): boolean {
  return mode !== 'sprint' || game.finished;
}

/** metricOf and isRankable over a row of "Game" (alias g), for queries that rank games themselves. */
export const METRIC_SQL = Prisma.sql`CASE WHEN g."mode" = 'sprint' THEN g."ticks" ELSE -g."score" END`;
export const RANKABLE_SQL = Prisma.sql`(g."mode" <> 'sprint' OR g."finished")`;
/** describe.ts's `boardable` over a row of "Game" (alias g): not held for review, or approved. */
export const BOARDABLE_SQL = Prisma.sql`(g."reviewStatus" IS NULL OR g."reviewStatus" = 'approved')`;
