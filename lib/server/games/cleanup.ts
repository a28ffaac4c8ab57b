import 'server-only';
import { getDb } from '@/lib/server/db';
import { EXPIRED_TICKET_GRACE_MS } from '@/lib/server/games/policy';
import { pruneLimits } from '@/lib/server/limits/limiter';
import { pruneRefusalCounts } from '@/lib/server/games/refusals';
import { storeUnstoredStreams } from '@/lib/server/games/streams';
import { deleteOldSightings } from '@/lib/server/versus/pairing';
import { rollOverSeasons } from '@/lib/server/versus/seasons';

/** A throttled cleanup runs at most this often per process. */
export const CLEANUP_THROTTLE_MS = 10 * 60 * 1000;
/** Refusals are kept this long for moderation, then deleted. */
export const REJECTION_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
let lastRun = 0;

/**
 * Stores finished live games nobody stored (games/streams.ts), then deletes tickets that expired
 * without a game, guest games nobody claimed in time,
 * refusals older than 30 days, spent rate-limit counters and ranked sightings past their window, and
closes a ranked season that has ended (versus/seasons.ts). Runs at most
 * every 10 minutes per process when throttled (it is triggered by ticket issue, and by the live
 * hub's timer on a quiet site), so no cron is needed; errors are logged, never surfaced to the
 * player whose request triggered it.
 */
export async function cleanupExpired(options: { now?: Date; throttle?: boolean } = {}) {
  const now = options.now ?? new Date();
  if (options.throttle) {
    if (now.getTime() - lastRun < CLEANUP_THROTTLE_MS) return null;
    lastRun = now.getTime();
  }
  try {
    // Finished live games nobody stored (their host was lost; no POST came) go on the boards
    // first: their tickets must not expire with them.
    const streams = await storeUnstoredStreams(now);
    const db = await getDb();
    // Expired tickets with no game: never submitted, or spent by a refused replay. NOT EXISTS, not
    // Prisma's `game: { is: null }`, which becomes NOT IN (all ticket ids of all games): with a
    // million games that ran for minutes, and on PGlite it stalled every other request meanwhile.
    // A live game's recorded stream keeps its ticket until it is stored or refused (storeUnstoredStreams).
    // A grace past the expiry: a submission that read the ticket before it may still be on its way.
    const tickets = await db.$executeRaw`
      DELETE FROM "GameTicket" t
      WHERE t."expiresAt" < ${new Date(now.getTime() - EXPIRED_TICKET_GRACE_MS)} AND t."streamReplay" IS NULL AND NOT EXISTS (SELECT 1 FROM "Game" g WHERE g."ticketId" = t."id")`;
    const retained = new Date(now.getTime() - REJECTION_RETENTION_MS);
    await db.rejectedSubmission.deleteMany({ where: { createdAt: { lt: retained } } });
    await pruneRefusalCounts(retained);
    // Unclaimed guest games past their time (found through the guestId index; a claimed game has
    // none). Deleting the ticket deletes its game (cascade).
    const guestGames = await db.$executeRaw`
      DELETE FROM "GameTicket" t USING "Game" g
      WHERE g."ticketId" = t."id" AND g."guestId" IS NOT NULL AND g."userId" IS NULL AND g."guestExpiresAt" < ${now}`;
    const limits = await pruneLimits(now);
    const sightings = await deleteOldSightings({ now });
    // A quiet site's ended season is closed here; a rated match closes it first if it comes sooner.
    const seasons = await rollOverSeasons({ now });
    return { streams, tickets, guestGames, limits, sightings, seasons };
  } catch (error) {
    if (!options.throttle) throw error;
    console.error('[cleanup] failed', error);
    return null;
  }
}

const running = new Set<Promise<unknown>>();

/**
 * Starts a throttled cleanup without making the caller (a ticket request) wait for it. Each run
 * is remembered until it ends, so whoever must know the database is quiet — a test about to
 * empty it, a server shutting down — can await `backgroundCleanup()`.
 */
export function cleanupInBackground(now: Date): void {
  const run = cleanupExpired({ now, throttle: true }).finally(() => running.delete(run));
  running.add(run);
}

/** Resolves once every cleanup started by `cleanupInBackground` so far has ended. */
export async function backgroundCleanup(): Promise<void> {
  await Promise.allSettled([...running]);
}
