import 'server-only';
import { randomBytes } from 'node:crypto';
import { RULES_VERSION, type Mode } from '@/lib/engine';
import { getDb } from '../db';
import { cleanupExpired } from './cleanup';
import type { Owner } from './owner';
import { TICKET_TTL_MS } from './policy';

export type Ticket = { gameId: string; seed: string; mode: Mode; rulesVersion: number; issuedAt: string; expiresAt: string };

/** Issues a seed for one game. Guests' tickets are bound to their cookie id. */
export async function issueTicket(options: { mode: Mode; owner: Owner; now?: Date }): Promise<Ticket> {
  const { mode, owner } = options;
  const now = options.now ?? new Date();
  const db = await getDb();
  // 128 bits from the OS's CSPRNG: a player cannot choose or predict their piece sequence.
  const seed = randomBytes(16).toString('base64url');
  const ticket = await db.gameTicket.create({
    data: {
      mode,
      seed,
      rulesVersion: RULES_VERSION,
      userId: owner.userId,
      guestId: owner.userId ? null : owner.guestId,
      issuedAt: now,
      expiresAt: new Date(now.getTime() + TICKET_TTL_MS),
    },
    select: { id: true, issuedAt: true, expiresAt: true },
  });
  void cleanupExpired({ now, throttle: true });
  return {
    gameId: ticket.id,
    seed,
    mode,
    rulesVersion: RULES_VERSION,
    issuedAt: ticket.issuedAt.toISOString(),
    expiresAt: ticket.expiresAt.toISOString(),
  };
}
