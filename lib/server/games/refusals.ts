import 'server-only';
import { getDb } from '@/lib/server/db';

/**
 * Counts a refusal that names no ticket of the caller's (an unknown id, another player's ticket)
 * per UTC day and code. Anyone can send those as fast as the limits allow; one row each, kept
 * 30 days, would let them grow the database at will. A refusal of the caller's own ticket is
 * recorded in full (RejectedSubmission), for moderation.
 */
export async function countRefusal(code: string, now: Date): Promise<void> {
  const db = await getDb();
  const day = now.toISOString().slice(0, 10);
  await db.$executeRaw`
    INSERT INTO "RefusalCount" ("day", "code", "count") VALUES (${day}, ${code}, 1)
    ON CONFLICT ("day", "code") DO UPDATE SET "count" = "RefusalCount"."count" + 1`;
}

/** Deletes the counters of days before `before` (run by the periodic cleanup). */
export async function pruneRefusalCounts(before: Date): Promise<void> {
  const db = await getDb();
  await db.refusalCount.deleteMany({ where: { day: { lt: before.toISOString().slice(0, 10) } } });
}
