// A stand-in for the live hub and its connections, enough for adoptLiveGame and the message
// dispatch, with one instance's leases (or a handover that carried `carried`); and a live game
// played at pace by a host that is then lost.
import { DEFAULT_HANDLING, type Replay, type ReplayEvent } from '@/lib/engine';
import type { WebSocket } from 'ws';
import { serverMessageSchema, toWireEvent, type ServerMessage } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import type { Owner } from '@/lib/server/games/owner';
import { issueTicket } from '@/lib/server/games/tickets';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { AddressSlots, type Slot } from '@/lib/server/live/address-slots';
import { BudgetsById } from '@/lib/server/live/budgets';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { Connection } from '@/lib/server/live/connection';
import { GameHost } from '@/lib/server/live/solo/game-host';
import type { LiveHub } from '@/lib/server/live/hub';
import { localLeases, type Carried } from '@/lib/server/live/cluster/lease';
import { PACING } from '@/lib/server/live/pacing';
import { resumeTokenOf } from '@/lib/server/live/solo/resume-token';
import { player } from '@/tests/data/play';
import { botGame } from '@/tests/support/replays';

export function liveSite(owner: Owner, carried: Carried | null = null) {
  const hosts = new Map<string, GameHost>();
  const removed: GameHost[] = [];
  /** Leases taken, and what each release carried on. */
  const lease = { takes: 0, released: [] as Array<Carried | undefined> };
  let onRemoved = () => {};
  const hub = {
    hosts,
    adoptions: new Map(),
    bus: createLocalBus(),
    gamesByAddress: new AddressSlots(LIVE_LIMITS.gamesPerAddress),
    catchUpsByGame: new BudgetsById(LIVE_LIMITS.catchUpsPerGamePerSecond, 1_000),
    leases: { ...localLeases, take: async () => (lease.takes++, { carried }), release: async (_: string, c?: Carried) => (lease.released.push(c), true) },
    addGame: (host: GameHost) => hosts.set(host.gameId, host),
    removeGame: (host: GameHost, slot: Slot) => {
      slot();
      if (hosts.get(host.gameId) === host) hosts.delete(host.gameId);
      removed.push(host);
      onRemoved();
    },
  } as unknown as LiveHub;
  /** Another socket of the same player. */
  const connection = () => liveConnection(owner);
  const { conn, sent } = connection();
  /** Settles once a host has been removed from the hub (closed). */
  const nextRemoval = () => new Promise<void>((resolve) => (onRemoved = resolve));
  return { hub, conn, sent, hosts, removed, lease, connection, nextRemoval };
}

/**
 * A connection of `owner` from `address` whose socket is always open, with its real budgets;
 * `sent` is what it received, as it was sent (a real one writes once the handling is done).
 */
export function liveConnection(owner: Owner, address = 'test', device: string | null = null) {
  const sent: ServerMessage[] = [];
  const open = { readyState: 1, OPEN: 1, ping: () => {} } as unknown as WebSocket;
  const conn = new (class extends Connection {
    override send(m: ServerMessage): void {
      // As the browser reads it: every message the server sends must parse. The seats it names are noted as a real socket's are.
      this.streams.heard(m);
      sent.push(serverMessageSchema.parse(m));
    }
  })(open, address, owner, { name: 'survivor', guest: false }, false, device);
  return { conn, sent };
}

export const msAt = (tick: number) => (tick * 1000) / 60;
export const wire = (events: readonly ReplayEvent[], from: number, to: number) => events.filter((e) => e.tick >= from && e.tick < to).map(toWireEvent);

/**
 * A live game played at pace to tick `until` by a host that is then lost (nothing closes it: the
 * process died), its checkpoints written on the ticket as they would be. The ticket was issued
 * 25 s ago, so a browser at tick `until` is well within the wall clock when it is taken up.
 */
/**
 * `pauses`: how many times the player pauses (and at once unpauses) after the first batch;
 * `awayMs`: how long its connection is then away, in all, before it plays on;
 * `lagMs`: how far behind the clock every batch arrives (slow motion within the bound).
 */
export async function lostAt(until: number, o: { owner?: Owner; mode?: 'sprint' | 'ultra'; pauses?: number; awayMs?: number; lagMs?: number; recordSetup?: boolean } = {}) {
  const name = 'survivor';
  const owner = o.owner ?? (await player(name));
  const mode = o.mode ?? 'sprint';
  // Recorded on the ticket as a start records it (`recordSetup: false`: a ticket from before that).
  const setup = o.recordSetup === false ? undefined : { handling: DEFAULT_HANDLING, nextCount: 5 };
  const ticket = await issueTicket({ live: true, mode, owner, now: new Date(Date.now() - 25_000), setup });
  const replay: Replay = { ...botGame(mode, ticket.seed).replay, nextCount: 5 };
  let now = 0;
  let onClose = () => {};
  const closed = new Promise<void>((resolve) => (onClose = resolve));
  const lost = new GameHost({
    gameId: ticket.gameId, seed: ticket.seed, mode, rulesVersion: ticket.rulesVersion, handling: replay.handling, nextCount: 5,
    owner, player: { name, guest: false }, bus: createLocalBus(), now: () => now, finalizeAfterMs: null, onClose,
  });
  const seat = { send: () => {} };
  lost.attach(seat);
  let tick = 0;
  let seq = 1;
  let away = 0;
  /** Plays on at pace to tick `to`, a batch of 6 ticks at a time. */
  const playOn = async (to: number) => {
    for (; tick < to; seq++) {
      const upTo = Math.min(to, tick + 6);
      now = msAt(upTo) + away + (o.lagMs ?? 0);
      const fail = lost.inputs(seq, upTo, wire(replay.events, tick, upTo));
      if (fail) throw new Error(`${fail.code}: ${fail.message}`);
      for (let i = 0; seq === 1 && i < (o.pauses ?? 0); i++) {
        lost.pause();
        lost.unpause();
      }
      // Away in absences each within the resume window, as a flaky connection is: a longer one gives the game up.
      for (let left = seq === 1 ? (o.awayMs ?? 0) : 0; left > 0; left -= PACING.resumeWindowMs) {
        lost.detach(seat);
        now += Math.min(left, PACING.resumeWindowMs);
        if (!lost.resume(seat, resumeTokenOf(ticket.gameId))) throw new Error('the resume was refused');
      }
      if (seq === 1) away = o.awayMs ?? 0;
      await lost.saved();
      tick = upTo;
    }
  };
  await playOn(until);
  const db = await getDb();
  const row = await db.gameTicket.findUniqueOrThrow({ where: { id: ticket.gameId }, select: { liveAckTick: true, liveAckInputs: true } });
  return { owner, ticket, replay, lost, closed, playOn, checkpointTick: row.liveAckTick ?? -1, checkpointInputs: row.liveAckInputs ?? -1 };
}
