import 'server-only';
import { randomBytes } from 'node:crypto';
import { Prisma } from '@/lib/generated/prisma/client';
import { z } from 'zod';
import { RULES_VERSION, type Mode } from '@/lib/engine';
import { gameSetupSchema } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import { cleanupInBackground } from '@/lib/server/games/cleanup';
import type { Owner } from '@/lib/server/games/owner';
import { TICKET_TTL_MS } from '@/lib/server/games/policy';

export type Ticket = { gameId: string; seed: string; mode: Mode; rulesVersion: number; issuedAt: string; expiresAt: string };

/**
 * What a live ticket keeps of its `start` (liveSetup): the handling and preview, and whether its
 * page counted down first (then the clock started START_COUNTDOWN_MS after the deal, and a host
 * that takes the game up after a crash starts it there too).
 */
export const liveSetupSchema = gameSetupSchema.extend({ countdown: z.literal(true).optional() });
export type LiveSetup = z.infer<typeof liveSetupSchema>;

/**
 * Issues a seed for one game. Guests' tickets are bound to their cookie id.
 *
 * One open ticket per player (or guest) and mode: a new one forfeits the previous one, which is
 * marked abandoned (its replay is refused) and counted on the player's profile. Otherwise a
 * player could open tickets until the first pieces looked good and play only those.
 *
 * A live ticket keeps the `setup` its game was started with: a host that takes the game up after
 * the first was lost plays under it (lib/server/live/solo/adopt.ts).
 */
export async function issueTicket(options: {
  mode: Mode; owner: Owner; now?: Date; live?: boolean; setup?: LiveSetup;
}): Promise<Ticket> {
  const { mode, owner } = options;
  // Issued to the live game host (lib/server/live): it keeps the seed until the game is over.
  const live = options.live === true;
  const now = options.now ?? new Date();
  const db = await getDb();
  // 128 bits from the OS's CSPRNG: a player cannot choose or predict their piece sequence.
  const seed = randomBytes(16).toString('base64url');
  // Lower-case hex: URL-safe and within the id pattern every route checks (idSchema).
  const id = randomBytes(12).toString('hex');
  const expiresAt = new Date(now.getTime() + TICKET_TTL_MS);
  const mine = owner.userId ? Prisma.sql`"userId" = ${owner.userId}` : Prisma.sql`"guestId" = ${owner.guestId} AND "userId" IS NULL`;
  // Two tickets issued at once for the same player and mode must not both stay open: the
  // transaction-scoped lock makes their statements take turns (PGlite runs one at a time anyway).
  const lock = `ticket:${owner.userId ?? `guest:${owner.guestId}`}:${mode}`;
  // Raw SQL: tickets are issued at the rate games start, and this skips the query compiler.
  await db.$transaction([
    db.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtextextended(${lock}, 0))) AS locked`,
    db.$executeRaw`
      WITH abandoned AS (
        UPDATE "GameTicket" SET "usedAt" = ${now}, "abandonedAt" = ${now}
        WHERE ${mine} AND "mode" = ${mode} AND "usedAt" IS NULL AND "expiresAt" > ${now}
        RETURNING "userId"
      ), counted AS (
        INSERT INTO "AbandonCount" ("userId", "mode", "count")
        SELECT "userId", ${mode}, count(*)::int FROM abandoned WHERE "userId" IS NOT NULL GROUP BY "userId"
        ON CONFLICT ("userId", "mode") DO UPDATE SET "count" = "AbandonCount"."count" + EXCLUDED."count"
      )
      INSERT INTO "GameTicket" ("id", "mode", "seed", "rulesVersion", "userId", "guestId", "issuedAt", "expiresAt", "live", "liveSetup")
      VALUES (${id}, ${mode}, ${seed}, ${RULES_VERSION}, ${owner.userId}, ${owner.userId ? null : owner.guestId}, ${now}, ${expiresAt}, ${live},
        ${options.setup ? JSON.stringify(options.setup) : null}::jsonb)`,
  ]);
  cleanupInBackground(now);
  return { gameId: id, seed, mode, rulesVersion: RULES_VERSION, issuedAt: now.toISOString(), expiresAt: expiresAt.toISOString() };
}
