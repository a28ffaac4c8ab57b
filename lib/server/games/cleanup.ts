import 'server-only';
import { getDb } from '@/lib/server/db';
import { pruneLimits } from '@/lib/server/limits/limiter';

const THROTTLE_MS = 10 * 60 * 1000;
/** Refusals are kept this long for moderation, then deleted. */
export const REJECTION_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
let lastRun = 0;

/**
 * Deletes tickets that expired without a game, guest games nobody claimed in time,
 * refusals older than 30 days and spent rate-limit counters. Runs at most
 * every 10 minutes per process when throttled (it is triggered by ticket issue), so no cron
 * is needed; errors are logged, never surfaced to the player whose request triggered it.
 */
export async function cleanupExpired(options: { now?: Date; throttle?: boolean } = {}) {
  const now = options.now ?? new Date();
  if (options.throttle) {
    if (now.getTime() - lastRun < THROTTLE_MS) return null;
    lastRun = now.getTime();
  }
  try {
    const db = await getDb();
    // Expired tickets with no game: never submitted, or spent by a refused replay. NOT EXISTS, not
    // Prisma's `game: { is: null }`, which becomes NOT IN (all ticket ids of all games): with a
    // million games that ran for minutes, and on PGlite it stalled every other request meanwhile.
    const tickets = await db.$executeRaw`
      DELETE FROM "GameTicket" t
      WHERE t."expiresAt" < ${now} AND NOT EXISTS (SELECT 1 FROM "Game" g WHERE g."ticketId" = t."id")`;
    await db.rejectedSubmission.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - REJECTION_RETENTION_MS) } } });
    // Unclaimed guest games past their time (found through the guestId index; a claimed game has
    // none). Deleting the ticket deletes its game (cascade).
    const guestGames = await db.$executeRaw`
      DELETE FROM "GameTicket" t USING "Game" g
      WHERE g."ticketId" = t."id" AND g."guestId" IS NOT NULL AND g."userId" IS NULL AND g."guestExpiresAt" < ${now}`;
    const limits = await pruneLimits(now);
    return { tickets, guestGames, limits };
  } catch (error) {
    if (!options.throttle) throw error;
    console.error('[cleanup] failed', error);
    return null;
  }
}
