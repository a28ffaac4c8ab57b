import 'server-only';
import { getDb } from '@/lib/server/db';
import { recordGameBests, type BestGame } from '@/lib/server/games/bests';
import { isHeld } from '@/lib/server/games/describe';
import { afterStore } from '@/lib/server/integrity/record';
import { boardsChanged } from '@/lib/server/games/board-cache';

/**
 * Moves a guest's recent verified games (and any tickets still in play) to the account they
 * just signed in or up with; the games then join the boards under that account, and are measured
 * for the judge across games as its own.
 */
export async function claimGuestGames(options: { userId: string; guestId: string; now?: Date }): Promise<number> {
  const { userId, guestId } = options;
  const now = options.now ?? new Date();
  const db = await getDb();
  const claimed = await db.$transaction(async (tx) => {
    // Claim and read back in one statement: only the games this call actually moved get bests
    // here (a concurrent claim by another account cannot hand us its games).
    const games = await tx.$queryRaw<Array<BestGame & { reviewStatus: string | null }>>`
      UPDATE "Game" SET "userId" = ${userId}, "guestId" = NULL, "guestExpiresAt" = NULL
      WHERE "guestId" = ${guestId} AND "userId" IS NULL AND "guestExpiresAt" > ${now}
      RETURNING "id", "mode", "score", "ticks", "clears", "finished", "createdAt", "reviewStatus"`;
    for (const g of games) {
      // A game held for review gets its bests when it is approved (review.ts), not before.
      if (!isHeld(g.reviewStatus)) await recordGameBests(tx, userId, g);
    }
    await tx.gameTicket.updateMany({ where: { guestId, userId: null, usedAt: null }, data: { userId, guestId: null } });
    return games;
  });
  if (claimed.length > 0) boardsChanged();
  // A guest's games get no feature rows (nobody to judge); once an account holds them they are
  // measured like its own, or a bot could play as a guest and claim its games onto the boards
  // unseen by the judge across games (0025).
  if (claimed.length > 0) {
    const stored = await db.game.findMany({ where: { id: { in: claimed.map((g) => g.id) }, userId }, select: { id: true, mode: true, replay: true, createdAt: true } });
    for (const g of stored) afterStore({ kind: 'solo', gameId: g.id, userId, mode: g.mode, replay: g.replay, playedAt: g.createdAt });
  }
  return claimed.length;
}
