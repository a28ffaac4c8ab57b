import 'server-only';
import { randomBytes } from 'node:crypto';
import { RULES_VERSION, type Mode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { cleanupExpired } from '@/lib/server/games/cleanup';
import type { Owner } from '@/lib/server/games/owner';
import { TICKET_TTL_MS } from '@/lib/server/games/policy';

export type Ticket = { gameId: string; seed: string; mode: Mode; rulesVersion: number; issuedAt: string; expiresAt: string };

/** Issues a seed for one game. Guests' tickets are bound to their cookie id. */
export async function issueTicket(options: { mode: Mode; owner: Owner; now?: Date }): Promise<Ticket> {
  const { mode, owner } = options;
  const now = options.now ?? new Date();
  const db = await getDb();
  // 128 bits from the OS's CSPRNG: a player cannot choose or predict their piece sequence.
  const seed = randomBytes(16).toString('base64url');
  // Lower-case hex: URL-safe and within the id pattern every route checks (idSchema).
  const id = randomBytes(12).toString('hex');
  const expiresAt = new Date(now.getTime() + TICKET_TTL_MS);
  // Raw SQL: tickets are issued at the rate games start, and this skips the query compiler.
  await db.$executeRaw`
    INSERT INTO "GameTicket" ("id", "mode", "seed", "rulesVersion", "userId", "guestId", "issuedAt", "expiresAt")
    VALUES (${id}, ${mode}, ${seed}, ${RULES_VERSION}, ${owner.userId}, ${owner.userId ? null : owner.guestId}, ${now}, ${expiresAt})`;
  void cleanupExpired({ now, throttle: true });
  return { gameId: id, seed, mode, rulesVersion: RULES_VERSION, issuedAt: now.toISOString(), expiresAt: expiresAt.toISOString() };
}
