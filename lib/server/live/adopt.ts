import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { MODE_NAMES, RULES_VERSION, type Handling, type Mode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { owns } from '@/lib/server/games/owner';
import type { Connection } from '@/lib/server/live/connection';
import { GameHost } from '@/lib/server/live/game-host';
import type { LiveHub } from '@/lib/server/live/hub';
import type { Carried } from '@/lib/server/live/lease';
import { resumeTokenOf } from '@/lib/server/live/resume-token';

export type Adoption = { gameId: string; token: string; setup: { handling: Handling; nextCount: number; tick: number } };

/**
 * Takes up a live game whose host this process does not hold (the server restarted while it was
 * played, or the player reconnected to another instance): the ticket has the seed, the browser
 * has the setup and its whole input log, and the token proves the browser is the one the game
 * was dealt to. The pieces dealt are again only the preview ahead of the browser's piece, so
 * nothing is seen earlier than before; the time the server was away is excused, as a
 * reconnect's is. Null when the game cannot be taken up.
 */
export async function adoptLiveGame(hub: LiveHub, conn: Connection, a: Adoption): Promise<GameHost | null> {
  const expected = Buffer.from(resumeTokenOf(a.gameId));
  const given = Buffer.from(a.token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  // With several instances, the one hosting the game hands it over first (or its lease expires,
  // if it died): never two hosts for one game (docs/decisions/0018-several-instances.md).
  const lease = hub.hosts.has(a.gameId) ? { carried: null } : await hub.leases.take(a.gameId);
  if (!lease) return null;
  const host = await adoptHeld(hub, conn, a, lease.carried);
  if (!host && !hub.hosts.has(a.gameId)) hub.leases.release(a.gameId);
  return host;
}

async function adoptHeld(hub: LiveHub, conn: Connection, a: Adoption, carried: Carried | null): Promise<GameHost | null> {
  const db = await getDb();
  const ticket = await db.gameTicket.findUnique({
    where: { id: a.gameId },
    select: { seed: true, mode: true, rulesVersion: true, userId: true, guestId: true, live: true, usedAt: true, streamDigest: true, issuedAt: true, expiresAt: true },
  });
  const now = Date.now();
  if (!ticket || !ticket.live || ticket.usedAt || ticket.streamDigest || ticket.expiresAt.getTime() <= now) return null;
  if (ticket.rulesVersion !== RULES_VERSION || !(MODE_NAMES as readonly string[]).includes(ticket.mode) || !owns(ticket, conn.owner)) return null;
  // Two hellos for the same game raced through the read: the first one's host is the game.
  const already = hub.hosts.get(a.gameId);
  if (already) return already.resume(conn, a.token) ? already : null;
  const address = conn.address;
  const host = new GameHost({
    gameId: a.gameId, seed: ticket.seed, mode: ticket.mode as Mode, handling: a.setup.handling, nextCount: a.setup.nextCount,
    owner: conn.owner, player: conn.player, bus: hub.bus, onClose: (h) => hub.removeGame(h, address),
    adopted: { issuedAtMs: ticket.issuedAt.getTime(), catchUpTo: a.setup.tick, carried },
  });
  hub.addGame(conn, host);
  host.resume(conn, a.token);
  return host;
}
