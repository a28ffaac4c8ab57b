import { NEW_PLAYER_RATING } from '@/lib/server/versus/rating';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES } from '@/lib/engine';
import { LIVE_PROTOCOL_VERSION, parseClientMessage, serverMessageSchema, type ServerMessage, type VersusClientMessage } from '@/lib/live/protocol';
import { StreamBook } from '@/lib/server/live/streams';
import type { Connection } from '@/lib/server/live/connection';
import { MatchLeases } from '@/lib/server/live/cluster/match-leases';
import { RedisMatchCheckpoints } from '@/lib/server/live/cluster/match-checkpoints';
import { RedisSparringLedger } from '@/lib/server/live/cluster/redis-sparring';
import { RedisBus } from '@/lib/server/live/cluster/redis-bus';
import type { HostRequest } from '@/lib/server/live/cluster/wires';
import { connectRedis } from '@/lib/server/live/cluster/redis';
import { VersusLobby, type LobbyOptions } from '@/lib/server/live/match/versus-lobby';
import { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import { TeamQueue } from '@/lib/server/live/rooms/team-queue';
import { VersusRelay } from '@/lib/server/live/match/versus-relay';
import { verifyMatch, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { VersusSeat } from '@/tests/support/versus-seat';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { CLUSTER, KEYS } from '@/lib/server/live/cluster/cluster';
import { MatchHost } from '@/lib/server/live/match/match-host';
import { fakeTimers } from '@/tests/support/fake-timers';
import { DbUnavailableError } from '@/lib/db/errors';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { redisUp, redisUrl as url } from '@/tests/support/redis';

// A versus match leased to the instance hosting it, checkpointed on a real Redis, and taken up by
// another instance after a crash or a hand-over (docs/decisions/0018). Two "instances" in one process.
/** Rooms and ranked 2v2, as each instance's hub holds them (used on the home). */
const homes = () => {
  // Room sets are stored nowhere, and everyone may play ranked 2v2 at 1500: the relay is what is tried here.
  const rooms = new RoomLobby({ store: async ({ matchId }) => ({ ok: true, matchId, repeated: false }) });
  return { rooms, teams: new TeamQueue({ rooms, ratingOf: async () => NEW_PLAYER_RATING, rankedEntry: async () => ({ ok: true, avoid: [] }) }) };
};

const closers: Array<() => void> = [];
afterAll(() => closers.reverse().forEach((close) => close()));

/** Every match stored, by any instance: a match must be stored once. */
const stored: Array<{ matchId: string; record: VersusMatchRecord; ranked: boolean; seats: Parameters<NonNullable<LobbyOptions['store']>>[0]['seats'] }> = [];
const store: LobbyOptions['store'] = async ({ matchId, record, ranked, seats }) => {
  stored.push({ matchId, record, ranked, seats });
  return { ok: true, matchId, repeated: false, ratings: null, noContest: false };
};

/** `away`: this instance cannot reach its database (every store throws). */
function instance(homeKey: string, o: { away?: boolean } = {}) {
  const link = connectRedis(url.toString());
  const bus = new RedisBus(link);
  let lobby: VersusLobby | null = null;
  const leases = new MatchLeases(link, () => [...lobby!.matches.keys()], (id) => lobby!.stop(id));
  // Its own list of decided matches: another test file's instances would sweep them up (and store them in their own store).
  const checkpoints = new RedisMatchCheckpoints(link, (id) => lobby!.stop(id), `${homeKey}:decided`);
  const sparring = new RedisSparringLedger(link, (id) => leases.held(id));
  const away: LobbyOptions['store'] = async () => {
    throw new DbUnavailableError('the database is away');
  };
  lobby = new VersusLobby({ bus, store: o.away ? away : store, sparring, cluster: { checkpoints, claim: (id) => leases.claim(id), release: (id) => leases.release(id), held: (id) => leases.held(id) } });
  const relay = new VersusRelay(link, bus, lobby, homes(), homeKey, { leases, checkpoints });
  bus.setHooks({ snapshot: () => null, watchersChanged: () => {}, release: () => false, versus: (w) => relay.receive(w) });
  const shut = () => (relay.close(), lobby.close(), bus.close(), link.close());
  closers.push(shut);
  /** Dies without a word: nothing more reaches Redis, its leases are not let go, its matches stop. */
  const crash = () => (link.kill(), shut());
  return { link, lobby, relay, bus, leases, checkpoints, crash, decided: `${homeKey}:decided` };
}

/** A browser's socket on one instance, its seat played by a bot. */
function socket(guest: string, address: string, seat: VersusSeat | null = null) {
  const got: ServerMessage[] = [];
  const conn = {
    id: randomBytes(8).toString('hex'), relayedTo: null, owner: { userId: null, guestId: guest }, player: { name: null, guest: true },
    address, device: null, open: true, watches: new Map(), match: null, host: null, closedWith: 0,
    // The seats it is told it plays are noted as a real connection notes them (its batches are looked up there).
    streams: new StreamBook(),
    send: (m: ServerMessage) => void (conn.streams.heard(m), got.push(serverMessageSchema.parse(m)), seat?.receive(m)),
    error: (code: string, message: string, extra = {}) => void got.push({ t: 'error', code, message, ...extra } as ServerMessage),
    close(code: number) {
      this.open = false;
      this.closedWith = code;
    },
    // As a real connection: it holds its WebSocket, which points back at it. Anything that puts a
    // connection itself on the bus (JSON) throws on this circle, as it does in production.
    ws: {} as { conn?: unknown },
  };
  conn.ws.conn = conn;
  const next = async <T extends ServerMessage['t']>(t: T, pred: (m: Extract<ServerMessage, { t: T }>) => boolean = () => true, timeout = 5_000) => {
    await expect.poll(() => got.some((m) => m.t === t && pred(m as Extract<ServerMessage, { t: T }>)), { timeout }).toBe(true);
    return got.findLast((m) => m.t === t && pred(m as Extract<ServerMessage, { t: T }>)) as Extract<ServerMessage, { t: T }>;
  };
  return { conn: conn as unknown as Connection & { closedWith: number }, got, next };
}

const setup = { handling: DEFAULT_HANDLING, nextCount: 5 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Both seats play for `ms`, each through the instance its socket is on. */
async function play(ms: number, players: Array<{ seat: VersusSeat; relay: VersusRelay; conn: Connection }>, matchId: string) {
  for (const end = performance.now() + ms; performance.now() < end; ) {
    await sleep(100);
    for (const p of players) {
      const upTo = Math.floor(((performance.now() - p.seat.startsAt) * 60) / 1000);
      const batch = upTo > 0 && p.conn.open ? p.seat.play(upTo) : null;
      if (batch) await p.relay.handle(p.conn, { t: 'inputs', stream: matchId, ...batch });
    }
  }
}

/** A quick match between a socket on `a` and one on `b`: made on the home (`a`), hosted there. */
async function matchOn(a: ReturnType<typeof instance>, b: ReturnType<typeof instance>) {
  const seats = [new VersusSeat({ seed: 'x', mistakes: 0.2 }), new VersusSeat({ seed: 'y', mistakes: 0.2 })] as const;
  const tag = randomBytes(3).toString('hex');
  const p0 = socket(`g0-${tag}`, '10.8.0.1', seats[0]);
  const p1 = socket(`g1-${tag}`, '10.8.0.2', seats[1]);
  const queue: VersusClientMessage = { t: 'queue', mode: 'battle', ranked: false, ...setup };
  await a.relay.handle(p0.conn, queue);
  await b.relay.handle(p1.conn, queue);
  const { matchId } = await p0.next('match');
  await p1.next('match', (m) => m.matchId === matchId);
  return { seats, p0, p1, matchId, tag };
}

/** Two instances on one Redis (the first holds the home: `away`, its database too) and a quick match between them, hosted on the first. */
async function matchOnTwo(o: { away?: boolean } = {}) {
  const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
  const a = instance(homeKey, o);
  await sleep(100);
  const b = instance(homeKey);
  return { a, b, ...(await matchOn(a, b)) };
}

/** A match between two instances, decided on its host (the first) while that host cannot reach its database: listed as decided, not stored. */
async function decidedWhileAway() {
  const { a, b, seats, p0, p1, matchId } = await matchOnTwo({ away: true });
  await play(1_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);
  await b.relay.handle(p1.conn, { t: 'vleave', matchId });
  const { decided } = a;
  await expect.poll(async () => a.link.cmd.zscore(decided, matchId)).not.toBeNull();
  return { a, b, matchId, decided };
}

/** A spectator whose socket is on `on`, watching the match (relayed to its host). */
async function spectatorOn(on: ReturnType<typeof instance>, matchId: string, tag: string) {
  const watcher = socket(`w-${tag}`, '10.8.0.4');
  await on.relay.handle(watcher.conn, { t: 'vwatch', matchId });
  await watcher.next('vwatching', (m) => m.matchId === matchId);
  return watcher;
}

describe.skipIf(!redisUp)('a versus match on any instance, none lost when one dies', () => {
  it('its host killed mid-game: a stranger cannot take it up, its player’s resume on the other instance does, and it is stored once', { timeout: 60_000 }, async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const a = instance(homeKey);
    await sleep(100);
    const b = instance(homeKey);
    const { seats, p0, p1, matchId, tag } = await matchOn(a, b);
    expect(await b.leases.holder(matchId)).toBe(a.link.instance);
    // The countdown (3 s), then about 3 s of play.
    await play(6_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);

    // While the host lives, naming the match on another instance takes nothing up: it goes to the host, which refuses a stranger.
    const early = socket(`stranger-${tag}`, '10.8.0.3');
    await b.relay.handle(early.conn, { t: 'vresume', matchId, token: seats[1].resumeToken });
    expect((await early.next('error')).code).toBe('resume_failed');
    expect(b.lobby.matches.has(matchId)).toBe(false);
    // Nor does the seated player's own resume with its token: it takes its seat back on the living host.
    const p1again = socket(`g1-${tag}`, '10.8.0.2', seats[1]);
    await b.relay.handle(p1again.conn, { t: 'vresume', matchId, token: seats[1].resumeToken });
    await p1again.next('vresumed', (m) => m.matchId === matchId);
    expect(b.lobby.matches.has(matchId)).toBe(false);
    expect(await b.leases.holder(matchId)).toBe(a.link.instance);

    a.crash();
    // The player still connected to the other instance: its next batch finds the host gone, and its socket is closed so it resumes.
    await play(300, [{ seat: seats[1], relay: b.relay, conn: p1again.conn }], matchId);
    await expect.poll(() => p1again.conn.closedWith, { timeout: 10_000 }).toBe(1012);

    // A stranger with a seat's token, and the seat's owner with a wrong one, take nothing up even once the lease is gone.
    const stranger = socket(`stranger-${tag}`, '10.8.0.3');
    await b.relay.handle(stranger.conn, { t: 'vresume', matchId, token: seats[0].resumeToken });
    expect((await stranger.next('error', () => true, 10_000)).code).toBe('resume_failed');
    const wrong = socket(`g1-${tag}`, '10.8.0.2');
    await b.relay.handle(wrong.conn, { t: 'vresume', matchId, token: 'x'.repeat(seats[1].resumeToken.length) });
    expect((await wrong.next('error')).code).toBe('resume_failed');
    expect(b.lobby.matches.has(matchId)).toBe(false);

    // Both players reconnect to the surviving instance with their tokens, at once: the match is taken up from its checkpoint, once.
    const q1 = socket(`g1-${tag}`, '10.8.0.2', seats[1]);
    const q0 = socket(`g0-${tag}`, '10.8.0.1', seats[0]);
    await Promise.all([
      b.relay.handle(q1.conn, { t: 'vresume', matchId, token: seats[1].resumeToken }),
      b.relay.handle(q0.conn, { t: 'vresume', matchId, token: seats[0].resumeToken }),
    ]);
    await q1.next('vresumed', (m) => m.matchId === matchId, 10_000);
    expect(b.lobby.matches.has(matchId)).toBe(true);
    expect(await b.leases.holder(matchId)).toBe(b.link.instance);
    // Taken up where its checkpoint (at most a second old) stood: what was played before the crash is kept.
    const resumedAt = (await q0.next('vresumed', (m) => m.matchId === matchId)).tick;
    expect(resumedAt).toBeGreaterThan(60);
    await play(2_000, [{ seat: seats[0], relay: b.relay, conn: q0.conn }, { seat: seats[1], relay: b.relay, conn: q1.conn }], matchId);
    await b.relay.handle(q0.conn, { t: 'vleave', matchId });
    await q1.next('vover', (m) => m.matchId === matchId);

    const mine = stored.filter((s) => s.matchId === matchId);
    expect(mine).toHaveLength(1);
    expect(verifyMatch(mine[0]!.record).ok).toBe(true);
    // The stored game holds at least what was played up to the take-up. (Not a number of ticks of
    // wall clock: how far the seats get, and whether a seat long away is then held behind the match
    // clock, depends on the machine's load; one CI run ended the game at tick 128.)
    expect(mine[0]!.record.games[0]!.endTick).toBeGreaterThanOrEqual(resumedAt);
    // An old token once the match is stored takes nothing up.
    const late = socket(`g0-${tag}`, '10.8.0.1');
    await b.relay.handle(late.conn, { t: 'vresume', matchId, token: seats[0].resumeToken });
    expect((await late.next('error')).code).toBe('resume_failed');
  });

  it('a player dialling again through another instance than its match’s host resumes there: its catch-up of the field reaches it', { timeout: 30_000 }, async () => {
    const { a, b, seats, p0, p1, matchId, tag } = await matchOnTwo();
    await play(1_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);
    b.relay.drop(p1.conn);
    const again = socket(`g1-${tag}`, '10.8.0.2');
    await b.relay.handle(again.conn, { t: 'vresume', matchId, token: seats[1].resumeToken });
    await again.next('vresumed', (m) => m.matchId === matchId);
    // The field's catch-up comes after it (its player sent no `vwatch`: it is no spectator's).
    await again.next('vwatching', (m) => m.matchId === matchId);
  });

  it('its host killed mid-game: its spectators watch on where it is taken up, one watching through another instance and one dialling in meanwhile', { timeout: 60_000 }, async () => {
    const { a, b, seats, p0, p1, matchId, tag } = await matchOnTwo();
    // A spectator whose socket is on the other instance: its watch is relayed to the host.
    const watcher = await spectatorOn(b, matchId, tag);
    await play(5_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);

    a.crash();
    await play(300, [{ seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);
    await expect.poll(() => p1.conn.closedWith, { timeout: 10_000 }).toBe(1012);
    // A spectator dialling in while nobody hosts the match (its socket was on the dead instance): it is not over, so it waits.
    const late = socket(`l-${tag}`, '10.8.0.5');
    void b.relay.handle(late.conn, { t: 'vwatch', matchId });
    // One that leaves before it is taken up is not made to watch it after.
    const quitter = socket(`q-${tag}`, '10.8.0.7');
    void b.relay.handle(quitter.conn, { t: 'vwatch', matchId });
    await sleep(100);
    await b.relay.handle(quitter.conn, { t: 'vunwatch', matchId });

    const q1 = socket(`g1-${tag}`, '10.8.0.2', seats[1]);
    const q0 = socket(`g0-${tag}`, '10.8.0.1', seats[0]);
    await Promise.all([
      b.relay.handle(q1.conn, { t: 'vresume', matchId, token: seats[1].resumeToken }),
      b.relay.handle(q0.conn, { t: 'vresume', matchId, token: seats[0].resumeToken }),
    ]);
    const resumedAt = (await q0.next('vresumed', (m) => m.matchId === matchId, 10_000)).tick;
    expect(resumedAt).toBeGreaterThan(60);
    const taken = b.lobby.matches.get(matchId)!;
    expect(taken).toBeDefined();
    // Both watch it again from where it was taken up: the catch-up holds what was played before the
    // crash, as far as a spectator is shown it (a seat dealt pieces the other has not been is shown
    // up to that deal, so not always as far as its player's own resume: resumedAt).
    const watched = (s: ReturnType<typeof socket>) => s.got.filter((m) => m.t === 'vwatching' && m.matchId === matchId) as Array<Extract<ServerMessage, { t: 'vwatching' }>>;
    await expect.poll(() => watched(watcher).length, { timeout: 15_000 }).toBe(2);
    await expect.poll(() => watched(late).length, { timeout: 15_000 }).toBe(1);
    const shown = (taken.watching() as Extract<ServerMessage, { t: 'vwatching' }>).seats.map((seat) => seat.tick);
    expect(Math.min(...shown)).toBeGreaterThan(60);
    for (const s of [watcher, late]) expect(watched(s).at(-1)!.seats.map((seat) => seat.tick)).toEqual(shown);
    // And it plays on for them, to its end.
    const framesBefore = (s: ReturnType<typeof socket>) => s.got.filter((m) => m.t === 'vframe').length;
    const [w0, l0] = [framesBefore(watcher), framesBefore(late)];
    await play(2_000, [{ seat: seats[0], relay: b.relay, conn: q0.conn }, { seat: seats[1], relay: b.relay, conn: q1.conn }], matchId);
    expect(framesBefore(watcher)).toBeGreaterThan(w0);
    expect(framesBefore(late)).toBeGreaterThan(l0);
    await b.relay.handle(q0.conn, { t: 'vleave', matchId });
    await watcher.next('vover', (m) => m.matchId === matchId);
    await late.next('vover', (m) => m.matchId === matchId);
    for (const s of [watcher, late]) expect(s.got.filter((m) => m.t === 'error')).toEqual([]);
    expect(quitter.got).toEqual([]);
  });

  it('a spectator naming a match whose host died and that nobody takes up is told it is gone, once the wait is over', { timeout: 60_000 }, async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const a = instance(homeKey);
    await sleep(100);
    const b = instance(homeKey);
    const { seats, p0, p1, matchId, tag } = await matchOn(a, b);
    await play(4_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);
    a.crash();
    const t = performance.now();
    const exists = vi.spyOn(b.checkpoints, 'exists');
    const late = socket(`l-${tag}`, '10.8.0.5');
    void b.relay.handle(late.conn, { t: 'vwatch', matchId });
    // A socket asking again and again waits once; its asks and the other's share one look at Redis each half second.
    const flood = socket(`f-${tag}`, '10.8.0.8');
    for (let i = 0; i < 20; i++) void b.relay.handle(flood.conn, { t: 'vwatch', matchId });
    const gone = await late.next('error', () => true, 30_000);
    expect(gone.code).toBe('unknown_match');
    expect(performance.now() - t).toBeGreaterThanOrEqual(CLUSTER.watchTakeUpWaitMs - 1_000);
    await flood.next('error', (m) => m.code === 'unknown_match');
    await sleep(200);
    expect(flood.got.filter((m) => m.t === 'error')).toHaveLength(1);
    expect(exists.mock.calls.length).toBeLessThanOrEqual(CLUSTER.watchTakeUpWaitMs / 500 + 2);
    exists.mockRestore();
    // One that never was is answered at once.
    const never = socket(`n-${tag}`, '10.8.0.6');
    await b.relay.handle(never.conn, { t: 'vwatch', matchId: `never${tag}` });
    expect((await never.next('error', () => true, 1_000)).code).toBe('unknown_match');
  });

  it('its host shutting down hands it over: the player reconnecting elsewhere takes it up at once, and it is stored once', { timeout: 30_000 }, async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const a = instance(homeKey);
    await sleep(100);
    const b = instance(homeKey);
    const { seats, p0, p1, matchId, tag } = await matchOn(a, b);
    await play(2_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);
    expect(a.lobby.handOver()).toBe(1);
    await a.relay.flushed();
    a.crash();
    const t = performance.now();
    const q0 = socket(`g0-${tag}`, '10.8.0.1', seats[0]);
    await b.relay.handle(q0.conn, { t: 'vresume', matchId, token: seats[0].resumeToken });
    await q0.next('vresumed', (m) => m.matchId === matchId);
    // No lease to wait out: it was let go with the checkpoint.
    expect(performance.now() - t).toBeLessThan(2_000);
    const q1 = socket(`g1-${tag}`, '10.8.0.2', seats[1]);
    await b.relay.handle(q1.conn, { t: 'vresume', matchId, token: seats[1].resumeToken });
    await q1.next('vresumed', (m) => m.matchId === matchId);
    await b.relay.handle(q1.conn, { t: 'vleave', matchId });
    await q0.next('vover', (m) => m.matchId === matchId);
    expect(stored.filter((s) => s.matchId === matchId)).toHaveLength(1);
  });

  it('decided while its host could not reach the database, then its host killed: another instance stores it, with nobody resuming it', { timeout: 60_000 }, async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { a, b, matchId, decided } = await decidedWhileAway();
    // Its host is alive and tries on: nobody else takes it.
    await sleep(CLUSTER.leaseMs);
    expect(await b.relay.sweepDecided()).toBe(0);
    a.crash();
    await sleep(CLUSTER.leaseMs + CLUSTER.renewEveryMs);
    // Redis does not answer one read of it: it stays listed, and the next sweep stores it.
    vi.spyOn(b.checkpoints, 'read').mockRejectedValueOnce(new Error('Command timed out'));
    expect(await b.relay.sweepDecided()).toBe(0);
    expect(await b.link.cmd.zscore(decided, matchId)).not.toBeNull();
    // Once its lease has run out, b's sweep takes it up and stores it; the pages, their match over, resume nothing.
    await expect.poll(async () => (await b.relay.sweepDecided(), stored.filter((m) => m.matchId === matchId).length), { timeout: 15_000, interval: 500 }).toBe(1);
    await expect.poll(async () => b.link.cmd.zscore(decided, matchId)).toBeNull();
    expect(await b.link.cmd.exists(KEYS.matchCheckpoint(matchId))).toBe(0);
    expect(await b.relay.sweepDecided()).toBe(0);
    expect(stored.filter((m) => m.matchId === matchId)).toHaveLength(1);
    errors.mockRestore();
  });

  it('listed matches a sweep cannot take up, older and more than it reads at once, do not keep a decided match from being stored', { timeout: 60_000 }, async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { a, b, matchId, decided } = await decidedWhileAway();
    a.crash();
    // Listed before it, ten a sweep passes over each time: their lease names an instance that lives on (a bug's leftovers, say).
    const stuck = Array.from({ length: 10 }, () => randomBytes(12).toString('hex'));
    for (const id of stuck) {
      await b.link.cmd.set(KEYS.matchHost(id), 'another-instance', 'PX', 60_000);
      await b.link.cmd.zadd(decided, 1, id);
    }
    await sleep(CLUSTER.leaseMs + CLUSTER.renewEveryMs);
    // A sweep reads 8: the second finds it behind those it passed over.
    for (let sweep = 0; sweep < 4 && !stored.some((m) => m.matchId === matchId); sweep++) await b.relay.sweepDecided();
    await expect.poll(() => stored.filter((m) => m.matchId === matchId).length, { timeout: 5_000 }).toBe(1);
    for (const id of stuck) expect(await b.link.cmd.zscore(decided, id)).not.toBeNull();
    await b.link.cmd.del(...stuck.map((id) => KEYS.matchHost(id)));
    await b.link.cmd.zrem(decided, ...stuck);
    errors.mockRestore();
  });

  it('its host shutting down hands it over: a spectator watching through another instance follows it at once, not once the host is unlisted', { timeout: 30_000 }, async () => {
    const { a, b, seats, p0, p1, matchId, tag } = await matchOnTwo();
    const watcher = await spectatorOn(b, matchId, tag);
    await play(1_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);
    // a drains (it still lists itself): the match is let go, and its player resumes on b.
    expect(a.lobby.handOver()).toBe(1);
    await a.relay.flushed();
    const q0 = socket(`g0-${tag}`, '10.8.0.1', seats[0]);
    await b.relay.handle(q0.conn, { t: 'vresume', matchId, token: seats[0].resumeToken });
    await q0.next('vresumed', (m) => m.matchId === matchId);
    const watched = () => watcher.got.filter((m) => m.t === 'vwatching' && m.matchId === matchId).length;
    // Well inside the 5 s an instance's listing outlives it: the spectator heard from a itself.
    await expect.poll(watched, { timeout: 3_000 }).toBe(2);
    expect(watcher.got.filter((m) => m.t === 'error')).toEqual([]);
  });

  it('a seat’s batch relayed to the host in the second after it handed the match over: the socket dials again and resumes, not told the match is unknown', { timeout: 30_000 }, async () => {
    const { a, b, seats, p0, p1, matchId } = await matchOnTwo();
    await play(1_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);
    // b looks the holder up (kept a second); then a goes (a deploy): the match is written and let go, a still running while it drains.
    b.leases.forget(matchId);
    expect(await b.leases.holder(matchId)).toBe(a.link.instance);
    expect(a.lobby.handOver()).toBe(1);
    await a.relay.flushed();
    // b still routes the seat's batches to a.
    const batch = seats[1].play(Math.floor(((performance.now() - seats[1].startsAt) * 60) / 1000)) ?? { game: 0, seq: 1_000, tick: 1, events: [] };
    await b.relay.handle(p1.conn, { t: 'inputs', stream: matchId, ...batch });
    await expect.poll(() => p1.conn.closedWith).toBe(1012);
    expect(p1.got.filter((m) => m.t === 'error')).toEqual([]);
  });

  it('a stranger naming a match whose host died makes no instance read its checkpoint, and is cut off after a few tries', { timeout: 30_000 }, async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const b = instance(homeKey);
    const tag = randomBytes(3).toString('hex');
    const matchId = `orphan${tag}`;
    // A match hosted elsewhere wrote its checkpoint, then its host died: no lease, the checkpoint stays.
    const dead = instance(homeKey);
    const { clock, timers, fire } = fakeTimers();
    const seats = [new VersusSeat({ seed: 'x' }, () => clock.t), new VersusSeat({ seed: 'y' }, () => clock.t)] as const;
    const seat = (g: string) => ({ owner: { userId: null, guestId: g }, player: { name: null, guest: true }, ...setup });
    const host = new MatchHost({
      bus: createLocalBus(), now: () => clock.t, timers, checkpoints: dead.checkpoints, onClose: () => {}, matchId, seed: `seed-${tag}`, mode: 'battle', firstTo: 2, ranked: false,
      seats: [seat(`g0-${tag}`), seat(`g1-${tag}`)], store,
    });
    await dead.link.cmd.set(KEYS.matchHost(matchId), dead.link.instance, 'PX', 60_000);
    host.begin([{ send: (m) => seats[0].receive(m) }, { send: (m) => seats[1].receive(m) }]);
    clock.t += 4_000;
    fire();
    dead.checkpoints.save(host.checkpoint());
    await dead.relay.flushed();
    await dead.link.cmd.del(KEYS.matchHost(matchId));
    const token = host.checkpoint().state[0].token;

    const read = vi.spyOn(b.checkpoints, 'read');
    const stranger = socket(`stranger-${tag}`, '10.8.0.3');
    for (let i = 1; i <= 5; i++) {
      await b.relay.handle(stranger.conn, { t: 'vresume', matchId, token: i === 1 ? token : `${token}${i}` });
      await expect.poll(() => stranger.got.filter((m) => m.t === 'error' && m.code === 'resume_failed').length).toBe(i);
    }
    expect(read).not.toHaveBeenCalled();
    await b.relay.handle(stranger.conn, { t: 'vresume', matchId, token });
    expect((await stranger.next('error', (m) => m.code !== 'resume_failed')).code).toBe('rate_limited');
    expect(b.lobby.matches.has(matchId)).toBe(false);
    // The seat's owner with its token takes it up.
    const owner = socket(`g0-${tag}`, '10.8.0.1');
    await b.relay.handle(owner.conn, { t: 'vresume', matchId, token });
    await owner.next('vresumed', (m) => m.matchId === matchId);
    expect(read).toHaveBeenCalledTimes(1);
    expect(b.lobby.matches.has(matchId)).toBe(true);
  });

  it('batches naming matches this socket was never seated in are answered here, with no lookup on Redis', { timeout: 20_000 }, async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const b = instance(homeKey);
    const holder = vi.spyOn(b.leases, 'holder');
    const exists = vi.spyOn(b.checkpoints, 'exists');
    const flood = socket(`flood-${randomBytes(3).toString('hex')}`, '10.8.0.9');
    for (let i = 0; i < 50; i++) await b.relay.handle(flood.conn, { t: 'inputs', stream: `fake${randomBytes(6).toString('hex')}`, game: 0, seq: 1, tick: 10, events: [] });
    for (let i = 0; i < 5; i++) await b.relay.handle(flood.conn, { t: 'vleave', matchId: `fake${randomBytes(6).toString('hex')}` });
    expect(flood.got.filter((m) => m.t === 'error' && m.code === 'unknown_match')).toHaveLength(55);
    expect(holder).not.toHaveBeenCalled();
    expect(exists).not.toHaveBeenCalled();
  });

  it('its host stalled past its lease while another took the match up: its spectators on that instance and one watching through another watch on at the new host', { timeout: 40_000 }, async () => {
    const { a, b, seats, p0, p1, matchId, tag } = await matchOnTwo();
    const here = await spectatorOn(a, matchId, `${tag}-here`);
    const there = await spectatorOn(b, matchId, tag);
    await play(4_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);
    // The host's renewals stall and its lease runs out: seat 0's resume on b takes the match up, and a stops a lease's time after its last renewal.
    const stalled = () => new Promise<never>(() => {});
    vi.spyOn(a.link.cmd, 'eval').mockImplementation(stalled);
    vi.spyOn(a.link.cmd, 'set').mockImplementation(stalled);
    await b.link.cmd.del(KEYS.matchHost(matchId));
    b.leases.forget(matchId);
    const q0 = socket(`g0-${tag}`, '10.8.0.1', seats[0]);
    await b.relay.handle(q0.conn, { t: 'vresume', matchId, token: seats[0].resumeToken });
    await q0.next('vresumed', (m) => m.matchId === matchId);
    // Its reads time out too as it stops (Redis cut off from it): no answer is not "nobody has it", so the spectator there waits on.
    const timedOut = () => Promise.reject(new Error('Command timed out'));
    vi.spyOn(a.link.cmd, 'get').mockImplementation(timedOut);
    vi.spyOn(a.link.cmd, 'exists').mockImplementation(timedOut);
    await expect.poll(() => a.lobby.matches.has(matchId), { timeout: 10_000 }).toBe(false);
    await sleep(1_000);
    vi.restoreAllMocks();
    const watched = (s: ReturnType<typeof socket>) => s.got.filter((m) => m.t === 'vwatching' && m.matchId === matchId).length;
    const q1 = socket(`g1-${tag}`, '10.8.0.2', seats[1]);
    await b.relay.handle(q1.conn, { t: 'vresume', matchId, token: seats[1].resumeToken });
    await q1.next('vresumed', (m) => m.matchId === matchId);
    // Both are caught up at b (the one on a froze before: nothing told it the match had gone).
    // (A game beginning sends its spectators a catch-up too: at least one more each.)
    await expect.poll(() => watched(here) >= 2 && watched(there) >= 2, { timeout: 10_000 }).toBe(true);
    const frames = (s: ReturnType<typeof socket>) => s.got.filter((m) => m.t === 'vframe').length;
    const before = [frames(here), frames(there)];
    // Long enough for a countdown (3 s) if a game has just begun.
    await play(5_000, [{ seat: seats[0], relay: b.relay, conn: q0.conn }, { seat: seats[1], relay: b.relay, conn: q1.conn }], matchId);
    expect(frames(here)).toBeGreaterThan(before[0]!);
    expect(frames(there)).toBeGreaterThan(before[1]!);
    await b.relay.handle(q0.conn, { t: 'vleave', matchId });
    for (const s of [here, there]) await s.next('vover', (m) => m.matchId === matchId);
    for (const s of [here, there]) expect(s.got.filter((m) => m.t === 'error')).toEqual([]);
    expect(stored.filter((s) => s.matchId === matchId)).toHaveLength(1);
    // The instance it was watched on first dies: the spectator on b, which watches it on b now, looks for nothing there.
    a.crash();
    await sleep(CLUSTER.listTtlMs + 2 * CLUSTER.renewEveryMs);
    expect(there.got.filter((m) => m.t === 'error')).toEqual([]);
  });

  it('its host unable to renew its lease stops a lease’s time later: its players’ sockets are closed to resume elsewhere', { timeout: 30_000 }, async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const a = instance(homeKey);
    await sleep(100);
    const b = instance(homeKey);
    const { seats, p0, p1, matchId } = await matchOn(a, b);
    await play(1_000, [{ seat: seats[0], relay: a.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }], matchId);
    expect(a.lobby.matches.has(matchId)).toBe(true);
    // Redis stops answering the host's lease renewals and writes (its other traffic still flows, so the relayed socket hears).
    const stalled = () => new Promise<never>(() => {});
    vi.spyOn(a.link.cmd, 'eval').mockImplementation(stalled);
    vi.spyOn(a.link.cmd, 'set').mockImplementation(stalled);
    await expect.poll(() => [p0.conn.closedWith, p1.conn.closedWith], { timeout: 10_000 }).toEqual([1012, 1012]);
    expect(a.lobby.matches.has(matchId)).toBe(false);
    vi.restoreAllMocks();
  });
});

