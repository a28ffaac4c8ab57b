import 'server-only';
import type { Mode } from '@/lib/engine';
import type { Tx } from '@/lib/server/account/tx';
import { recordGameBests, type BestGame } from '@/lib/server/games/bests';

/**
 * Recomputes a player's bests in one mode from their games that may be on the boards (never
 * held, or approved): after a game that held a best is rejected, the next best takes its place.
 * One statement per game; moderation is rare and a player's games in one mode are few enough.
 */
export async function rebuildBests(tx: Tx, options: { userId: string; mode: string }): Promise<void> {
  await tx.personalBest.deleteMany({ where: { userId: options.userId, mode: options.mode } });
  const games = await tx.game.findMany({
    where: { userId: options.userId, mode: options.mode, OR: [{ reviewStatus: null }, { reviewStatus: 'approved' }] },
    select: { id: true, mode: true, score: true, ticks: true, clears: true, finished: true, createdAt: true },
  });
  for (const game of games) await recordGameBests(tx, options.userId, game as BestGame & { mode: Mode });
}
