// A room lobby on a hand-turned clock, and scripted sockets that play a seat as a browser would:
// batches every 100 ms of the room's clock, a hard drop every half second.
import { expect } from 'vitest';
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES, keyId, type RoomRules } from '@/lib/engine';
import { clientMessageSchema, type ClientMessage, type InputsMessage, type RoomMessage, type ServerMessage } from '@/lib/live/protocol';
import type { WireEvent } from '@/lib/live/wire';
import type { BotSpec } from '@/lib/bot/spec';
import type { Timers } from '@/lib/server/live/match/match-host';
import { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import type { RoomSeatSpec } from '@/lib/server/live/rooms/room-seat';
import type { RoomHost, RoomHostOptions } from '@/lib/server/live/rooms/room-host';
import { clockTick } from '@/lib/server/live/rooms/room-limits';
import { liveConnection } from '@/tests/data/live-site';
import { stallProbe } from '@/tests/support/stall-probe';
import type { Owner } from '@/lib/server/games/owner';

export function fakeClock() {
  let now = 0;
  let due: { at: number; fn: () => void; id: number }[] = [];
  let ids = 0;
  const timers: Timers = {
    set: (fn, ms) => {
      const t = { at: now + ms, fn, id: ++ids };
      due.push(t);
      return t.id;
    },
    clear: (h) => void (due = due.filter((t) => t.id !== h)),
  };
  /** Runs the clock forward by `ms`, firing every timer due on the way, in order. */
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      due.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = due[0];
      if (!next || next.at > end) break;
      due.shift();
      now = Math.max(now, next.at);
      next.fn();
    }
    now = end;
  };
  /**
   * This process stalls `ms` (a long task, the machine's other load): time passes and nothing runs.
   * Then the timers due run first, late, as Node runs them before the socket reads that waited.
   */
  const stall = (ms: number) => {
    now += ms;
    advance(0);
  };
  return { timers, now: () => now, advance, stall };
}

export function roomSite(store?: RoomHostOptions['store']) {
  const clock = fakeClock();
  const lobby = new RoomLobby({ now: clock.now, timers: clock.timers, stalls: stallProbe(clock.now, clock.timers), ...(store ? { store } : {}) });
  return { clock, lobby };
}

export const bot = (b: BotSpec): RoomSeatSpec => ({ owner: { userId: null, guestId: null }, player: { name: null, guest: false, bot: b }, handling: DEFAULT_HANDLING, bot: b });
export const rules = (o: Partial<RoomRules> = {}): RoomRules => ({ ...DEFAULT_ROOM_RULES, firstTo: 1, ...o });

/** What the page sends for a room message: the door (lib/server/live/messages.ts) makes the lobby's command of it. */
function wireOf(m: RoomMessage): ClientMessage | RoomMessage {
  switch (m.t) {
    case 'rwatch': return { t: 'watch', of: { kind: 'room', id: m.code } };
    case 'runwatch': return { t: 'unwatch', of: { kind: 'room', id: m.code } };
    case 'rleave': return { t: 'leave', of: { kind: 'room', id: m.code } };
    case 'rresume': return { t: 'resume', of: { kind: 'set', id: m.matchId }, token: m.token };
    default: return m;
  }
}

/** A socket of `owner` whose every message goes through the client schema, as the hub parses it. */
export function socket(lobby: RoomLobby, owner: Owner, now: () => number = () => 0, where: { address?: string; device?: string } = {}) {
  const { conn, sent } = liveConnection(owner, where.address ?? 'test', where.device ?? null);
  /** When each message of `sent` was sent, on the room's clock. */
  const at: number[] = [];
  const send = conn.send.bind(conn);
  conn.send = (m) => {
    send(m);
    at.push(now());
  };
  const say = (m: RoomMessage) => {
    // The door's commands (a watch, resume or leave naming the room or its set) are checked in the form the page sends.
    const wire = wireOf(m);
    const parsed: ClientMessage = clientMessageSchema.parse(JSON.parse(JSON.stringify(wire)));
    lobby.handle(conn, wire === m ? (parsed as RoomMessage) : m);
  };
  const of = <T extends ServerMessage['t']>(t: T) => sent.filter((m): m is Extract<ServerMessage, { t: T }> => m.t === t);
  const last = <T extends ServerMessage['t']>(t: T) => of(t).at(-1);
  return { conn, sent, at, say, of, last };
}