describe.skipIf(!redisUp)('no versus home: a match is hosted where a player is', () => {
  const homeKey = () => `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
  const queue: VersusClientMessage = { t: 'queue', mode: 'battle', ranked: false, ...setup };

  it('a socket watches at most its budget of matches in all, wherever they are hosted, even asking for them all at once', { timeout: 40_000 }, async () => {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const b = instance(key);
    const tag = randomBytes(3).toString('hex');
    /** Seat 1 of each pair hosted on a: a socket on b seated in a match elsewhere. */
    const seatedOnB: Array<[ReturnType<typeof socket>, string]> = [];
    /** A pair whose seat 0 (the first to queue) is on `first`, so the match is hosted there. */
    const pairOn = async (first: typeof a, second: typeof a, i: number) => {
      const p0 = socket(`wb0-${tag}-${i}`, `10.9.7.${2 * i}`);
      const p1 = socket(`wb1-${tag}-${i}`, `10.9.7.${2 * i + 1}`);
      await first.relay.handle(p0.conn, queue);
      await p0.next('queued');
      await second.relay.handle(p1.conn, queue);
      const { matchId } = await p0.next('match');
      if (first === a) seatedOnB.push([p1, (await p1.next('match')).matchId]);
      return matchId;
    };
    const budget = LIVE_LIMITS.watchesPerConnection;
    const onA = [];
    for (let i = 0; i < 5; i++) onA.push(await pairOn(a, b, i));
    const onB = [];
    for (let i = 5; i < budget + 1; i++) onB.push(await pairOn(b, a, i));
    expect(onA.every((id) => a.lobby.matches.has(id)) && onB.every((id) => b.lobby.matches.has(id))).toBe(true);
    // Sockets on b ask for every one: all at once, or those hosted on a first, or those hosted on b first (each host alone holds fewer than the budget).
    const [w, there1st, here1st] = [socket(`wb-${tag}`, '10.9.7.99'), socket(`wt-${tag}`, '10.9.7.98'), socket(`wh-${tag}`, '10.9.7.97')];
    for (const matchId of [...onA, ...onB]) void b.relay.handle(w.conn, { t: 'vwatch', matchId });
    for (const [s, first, then] of [[there1st, onA, onB], [here1st, onB, onA]] as const) {
      for (const matchId of first) await b.relay.handle(s.conn, { t: 'vwatch', matchId });
      await expect.poll(() => s.got.filter((m) => m.t === 'vwatching').length).toBe(first.length);
      for (const matchId of then) await b.relay.handle(s.conn, { t: 'vwatch', matchId });
    }
    for (const s of [w, there1st, here1st]) {
      await expect.poll(() => s.got.filter((m) => m.t === 'vwatching' || (m.t === 'error' && m.code === 'rate_limited')).length).toBe(budget + 1);
      expect(s.got.filter((m) => m.t === 'vwatching')).toHaveLength(budget);
    }
    const limited = () => w.got.filter((m) => m.t === 'error' && m.code === 'rate_limited').length;
    const [refused] = w.got.filter((m) => m.t === 'error').map((m) => (m as { gameId?: string }).gameId);
    // Refusals of other requests naming a watched match (a rematch nobody offered: the home, which hosts them too, answers unknown_match) free no place.
    // Asked again first: the host ignores a watch it has, so no answer comes.
    const watchedOnA = onA.filter((id) => w.got.some((m) => m.t === 'vwatching' && m.matchId === id));
    for (const matchId of watchedOnA) await b.relay.handle(w.conn, { t: 'vwatch', matchId });
    for (const matchId of watchedOnA) await b.relay.handle(w.conn, { t: 'rematch', matchId, want: false });
    await expect.poll(() => w.got.filter((m) => m.t === 'error' && m.code === 'unknown_match').length).toBe(watchedOnA.length);
    await b.relay.handle(w.conn, { t: 'vwatch', matchId: refused! });
    await expect.poll(limited).toBe(2);
    // One watch ended frees its place for another.
    const watched = (w.got.find((m) => m.t === 'vwatching' && m.matchId !== refused) as { matchId: string }).matchId;
    await b.relay.handle(w.conn, { t: 'vunwatch', matchId: watched });
    await b.relay.handle(w.conn, { t: 'vwatch', matchId: refused! });
    await w.next('vwatching', (m) => m.matchId === refused);

    // A watch ended before its answer came keeps no place once the answer comes (and the page, which ended it, is not caught up).
    const u = socket(`wu-${tag}`, '10.9.7.96');
    const [gone, ...others] = [...onA, ...onB];
    await b.relay.handle(u.conn, { t: 'vwatch', matchId: gone! });
    await b.relay.handle(u.conn, { t: 'vunwatch', matchId: gone! });
    await sleep(300);
    for (const matchId of others) await b.relay.handle(u.conn, { t: 'vwatch', matchId });
    await expect.poll(() => u.got.filter((m) => m.t === 'vwatching').length).toBe(others.length);
    expect(u.got.filter((m) => m.t === 'error')).toEqual([]);
    // A catch-up nobody here asked for (a new game's, crossing a `vunwatch`) is not passed on, and ends the watch there.
    const unasked = { ...(u.got.find((m) => m.t === 'vwatching') as Extract<ServerMessage, { t: 'vwatching' }>), matchId: randomBytes(12).toString('hex') };
    const before = u.got.length;
    b.relay.receive({ k: 'vout', from: a.link.instance, peer: u.conn.id, m: unasked, v: LIVE_PROTOCOL_VERSION });
    expect(u.got.length).toBe(before);
    // Nor is one for a match the socket sits in, unless it follows the seat's resume there: a watch
    // whose place a refusal of another request freed (a `rematch` overtaking it) must not pass uncounted.
    const [seat, itsMatch] = seatedOnB[0]!;
    const seen = seat.got.length;
    b.relay.receive({ k: 'vout', from: a.link.instance, peer: seat.conn.id, m: { ...unasked, matchId: itsMatch }, v: LIVE_PROTOCOL_VERSION });
    expect(seat.got.length).toBe(seen);
  });

  it('a pair made on the home is hosted on seat 0’s instance, and its rematch is offered by the home', { timeout: 40_000 }, async () => {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const b = instance(key);
    const seats = [new VersusSeat({ seed: 'p', mistakes: 0.2 }), new VersusSeat({ seed: 'q', mistakes: 0.2 })] as const;
    const tag = randomBytes(3).toString('hex');
    // Seat 0 (the first to queue) is on b; seat 1's socket is on the home itself.
    const p0 = socket(`h0-${tag}`, '10.9.0.1', seats[0]);
    const p1 = socket(`h1-${tag}`, '10.9.0.2', seats[1]);
    await b.relay.handle(p0.conn, queue);
    await p0.next('queued');
    await a.relay.handle(p1.conn, queue);
    const { matchId } = await p0.next('match');
    await p1.next('match', (m) => m.matchId === matchId);
    expect(b.lobby.matches.has(matchId)).toBe(true);
    expect(a.lobby.matches.has(matchId)).toBe(false);
    expect(await a.leases.holder(matchId)).toBe(b.link.instance);
    // The home still knows them busy: neither can queue again while the match is played on b.
    await a.relay.handle(p1.conn, queue);
    expect((await p1.next('error')).code).toBe('already_playing');

    await play(4_000, [{ seat: seats[0], relay: b.relay, conn: p0.conn }, { seat: seats[1], relay: a.relay, conn: p1.conn }], matchId);
    await a.relay.handle(p1.conn, { t: 'vleave', matchId });
    await p0.next('vover', (m) => m.matchId === matchId);
    const mine = stored.filter((x) => x.matchId === matchId);
    expect(mine).toHaveLength(1);
    expect(verifyMatch(mine[0]!.record).ok).toBe(true);
    // The host reported the end to the home, which offers the rematch to both, wherever they are.
    await p0.next('rematch_state', (m) => m.matchId === matchId, 10_000);
    await p1.next('rematch_state', (m) => m.matchId === matchId);
    await b.relay.handle(p0.conn, { t: 'rematch', matchId, want: true });
    await a.relay.handle(p1.conn, { t: 'rematch', matchId, want: true });
    const again = await p0.next('match', (m) => m.matchId !== matchId, 10_000);
    expect(b.lobby.matches.has(again.matchId)).toBe(true);
    expect(a.lobby.matches.size).toBe(0);
  });

  it('the home dies: a match in play on a player’s instance goes on, and who waited in its queue is told to queue again', { timeout: 60_000 }, async () => {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const b = instance(key);
    const seats = [new VersusSeat({ seed: 'r', mistakes: 0.2 }), new VersusSeat({ seed: 's', mistakes: 0.2 })] as const;
    const tag = randomBytes(3).toString('hex');
    const p0 = socket(`d0-${tag}`, '10.9.1.1', seats[0]);
    const p1 = socket(`d1-${tag}`, '10.9.1.2', seats[1]);
    const waiter = socket(`d2-${tag}`, '10.9.1.3');
    await b.relay.handle(p0.conn, queue);
    await b.relay.handle(p1.conn, queue);
    const { matchId } = await p0.next('match');
    await b.relay.handle(waiter.conn, { ...queue, mode: 'race30' });
    await waiter.next('queued');
    expect(b.lobby.matches.has(matchId)).toBe(true);
    expect(a.lobby.matches.size).toBe(0);
    const players = [{ seat: seats[0], relay: b.relay, conn: p0.conn }, { seat: seats[1], relay: b.relay, conn: p1.conn }];
    await play(4_000, players, matchId);

    a.crash();
    // Until b holds the home (its lease runs out), then the waiter hears the queue went with it.
    await play(8_000, players, matchId);
    expect((await waiter.next('error', () => true, 10_000)).message).toMatch(/queue again/);
    expect(b.lobby.matches.get(matchId)?.ended).toBe(false);
    expect(p0.conn.open && p1.conn.open).toBe(true);
    // The queue is rebuilt by those who queue again: on the new home.
    await b.relay.handle(waiter.conn, { ...queue, mode: 'race30' });
    await expect.poll(() => waiter.got.filter((m) => m.t === 'queued').length, { timeout: 5_000 }).toBe(2);

    await b.relay.handle(p1.conn, { t: 'vleave', matchId });
    await p0.next('vover', (m) => m.matchId === matchId);
    const mine = stored.filter((x) => x.matchId === matchId);
    expect(mine).toHaveLength(1);
    expect(verifyMatch(mine[0]!.record).ok).toBe(true);
  });

  it('a request to host a match is heard only from the home, for sockets that queued there, one seat each', { timeout: 20_000 }, async () => {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const b = instance(key);
    const c = instance(key);
    const tag = randomBytes(3).toString('hex');
    const mine = socket(`f0-${tag}`, '10.9.2.1');
    const other = socket(`f1-${tag}`, '10.9.2.2');
    const who = (s: Connection) => ({ owner: s.owner, player: s.player, address: s.address, device: s.device });
    const req = (seat1: Connection, at = c.link.instance): HostRequest => ({
      id: randomBytes(8).toString('hex'), mode: 'battle', firstTo: 1, ranked: false, room: null, setup: [setup, setup],
      seats: [{ instance: b.link.instance, peer: mine.conn.id, who: who(mine.conn) }, { instance: at, peer: seat1.id, who: who(seat1) }],
    });
    // Seat 1 is a live socket on a third instance, waiting at the home (another mode: the home never pairs it with `mine`), so nothing answers for it that it is gone.
    await c.relay.handle(other.conn, { ...queue, mode: 'battle' });
    await other.next('queued');
    // A client cannot send one: it is no client message.
    expect(parseClientMessage(JSON.stringify({ t: 'vhost', req: req(other.conn) })).ok).toBe(false);
    // A socket that never queued at the home is not seated by anyone's request, the home's included.
    b.relay.receive({ k: 'vhost', from: a.link.instance, req: req(other.conn) });
    await sleep(500);
    expect(b.lobby.matches.size).toBe(0);
    // Queued at the home now: a request from an instance that is not the home is still refused (the socket hears its match did not start).
    await b.relay.handle(mine.conn, { ...queue, mode: 'race30' });
    await mine.next('queued');
    b.relay.receive({ k: 'vhost', from: 'forger-instance', req: req(other.conn) });
    await expect.poll(() => mine.got.filter((m) => m.t === 'error').length).toBe(1);
    // Nor the home's asking for one socket in both seats.
    const twice = req(mine.conn, b.link.instance);
    b.relay.receive({ k: 'vhost', from: a.link.instance, req: twice });
    await expect.poll(() => mine.got.filter((m) => m.t === 'error').length).toBe(3); // told for each seat it was named in
    // A request naming a seat 0 of another player than the socket's.
    const impostor = req(other.conn);
    impostor.seats[0].who = { ...impostor.seats[0].who, owner: { userId: null, guestId: `f9-${tag}` } };
    b.relay.receive({ k: 'vhost', from: a.link.instance, req: impostor });
    await expect.poll(() => mine.got.filter((m) => m.t === 'error').length).toBe(4);
    expect(b.lobby.matches.size).toBe(0);
    expect(mine.got.some((m) => m.t === 'match')).toBe(false);
    // Nor did any refusal leave a peer behind for seat 1 (its instance never hears of it, so would never close it).
    expect((b.relay as unknown as { peers: Map<string, unknown> }).peers.size).toBe(0);
    // The same request from the home, for the socket that queued there, is heard (the check above is not all-refusing).
    b.relay.receive({ k: 'vhost', from: a.link.instance, req: req(other.conn) });
    await mine.next('match');
    expect(b.lobby.matches.size).toBe(1);
  });
  /** Long enough for the home to have swept a gone instance's pairs at least once: its list entry expired, then a sweep (run at each lease renewal). */
  const SWEPT_MS = CLUSTER.listTtlMs + CLUSTER.listEveryMs + CLUSTER.renewEveryMs + 1_000;

  /**
   * Three instances: a pair made on the home `a` is placed on `b` (seat 0's socket is there, seat
   * 1's on the home) and played for `ms`; `c` stands by. `listAlive` keeps a and c listed from then
   * on (b never again), so the home's sweep of gone instances runs.
   */
  async function placedOnB(ms: number) {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const [b, c] = [instance(key), instance(key)];
    const seats = [new VersusSeat({ seed: 't', mistakes: 0.2 }), new VersusSeat({ seed: 'u', mistakes: 0.2 })] as const;
    const tag = randomBytes(3).toString('hex');
    const p0 = socket(`t0-${tag}`, '10.9.4.1', seats[0]);
    const p1 = socket(`t1-${tag}`, '10.9.4.2', seats[1]);
    await b.relay.handle(p0.conn, queue);
    await p0.next('queued');
    await a.relay.handle(p1.conn, queue);
    const { matchId } = await p0.next('match');
    expect(b.lobby.matches.has(matchId)).toBe(true);
    const race30: VersusClientMessage = { t: 'queue', mode: 'race30', ranked: false, ...setup };
    await play(ms, [{ seat: seats[0], relay: b.relay, conn: p0.conn }, { seat: seats[1], relay: a.relay, conn: p1.conn }], matchId);
    const listAlive = () => {
      const listed = setInterval(() => {
        for (const i of [a, c]) void i.link.cmd.zadd(KEYS.listers, Date.now(), i.link.instance);
      }, 500);
      closers.push(() => (clearInterval(listed), void a.link.cmd.zrem(KEYS.listers, a.link.instance, c.link.instance).catch(() => {})));
    };
    /** Seat 0's player back through c, which takes the match up. */
    const resumeOnC = async () => {
      const q0 = socket(`t0-${tag}`, '10.9.4.1', seats[0]);
      await c.relay.handle(q0.conn, { t: 'vresume', matchId, token: seats[0].resumeToken });
      await q0.next('vresumed', (m) => m.matchId === matchId, 10_000);
      return q0;
    };
    /** Seat 1 heard neither a rematch offer nor "could not start" while its match played on elsewhere, and the home counts it busy. */
    const stillBusyAtHome = async () => {
      expect(p1.got.filter((m) => m.t === 'rematch_state' || (m.t === 'error' && /could not start/.test(m.message)))).toEqual([]);
      const refused = p1.got.filter((m) => m.t === 'error' && m.code === 'already_playing').length;
      await a.relay.handle(p1.conn, race30);
      await expect.poll(() => p1.got.filter((m) => m.t === 'error' && m.code === 'already_playing').length).toBe(refused + 1);
    };
    /**
     * Seat 1 (through the home) ends the match where it was taken up; c tells the home, which offers
     * the rematch to both, seat 0 on its new socket on c. Accepted, it plays again. If that socket
     * closes instead, the home hears it (it only ever spoke to it), and seat 1 is free there.
     */
    const endedAndOffered = async (q0: Awaited<ReturnType<typeof resumeOnC>>, then: 'accept' | 'close') => {
      await a.relay.handle(p1.conn, { t: 'vresume', matchId, token: seats[1].resumeToken });
      await a.relay.handle(p1.conn, { t: 'vleave', matchId });
      await q0.next('vover', (m) => m.matchId === matchId);
      expect(stored.filter((x) => x.matchId === matchId)).toHaveLength(1);
      await q0.next('rematch_state', (m) => m.matchId === matchId, 10_000);
      await p1.next('rematch_state', (m) => m.matchId === matchId);
      if (then === 'accept') {
        await c.relay.handle(q0.conn, { t: 'rematch', matchId, want: true });
        await a.relay.handle(p1.conn, { t: 'rematch', matchId, want: true });
        const again = await q0.next('match', (m) => m.matchId !== matchId, 10_000);
        await p1.next('match', (m) => m.matchId === again.matchId);
        return;
      }
      q0.conn.close(1001, 'The tab closed.');
      c.relay.drop(q0.conn);
      await p1.next('rematch_over', (m) => m.matchId === matchId && m.reason === 'left', 10_000);
      await a.relay.handle(p1.conn, race30);
      await p1.next('queued', (m) => m.mode === 'race30');
    };
    return { b, listAlive, resumeOnC, stillBusyAtHome, endedAndOffered };
  }

  it('its host handing a placed match over: the home keeps the pair busy and offers nothing while it plays on elsewhere; when it ends there, both get the offer, and the other’s socket closing frees them', { timeout: 45_000 }, async () => {
    const placed = await placedOnB(2_000);
    // A deploy: b hands its match over and goes.
    expect(placed.b.lobby.handOver()).toBe(1);
    await placed.b.relay.flushed();
    placed.b.crash();
    const q0 = await placed.resumeOnC();
    placed.listAlive();
    await sleep(SWEPT_MS);
    await placed.stillBusyAtHome();
    await placed.endedAndOffered(q0, 'close');
  });

  it('its host dying mid-game: the home keeps the pair while the match can still be taken up, which happens only once its lease has run out; the rematch after it is played', { timeout: 45_000 }, async () => {
    // The countdown (3 s), then about 3 s of play: checkpoints are written once a game is under way.
    const placed = await placedOnB(6_000);
    placed.b.crash();
    placed.listAlive();
    // b left the list and the home swept: its match has a checkpoint, so its pair is kept.
    await sleep(SWEPT_MS);
    await placed.stillBusyAtHome();
    const q0 = await placed.resumeOnC();
    await placed.endedAndOffered(q0, 'accept');
  });

  it('seat 0’s instance dies after hearing the request, before hosting: the home frees seat 1 and tells it, once that instance is gone', { timeout: 30_000 }, async () => {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const b = instance(key);
    const tag = randomBytes(3).toString('hex');
    const p0 = socket(`k0-${tag}`, '10.9.3.1');
    const p1 = socket(`k1-${tag}`, '10.9.3.2');
    // b hears the home's request (it is counted as heard) and dies before it hosts anything.
    const receive = b.relay.receive.bind(b.relay);
    b.relay.receive = (w) => (w.k === 'vhost' ? b.crash() : receive(w));
    await b.relay.handle(p0.conn, queue);
    await p0.next('queued');
    await a.relay.handle(p1.conn, queue);
    await sleep(300);
    expect(p1.got.some((m) => m.t === 'match')).toBe(false);
    // The home is listed alive; b never is again.
    const listed = setInterval(() => void a.link.cmd.zadd(KEYS.listers, Date.now(), a.link.instance), 500);
    closers.push(() => (clearInterval(listed), void a.link.cmd.zrem(KEYS.listers, a.link.instance).catch(() => {})));
    // Seat 1 is told its match did not start, and may queue again (not `already_playing` for a match nobody hosts).
    await p1.next('error', (m) => /could not start/.test(m.message), 15_000);
    const queued = p1.got.filter((m) => m.t === 'queued').length;
    await a.relay.handle(p1.conn, { ...queue, mode: 'race30' });
    await expect.poll(() => p1.got.filter((m) => m.t === 'queued').length).toBe(queued + 1);
  });
  /**
   * A match against the sparring bot on `b` (its player's instance; `a` is the home, `c` stands
   * by), its player's seat played by a test bot through b for `ms`. The sparring bot plays seat 1
   * on b itself.
   */
  async function sparOnB(ms: number) {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const [b, c] = [instance(key), instance(key)];
    // A player who makes no mistakes: the first game lasts past the take-up and a few seconds of play after it.
    const seat = new VersusSeat({ seed: 'v' });
    const tag = randomBytes(3).toString('hex');
    const p = socket(`sp-${tag}`, '10.9.6.1', seat);
    await b.relay.handle(p.conn, { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 3, style: 'tidy' }, ...setup });
    const { matchId } = await p.next('match');
    expect(b.lobby.matches.has(matchId)).toBe(true);
    // Leased like any match: another instance knows where it is played.
    await expect.poll(() => a.leases.holder(matchId)).toBe(b.link.instance);
    await play(ms, [{ seat, relay: b.relay, conn: p.conn }], matchId);
    /** Where the bot's seat stands in the checkpoint left for another instance: its last batch and the tick it played to. */
    const botInCheckpoint = async () => {
      const cp = (await c.checkpoints.read(matchId))!;
      expect(cp.seats[1].bot).toEqual({ pps: 3, style: 'tidy' });
      const feeds = cp.games.at(-1)!.feeds.filter(([s]) => s === 1);
      return { cp, game: cp.games.length - 1, lastSeq: cp.state[1].lastSeq, tick: Math.max(0, ...feeds.map(([, t]) => t)) };
    };
    /** The player back through c, which takes the match up (and rebuilds the bot's seat there). */
    const resumeOnC = async () => {
      const q = socket(`sp-${tag}`, '10.9.6.1', seat);
      await c.relay.handle(q.conn, { t: 'vresume', matchId, token: seat.resumeToken });
      await q.next('vresumed', (m) => m.matchId === matchId, 10_000);
      expect(c.lobby.matches.has(matchId)).toBe(true);
      return q;
    };
    /**
     * On c the bot plays on from where the checkpoint left its seat: batches numbered after it,
     * its field past the take-up tick as its player sees it; then the match ends there and is
     * stored once, unranked, the bot's seat a bot's, both replays proven.
     */
    const playsOnAndIsStored = async (q: Awaited<ReturnType<typeof resumeOnC>>, at: Awaited<ReturnType<typeof botInCheckpoint>>) => {
      const host = c.lobby.matches.get(matchId)!;
      // Its first batches here are numbered on from the checkpoint's (a repeat would be dropped, a gap refused and the bot gone).
      await expect.poll(() => host.seats[1].stream.lastSeq, { timeout: 2_000 }).toBeGreaterThan(at.lastSeq + 3);
      expect(host.gameIndex).toBe(at.game);
      await play(3_000, [{ seat, relay: c.relay, conn: q.conn }], matchId);
      expect(host.ended).toBe(false);
      // Its field, as its player is shown it, moves on past where it was taken up.
      await q.next('vframe', (m) => m.matchId === matchId && m.game === at.game && m.seat === 1 && m.tick > at.tick + 60);
      expect(q.got.filter((m) => m.t === 'error')).toEqual([]);
      await c.relay.handle(q.conn, { t: 'vleave', matchId });
      const over = await q.next('vover', (m) => m.matchId === matchId);
      expect(over.ranked).toBe(false);
      await sleep(500);
      const mine = stored.filter((x) => x.matchId === matchId);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.ranked).toBe(false);
      expect(mine[0]!.seats[1]).toMatchObject({ userId: null, guestId: null, bot: { pps: 3, style: 'tidy' } });
      expect(verifyMatch(mine[0]!.record).ok).toBe(true);
      // The game in play at the take-up ran on past it.
      expect(mine[0]!.record.games[at.game]!.endTick).toBeGreaterThan(at.tick + 60);
    };
    return { a, b, c, p, seat, matchId, tag, botInCheckpoint, resumeOnC, playsOnAndIsStored };
  }

  it('a sparring match handed over at a shutdown: its player resumes elsewhere, the bot’s seat is rebuilt there and plays on, stored once', { timeout: 45_000 }, async () => {
    const spar = await sparOnB(5_000);
    expect(spar.b.lobby.handOver()).toBe(1);
    await spar.b.relay.flushed();
    spar.b.crash();
    const at = await spar.botInCheckpoint();
    expect(at.tick).toBeGreaterThan(60);
    const q = await spar.resumeOnC();
    // The rebuilt bot was dealt what the server dealt its seat, nothing more.
    const host = spar.c.lobby.matches.get(spar.matchId)!;
    const bot = host.link(1) as unknown as { seat: { sequence: readonly string[] } };
    expect(bot.seat.sequence).toEqual(host.seats[1].stream.dealt);
    await spar.playsOnAndIsStored(q, at);
  });

  it('a sparring match whose instance dies: its player’s resume elsewhere takes it up once the lease has run out, and the bot plays on there', { timeout: 60_000 }, async () => {
    // The countdown (3 s), then about 3 s of play: checkpoints are written once a game is under way.
    const spar = await sparOnB(6_000);
    spar.b.crash();
    const at = await spar.botInCheckpoint();
    expect(at.tick).toBeGreaterThan(60);
    const q = await spar.resumeOnC();
    await spar.playsOnAndIsStored(q, at);
  });

  it('the bot’s seat is nobody’s: no resume takes it up, even one holding its token, and a match taken up counts against its player’s sparring', { timeout: 60_000 }, async () => {
    const spar = await sparOnB(5_000);
    const { cp } = await spar.botInCheckpoint();
    const botToken = cp.state[1].token;
    expect(spar.p.got.some((m) => m.t === 'match' && m.resumeToken === botToken)).toBe(false);
    // While its host lives: the resume goes there, which refuses it.
    const early = socket(`stranger-${spar.tag}`, '10.9.6.9');
    await spar.c.relay.handle(early.conn, { t: 'vresume', matchId: spar.matchId, token: botToken });
    expect((await early.next('error')).code).toBe('resume_failed');
    spar.b.crash();
    // Host dead, lease run out: neither a stranger nor the match's own player takes the bot's seat (or the match) up with the bot's token.
    const stranger = socket(`stranger-${spar.tag}`, '10.9.6.9');
    await spar.c.relay.handle(stranger.conn, { t: 'vresume', matchId: spar.matchId, token: botToken });
    expect((await stranger.next('error', () => true, 10_000)).code).toBe('resume_failed');
    const own = socket(`sp-${spar.tag}`, '10.9.6.1');
    await spar.c.relay.handle(own.conn, { t: 'vresume', matchId: spar.matchId, token: botToken });
    expect((await own.next('error', () => true, 10_000)).code).toBe('resume_failed');
    expect(spar.c.lobby.matches.has(spar.matchId)).toBe(false);
    // Its player with its own token takes it up; the bot's seat is the bot's on c, and a second resume with its token is still refused.
    const q = await spar.resumeOnC();
    const again = socket(`sp-${spar.tag}`, '10.9.6.1');
    await spar.c.relay.handle(again.conn, { t: 'vresume', matchId: spar.matchId, token: botToken });
    expect((await again.next('error')).code).toBe('resume_failed');
    expect(spar.c.lobby.matches.get(spar.matchId)!.link(1)).not.toBe(again.conn);
    // The match taken up is its player's sparring match on c: another tab there cannot start a second one beside it.
    const tab = socket(`sp-${spar.tag}`, '10.9.6.1');
    await spar.c.relay.handle(tab.conn, { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 1, style: 'tidy' }, ...setup });
    expect((await tab.next('error')).code).toBe('too_many_games');
    await spar.c.relay.handle(q.conn, { t: 'vleave', matchId: spar.matchId });
    await q.next('vover', (m) => m.matchId === spar.matchId);
  });

  it('a socket in a match on its own instance (a sparring one) cannot queue at a home elsewhere: it would be seated twice', { timeout: 20_000 }, async () => {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const b = instance(key);
    const tag = randomBytes(3).toString('hex');
    const p = socket(`s0-${tag}`, '10.9.4.1');
    await b.relay.handle(p.conn, { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 1, style: 'tidy' }, ...setup });
    await p.next('match');
    await b.relay.handle(p.conn, queue);
    expect((await p.next('error')).code).toBe('already_playing');
    expect(p.got.some((m) => m.t === 'queued')).toBe(false);
    await b.relay.handle(p.conn, { t: 'room_create', mode: 'battle', firstTo: 2, ...setup });
    await expect.poll(() => p.got.filter((m) => m.t === 'error' && m.code === 'already_playing').length).toBe(2);
    expect(p.got.some((m) => m.t === 'room')).toBe(false);
    expect(a.lobby.matches.size).toBe(0);
  });
  it('a socket in a sparring match on its own instance cannot join ranked 2v2 at a home elsewhere: its seat there would lag out and void the set', { timeout: 20_000 }, async () => {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const b = instance(key);
    const p = socket(`s7-${randomBytes(3).toString('hex')}`, '10.9.4.7');
    await b.relay.handle(p.conn, { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 1, style: 'tidy' }, ...setup });
    await p.next('match');
    for (const m of [{ t: 'tqueue', handling: DEFAULT_HANDLING }, { t: 'tparty', handling: DEFAULT_HANDLING }, { t: 'tjoin', code: 'ABCDEF', handling: DEFAULT_HANDLING }] as const) await b.relay.room(p.conn, m);
    await expect.poll(() => p.got.filter((m) => m.t === 'error' && m.code === 'already_playing').length).toBe(3);
    await sleep(200);
    expect(p.got.some((m) => m.t === 'tqueued' || m.t === 'tparty')).toBe(false);
    expect(a.lobby.matches.size).toBe(0);
  });

  it('room batches naming sets this socket was never seated in are answered here: none crosses Redis to the home', { timeout: 20_000 }, async () => {
    const key = homeKey();
    instance(key);
    await sleep(100);
    const b = instance(key);
    const p = socket(`s6-${randomBytes(3).toString('hex')}`, '10.9.4.6');
    // b knows its home already (another socket's message).
    await b.relay.handle(p.conn, { t: 'unqueue' });
    await p.next('unqueued');
    const told: unknown[] = [];
    const tell = b.bus.tell.bind(b.bus);
    b.bus.tell = (to, w) => (told.push(w), tell(to, w));
    const matchId = randomBytes(12).toString('hex');
    await b.relay.room(p.conn, { t: 'inputs', stream: matchId, game: 0, seq: 1, tick: 1, events: [] });
    expect((await p.next('error')).code).toBe('unknown_match');
    expect(told).toEqual([]);
  });

  it('a socket whose `spar` waits for the site’s budgets (Redis) cannot queue at a home elsewhere meanwhile', { timeout: 20_000 }, async () => {
    const key = homeKey();
    const a = instance(key);
    await sleep(100);
    const b = instance(key);
    const p = socket(`s9-${randomBytes(3).toString('hex')}`, '10.9.4.9');
    // b knows its home already (another socket's message): a queue goes there without waiting on Redis.
    const other = socket(`s8-${randomBytes(3).toString('hex')}`, '10.9.4.8');
    await b.relay.handle(other.conn, { t: 'unqueue' });
    await other.next('unqueued');
    // A modified browser sends both at once: the queue is read while the spar's budgets are being asked.
    await Promise.all([b.relay.handle(p.conn, { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 1, style: 'tidy' }, ...setup }), b.relay.handle(p.conn, queue)]);
    await p.next('match');
    expect((await p.next('error')).code).toBe('already_playing');
    await sleep(300);
    expect(p.got.some((m) => m.t === 'queued')).toBe(false);
    expect(a.lobby.matches.size).toBe(0);
  });
  it('a socket queued at a home elsewhere cannot start a sparring match on its own instance: it would be seated twice', { timeout: 20_000 }, async () => {
    const key = homeKey();
    instance(key);
    await sleep(100);
    const b = instance(key);
    const tag = randomBytes(3).toString('hex');
    const p = socket(`s1-${tag}`, '10.9.4.2');
    await b.relay.handle(p.conn, { ...queue, mode: 'race30' });
    await p.next('queued');
    await b.relay.handle(p.conn, { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 1, style: 'tidy' }, ...setup });
    expect((await p.next('error')).code).toBe('already_playing');
    expect(b.lobby.matches.size).toBe(0);
  });
  it('a socket that left its room at the home elsewhere may spar on its own instance again', { timeout: 20_000 }, async () => {
    const key = homeKey();
    instance(key);
    await sleep(100);
    const b = instance(key);
    const p = socket(`s2-${randomBytes(3).toString('hex')}`, '10.9.4.3');
    await b.relay.room(p.conn, { t: 'rcreate', mode: 'battle', size: 2, rules: { ...DEFAULT_ROOM_RULES, firstTo: 1 }, bots: [], handling: DEFAULT_HANDLING });
    const { code } = await p.next('rroom');
    await b.relay.room(p.conn, { t: 'rleave', code });
    await b.relay.handle(p.conn, { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 1, style: 'tidy' }, ...setup });
    await p.next('match');
    expect(p.got.some((m) => m.t === 'error')).toBe(false);
  });

  it('a socket watching a room at the home elsewhere does not sit in it: it may spar on its own instance', { timeout: 20_000 }, async () => {
    const key = homeKey();
    instance(key);
    await sleep(100);
    const b = instance(key);
    const tag = randomBytes(3).toString('hex');
    const [owner, p] = [socket(`w0-${tag}`, '10.9.4.4'), socket(`w1-${tag}`, '10.9.4.5')];
    await b.relay.room(owner.conn, { t: 'rcreate', mode: 'battle', size: 2, rules: { ...DEFAULT_ROOM_RULES, firstTo: 1 }, bots: [], handling: DEFAULT_HANDLING });
    const { code } = await owner.next('rroom');
    await b.relay.room(p.conn, { t: 'rwatch', code });
    expect((await p.next('rroom')).you).toBeNull();
    await b.relay.handle(p.conn, { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 1, style: 'tidy' }, ...setup });
    await p.next('match');
    expect(p.got.some((m) => m.t === 'error')).toBe(false);
  });

  it('the players of a ranked 2v2 set at the home elsewhere may spar on their own instance once they left it or it ended', { timeout: 30_000 }, async () => {
    const key = homeKey();
    instance(key);
    await sleep(100);
    const b = instance(key);
    const tag = randomBytes(3).toString('hex');
    const ps = [0, 1, 2, 3].map((i) => socket(`t${i}-${tag}`, `10.9.5.${i}`));
    ps.forEach((p, i) => Object.assign(p.conn, { owner: { userId: `u${i}-${tag}`, guestId: null } }));
    for (const p of ps) await b.relay.room(p.conn, { t: 'tqueue', handling: DEFAULT_HANDLING });
    const matches = await Promise.all(ps.map((p) => p.next('rmatch')));
    // One team leaves: the other wins the set, and hears it is over.
    const [stay, go] = [ps.filter((_, i) => matches[i]!.seat! < 2), ps.filter((_, i) => matches[i]!.seat! >= 2)];
    // While the set plays, it is the socket's game: no other one beside it.
    const spar = { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 1, style: 'tidy' }, ...setup } as const;
    await b.relay.handle(stay[0]!.conn, spar);
    expect((await stay[0]!.next('error')).code).toBe('already_playing');
    stay[0]!.got.length = 0;
    for (const p of go) await b.relay.room(p.conn, { t: 'rleave', code: matches[0]!.code });
    for (const p of stay) await p.next('rover', () => true, 20_000);
    for (const p of ps) {
      await b.relay.handle(p.conn, spar);
      await p.next('match');
      expect(p.got.filter((m) => m.t === 'error')).toEqual([]);
    }
  });
});
