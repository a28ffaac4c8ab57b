import 'server-only';
import { gameSetupSchema, type GameSetup, type ServerMessage, type UnrankedReason } from '@/lib/live/protocol';
import { MODE_NAMES, SUPPORTED_RULES_VERSIONS, VERSUS_RULES_VERSIONS, type Handling, type Mode } from '@/lib/engine';
import { START_COUNTDOWN_MS } from '@/lib/live/pace';
import { getDb } from '@/lib/server/db';
import { owns } from '@/lib/server/games/owner';
import { liveSetupSchema, type LiveSetup } from '@/lib/server/games/tickets';
import { laterCheckpoint, type AckCheckpoint } from '@/lib/server/live/solo/ack-digest';
import type { Slot } from '@/lib/server/live/address-slots';
import type { Connection } from '@/lib/server/live/connection';
import { GameHost } from '@/lib/server/live/solo/game-host';
import type { LiveHere } from '@/lib/server/live/here';
import type { Carried } from '@/lib/server/live/cluster/lease';
import { resumeTokenMatches } from '@/lib/server/live/solo/resume-token';

/** Solo rules versions the engine still plays: a ticket of any of them can be taken up. */
const SOLO_RULES = SUPPORTED_RULES_VERSIONS.filter((v) => !VERSUS_RULES_VERSIONS.includes(v));

export type Adoption = { gameId: string; token: string; setup: { handling: Handling; nextCount: number; tick: number } };
/** A game that could have been taken up, but not as asked: the resume declared another setup than its ticket's. */
export type AdoptRefusal = { code: 'setup_mismatch'; message: string };

/**
 * Takes up a live game whose host this process does not hold (the server restarted while it was
 * played, or the player reconnected to another instance): the ticket has the seed, the browser
 * has the setup and its whole input log, and the token proves the browser is the one the game
 * was dealt to. The pieces dealt are again only the preview ahead of the browser's piece, so
 * nothing is seen earlier than before; the time the server was away is excused, as a
 * reconnect's is. The game is played under the handling and preview its ticket recorded at
 * `start`; a resume that declares others is refused (AdoptRefusal), since the same log
 * re-simulated under another setup is another game, chosen with hindsight. Null when the game
 * cannot be taken up.
 */
export async function adoptLiveGame(hub: LiveHere, conn: Connection, a: Adoption): Promise<GameHost | AdoptRefusal | null> {
  if (!resumeTokenMatches(a.gameId, a.token)) return null;
  // One adoption of a game at a time in this process: a second resume (a browser retrying, or two
  // tabs) waits for the first and then finds its host, rather than racing it through the lease
  // and the ticket (and releasing a lease the other just built on).
  const before = hub.adoptions.get(a.gameId);
  const run = (before ?? Promise.resolve(null)).catch(() => null).then(() => adoptOnce(hub, conn, a));
  const hosted = run.then((r) => (r instanceof GameHost ? r : null), () => null);
  hub.adoptions.set(a.gameId, hosted);
  try {
    return await run;
  } finally {
    if (hub.adoptions.get(a.gameId) === hosted) hub.adoptions.delete(a.gameId);
  }
}

async function adoptOnce(hub: LiveHere, conn: Connection, a: Adoption): Promise<GameHost | AdoptRefusal | null> {
  const held = hub.hosts.get(a.gameId);
  if (held) return owns(held.owner, conn.owner) && held.resume(conn, a.token) ? held : null;
  // A game taken up here is one more game hosted for this network, as a start would be: its slot
  // is taken before the lease is awaited, and given back unless a host comes of it.
  const slot = hub.gamesByAddress.take(conn.address);
  if (!slot) return null;
  let host: GameHost | null = null;
  let leased = false;
  let carried: Carried | null = null;
  try {
    // With several instances, the one hosting the game hands it over first (or its lease expires,
    // if it died): never two hosts for one game (docs/decisions/0018-several-instances.md).
    const lease = await hub.leases.take(a.gameId);
    if (!lease) return null;
    leased = true;
    carried = lease.carried;
    const adopted = await adoptHeld(hub, conn, a, lease.carried, slot);
    if (adopted instanceof GameHost) host = adopted;
    return adopted;
  } finally {
    // No host came of it (refused, or the database failed): the slot and the lease go back, so
    // another instance need not wait for the lease to expire.
    if (!host) {
      slot();
      // With what a hand-over carried, written again: a take-up refused on purpose (a setup
      // mismatch) would otherwise leave the next one to start afresh once the carry expired.
      if (leased) void hub.leases.release(a.gameId, carried ?? undefined);
    }
  }
}