const HARD = keyId('hardDrop');

/**
 * Plays a seat like a browser: from the tick it has sent to `clockTick`, a hard drop tapped every
 * 30 ticks, one batch. Returns the batch's tick.
 */
export function playTo(s: ReturnType<typeof socket>, matchId: string, game: number, state: { seq: number; tick: number }, clockTick: number, extra: Partial<InputsMessage> = {}): void {
  if (clockTick <= state.tick) return;
  const events: WireEvent[] = [];
  for (let t = state.tick; t < clockTick; t++) {
    if (t % 30 === 10) events.push([t, HARD, 1]);
    if (t % 30 === 12) events.push([t, HARD, 0]);
  }
  s.say({ t: 'inputs', stream: matchId, game, seq: ++state.seq, tick: clockTick, events, ...extra });
  state.tick = clockTick;
}

type StoredSet = Parameters<NonNullable<RoomHostOptions['store']>>[0];
export const storing = () => {
  const records: StoredSet[] = [];
  const store: RoomHostOptions['store'] = async (o) => (records.push(o), { ok: true, matchId: o.matchId, repeated: false });
  return { records, store };
};
/** Alice and three bots in a room of the lobby on a hand-turned clock; every set the room plays is stored by `store`. */
export function aliceAndBots(store: RoomHostOptions['store']) {
  const site = roomSite(store);
  const alice = socket(site.lobby, { userId: 'alice', guestId: null }, site.clock.now);
  alice.say({
    t: 'rcreate', mode: 'battle', size: 4, rules: rules({ firstTo: 2, timeLimitTicks: 3 * 60 * 60 }),
    bots: [{ seat: 1, pps: 3, style: 'tidy' }, { seat: 2, pps: 4, style: 'attacker' }, { seat: 3, pps: 2, style: 'tidy' }], handling: DEFAULT_HANDLING,
  });
  const code = alice.last('rroom')!.code;
  alice.say({ t: 'rready', code, ready: true });
  alice.say({ t: 'rstart', code });
  const m = alice.last('rmatch')!;
  return { ...site, alice, m, host: site.lobby.matches.get(m.matchId)! };
}

/**
 * Alice's browser: each 100 ms, from the tick she has sent to the room's clock, a hard drop every
 * half second, one batch, handed to every host in `to` (the first tells her when each game begins).
 */
export function alicePlays(alice: ReturnType<typeof socket>, clock: { now: () => number; advance: (ms: number) => void }) {
  const now = clock.now;
  const st = { game: -1, seq: 0, tick: 0, t0: 0, begun: 0 };
  const plays = (to: RoomHost[]) => {
    const begins = alice.of('rbegin');
    if (begins.length > st.begun) {
      const b = begins.at(-1)!;
      Object.assign(st, { game: b.game, seq: 0, tick: 0, t0: alice.at[alice.sent.indexOf(b)]! + b.startsInMs, begun: begins.length });
    }
    const tick = clockTick(now() - st.t0);
    // As a browser: nothing more once its game has ended.
    if (st.game < 0 || tick <= st.tick || alice.of('rgame').some((g) => g.game === st.game)) return;
    const events: WireEvent[] = [];
    for (let t = st.tick; t < tick; t++) if (t % 30 === 10 || t % 30 === 12) events.push([t, HARD, t % 30 === 10 ? 1 : 0]);
    const batch = { game: st.game, seq: ++st.seq, tick, events };
    for (const host of to) expect(host.inputs(0, batch)).toBeNull();
    st.tick = tick;
  };
  /**
   * Turns the clock 100 ms at a time, Alice playing into `hosts` after each, while `going()` and
   * for at most `ms`; with `ms` 0, she plays once now.
   */
  return (hosts: RoomHost[], going: () => boolean, ms = 30 * 60_000) => {
    if (ms === 0) return plays(hosts);
    for (let t = 0; t < ms && going(); t += 100) {
      clock.advance(100);
      plays(hosts);
    }
  };
}

