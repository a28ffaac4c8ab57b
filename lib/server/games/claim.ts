import 'server-only';
import { getDb } from '../db';
import { recordBests } from './bests';
import { isRankable, metricOf } from './metric';

/**
 * Moves a guest's recent verified games (and any tickets still in play) to the account they
 * just signed in or up with; the games then join the boards under that account.
 */
export async function claimGuestGames(options: { userId: string; guestId: string; now?: Date }): Promise<number> {
  const { userId, guestId } = options;
  const now = options.now ?? new Date();
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const games = await tx.game.findMany({
      where: { guestId, userId: null, guestExpiresAt: { gt: now } },
      select: { id: true, mode: true, score: true, ticks: true, finished: true, createdAt: true, week: true },
    });
    if (games.length > 0) {
      await tx.game.updateMany({
        where: { id: { in: games.map((g) => g.id) }, userId: null },
        data: { userId, guestId: null, guestExpiresAt: null },
      });
    }
    for (const g of games) {
      if (!isRankable(g.mode, g)) continue;
      await recordBests(tx, { userId, mode: g.mode, gameId: g.id, metric: metricOf(g.mode, g), achievedAt: g.createdAt, week: g.week });
    }
    await tx.gameTicket.updateMany({ where: { guestId, userId: null, usedAt: null }, data: { userId, guestId: null } });
    return games.length;
  });
}