async function adoptHeld(hub: LiveHere, conn: Connection, a: Adoption, carried: Carried | null, slot: Slot): Promise<GameHost | AdoptRefusal | null> {
  const db = await getDb();
  const ticket = await db.gameTicket.findUnique({
    where: { id: a.gameId },
    select: { seed: true, mode: true, rulesVersion: true, userId: true, guestId: true, live: true, usedAt: true, streamDigest: true, issuedAt: true, expiresAt: true,
      liveAckTick: true, liveAckInputs: true, liveAckDigest: true, liveGivenUpAt: true, livePauses: true, liveAwayMs: true, liveLagMs: true, liveUnranked: true, liveSetup: true },
  });
  const now = Date.now();
  if (!ticket || !stillOpen(ticket, now)) return null;
  // A game dealt before a rules change goes on under its ticket's rules, which the browser that dealt it plays.
  if (!SOLO_RULES.includes(ticket.rulesVersion) || !(MODE_NAMES as readonly string[]).includes(ticket.mode) || !owns(ticket, conn.owner)) return null;
  // A ticket issued before setups were kept (migration live_setup) goes on under the declared one, as before.
  const recorded = ticket.liveSetup === null ? null : liveSetupSchema.safeParse(ticket.liveSetup);
  if (recorded && !recorded.success) return null; // unreadable: not taken up under a guess
  const setup: LiveSetup = recorded?.data ?? gameSetupSchema.parse(a.setup);
  if (!sameSetup(setup, a.setup))
    return { code: 'setup_mismatch', message: 'This game was started with other handling or another preview than this resume declares; it goes on only under its own.' };
  // The resent log must begin with what the lost host had acknowledged: its last checkpoint on the
  // ticket, or what a handover carried, whichever is later.
  const saved = ticket.liveAckTick !== null && ticket.liveAckInputs !== null && ticket.liveAckDigest !== null
    ? { tick: ticket.liveAckTick, inputs: ticket.liveAckInputs, digest: ticket.liveAckDigest } : null;
  const host = new GameHost({
    gameId: a.gameId, seed: ticket.seed, mode: ticket.mode as Mode, rulesVersion: ticket.rulesVersion, handling: setup.handling, nextCount: setup.nextCount,
    owner: conn.owner, player: conn.player, bus: hub.bus, onClose: (h) => hub.removeGame(h, slot),
    // Its clock starts where the lost host's did: after the countdown its page said it would run.
    ...(setup.countdown ? { countdownMs: START_COUNTDOWN_MS } : {}),
    // Pauses, time away and a lost rank from a handover's carry or the last checkpoint, whichever says more:
    // a carry is kept a minute, and the host it went to may have checkpointed more since.
    adopted: {
      issuedAtMs: ticket.issuedAt.getTime(), catchUpTo: a.setup.tick, checkpoint: laterCheckpoint(saved, carried?.ack),
      carried: {
        ...carried, pauses: Math.max(carried?.pauses ?? 0, ticket.livePauses ?? 0), awayMs: Math.max(carried?.awayMs ?? 0, ticket.liveAwayMs ?? 0),
        unranked: carried?.unranked ?? ticket.liveUnranked, lagMs: lagOfLater(saved, ticket.liveLagMs, carried),
      },
    },
  });
  hub.addGame(host);
  host.resume(conn, a.token);
  return host;
}

/**
 * The lag kept by the later of the two accounts of where the game had got to (laterCheckpoint's):
 * a hand-over's carry or the ticket's last checkpoint. Not the larger: a game that caught up since
 * is not held to an old lag (the catch-up excuses the gap less this).
 */
function lagOfLater(saved: AckCheckpoint | null, savedLagMs: number | null, carried: Carried | null): number {
  if (carried && (!saved || (carried.ack?.tick ?? -1) >= saved.tick)) return carried.lagMs ?? 0;
  return savedLagMs ?? 0;
}

type OpenFields = { live: boolean; usedAt: Date | null; streamDigest: string | null; liveGivenUpAt: Date | null; expiresAt: Date };
/** A live game its player may still take up: not ended, stored, given up or expired. */
const stillOpen = (t: OpenFields, now: number) => t.live && !t.usedAt && !t.streamDigest && !t.liveGivenUpAt && t.expiresAt.getTime() > now;

/**
 * Whether a live game hosted nowhere now may yet be taken up by its player's resume (its host
 * died, its lease ran out): a spectator asking for it then waits for the take-up (remote-watches.ts).
 */
export async function mayBeTakenUp(gameId: string): Promise<boolean> {
  const ticket = await (await getDb()).gameTicket.findUnique({
    where: { id: gameId }, select: { live: true, usedAt: true, streamDigest: true, liveGivenUpAt: true, expiresAt: true },
  });
  return ticket !== null && stillOpen(ticket, Date.now());
}

/** Field by field, in the schema's order (a JSONB column keeps its keys in an order of its own). */
function sameSetup(a: GameSetup, b: GameSetup): boolean {
  return JSON.stringify(gameSetupSchema.parse(a)) === JSON.stringify(gameSetupSchema.parse(b));
}

/**
 * The seed of a live game whose stream's end is on its ticket, for a resume this process cannot
 * take up: its host recorded the end and then was lost (a crash or a restart before the store),
 * or the player's socket dropped in that moment and came back through another instance. Once the
 * end is recorded the seed may be told, as the host would have: a submission must be exactly the
 * recorded game. Without it the browser could not submit, and a game the host had not stored yet
 * would be lost. Null unless the token and the owner are the game's and its end is recorded.
 */
export async function endedGameOver(conn: Connection, gameId: string, token: string): Promise<Extract<ServerMessage, { t: 'over' }> | null> {
  if (!resumeTokenMatches(gameId, token)) return null;
  const ticket = await (await getDb()).gameTicket.findUnique({
    where: { id: gameId }, select: { seed: true, userId: true, guestId: true, live: true, streamDigest: true, liveUnranked: true },
  });
  if (!ticket?.live || ticket.streamDigest === null || !owns(ticket, conn.owner)) return null;
  const reason = ticket.liveUnranked as UnrankedReason | null;
  return { t: 'over', gameId, seed: ticket.seed, ranked: reason === null, ...(reason ? { reason } : {}) };
}
