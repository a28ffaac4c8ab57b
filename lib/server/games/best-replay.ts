import 'server-only';
import type { Mode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';

export type BestReplay = { gameId: string; replay: string; ticks: number; score: number; lines: number; clears: number };

/** The player's all-time best game in a mode, with its replay (the ghost they race); null when none. */
export async function getBestReplay(options: { userId: string; mode: Mode }): Promise<BestReplay | null> {
  const db = await getDb();
  const best = await db.personalBest.findUnique({
    where: { userId_mode_period: { userId: options.userId, mode: options.mode, period: 'all' } },
    select: { gameId: true },
  });
  if (!best) return null;
  // Ownership in the where clause too: a best only ever points at the player's own game.
  const game = await db.game.findFirst({
    where: { id: best.gameId, userId: options.userId },
    select: { id: true, replay: true, ticks: true, score: true, lines: true, clears: true },
  });
  return game && { gameId: game.id, replay: game.replay, ticks: game.ticks, score: game.score, lines: game.lines, clears: game.clears };
}
