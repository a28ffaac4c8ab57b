import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { MAX_BATCH_TICKS, serverMessageSchema, type RoomClientMessage, type RoomMessage, type ServerMessage, type VersusClientMessage } from '@/lib/live/protocol';
import { StreamBook } from '@/lib/server/live/streams';
import type { Connection } from '@/lib/server/live/connection';
import { CLUSTER, KEYS } from '@/lib/server/live/cluster/cluster';
import { MatchLeases } from '@/lib/server/live/cluster/match-leases';
import { RedisMatchCheckpoints } from '@/lib/server/live/cluster/match-checkpoints';
import { RedisRoomCheckpoints } from '@/lib/server/live/cluster/room-checkpoints';
import { RedisBus } from '@/lib/server/live/cluster/redis-bus';
import { connectRedis } from '@/lib/server/live/cluster/redis';
import { VersusLobby } from '@/lib/server/live/match/versus-lobby';
import { VersusRelay } from '@/lib/server/live/match/versus-relay';
import { isRoomMessage, RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import type { RoomHostOptions } from '@/lib/server/live/rooms/room-host';
import { clockTick } from '@/lib/server/live/rooms/room-limits';
import { TeamQueue } from '@/lib/server/live/rooms/team-queue';
import { NEW_PLAYER_RATING } from '@/lib/server/versus/rating';
import { verifyRoomMatch } from '@/lib/server/versus/room-verify';
import { aliceAndBots, alicePlays, rules, socket as roomSocket, storing } from '@/tests/support/room-site';
import { redisUp, redisUrl as url } from '@/tests/support/redis';

// A room's set outlives the versus home that plays it (decision 0034): checkpointed on a real
// Redis as it goes, and taken up by the next home after a crash or a hand-over, its people
// resuming there. Several "instances" in one process, each on its own links to Redis.
// Nothing here touches the database (every set is stored by the test's own store): it runs in one project (vitest.config.ts).
const closers: Array<() => void> = [];
afterAll(() => closers.reverse().forEach((close) => close()));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const homeKey = () => `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;

describe.skipIf(!redisUp)('a room set checkpointed on Redis', () => {
  it('reads back as written at every write, through games, the pause between them and its end, each write appending what was played since', { timeout: 90_000 }, async () => {
    const key = homeKey();
    const link = connectRedis(url.toString());
    closers.push(() => link.close());
    await link.cmd.set(key, link.instance, 'PX', 60_000);
    const store = new RedisRoomCheckpoints(link, key);
    const site = aliceAndBots(storing().store);
    const plays = alicePlays(site.alice, site.clock);
    const around = { host: 0, kicked: ['u:mallory'], again: true, ranked: false };
    const phases = new Set<string>();
    let writes = 0;
    let appended = 0;
    let last = site.host.checkpoint();
    // To its end: the set over (its last checkpoint, while it is stored) is written too.
    for (let t = 0; t < 30 * 60_000 && !phases.has('over'); t += 1_900) {
      plays([site.host], () => true, 1_900);
      const cp = site.host.checkpoint();
      const before = await link.cmd.llen(`${KEYS.roomSet(cp.matchId)}:games`);
      expect(await store.save(cp, around)).toBe(true);
      appended += (await link.cmd.lrange(`${KEYS.roomSet(cp.matchId)}:games`, before, -1)).reduce((n, c) => n + c.length, 0);
      last = cp;
      phases.add(cp.phase);
      writes++;
      const read = await store.read(cp.matchId);
      expect(read?.cp).toEqual(cp);
      expect(read?.room).toEqual(around);
      expect(await store.listed()).toContain(cp.matchId);
    }
    expect(writes).toBeGreaterThan(10);
    expect(phases.has('playing') && phases.has('between') && phases.has('over')).toBe(true);
    // Each write appended what 1.9 s added (and a game once more, whole, when decided): all of them
    // together are a few times the set, not a set per write.
    expect(appended).toBeLessThan(3 * JSON.stringify(last.games).length);
  });

  it('is written only by the holder of the home: another instance’s write is refused and leaves nothing', async () => {
    const key = homeKey();
    const home = connectRedis(url.toString());
    const other = connectRedis(url.toString());
    closers.push(() => home.close(), () => other.close());
    await home.cmd.set(key, home.instance, 'PX', 60_000);
    const site = aliceAndBots(storing().store);
    alicePlays(site.alice, site.clock)([site.host], () => true, 3_000);
    const cp = site.host.checkpoint();
    const around = { host: 0, kicked: [], again: true, ranked: false };
    expect(await new RedisRoomCheckpoints(other, key).save(cp, around)).toBe(false);
    expect(await new RedisRoomCheckpoints(other, key).read(cp.matchId)).toBeNull();
    expect(await new RedisRoomCheckpoints(other, key).listed()).toEqual([]);
    expect(await new RedisRoomCheckpoints(home, key).save(cp, around)).toBe(true);
  });
});

describe.skipIf(!redisUp)('the rooms in their lobby written on Redis', () => {
  it('read back as the home last wrote them: a changed room written again, a gone one deleted, nothing by another instance, stale ones replaced by a new home', async () => {
    const key = homeKey();
    const home = connectRedis(url.toString());
    const other = connectRedis(url.toString());
    closers.push(() => home.close(), () => other.close());
    await home.cmd.set(key, home.instance, 'PX', 60_000);
    const lobby = new RoomLobby();
    const make = (guest: string) => {
      const s = roomSocket(lobby, { userId: null, guestId: guest });
      s.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: DEFAULT_HANDLING });
      return { s, code: s.last('rroom')!.code };
    };
    const [x, y] = [make('lobby-x'), make('lobby-y')];
    const store = new RedisRoomCheckpoints(home, key);
    const read = async () => new Map((await store.lobbies()).map((r) => [r.code, r]));
    expect(await store.saveLobbies(lobby.lobbies())).toBe(true);
    expect([...(await read()).keys()].sort()).toEqual([x.code, y.code].sort());
    x.s.say({ t: 'rready', code: x.code, ready: true });
    y.s.say({ t: 'rleave', code: y.code });
    expect(await store.saveLobbies(lobby.lobbies())).toBe(true);
    const now = await read();
    expect([...now.keys()]).toEqual([x.code]);
    expect(now.get(x.code)!.seats[0]!.ready).toBe(true);
    // Only the home's holder writes.
    expect(await new RedisRoomCheckpoints(other, key).saveLobbies([])).toBe(false);
    expect([...(await read()).keys()]).toEqual([x.code]);
    // The next home's first write replaces what the last one left (here: a room it did not take up).
    await home.cmd.set(key, other.instance, 'PX', 60_000);
    expect(await new RedisRoomCheckpoints(other, key).saveLobbies([])).toBe(true);
    expect((await read()).size).toBe(0);
  });
});

/** Every room set stored, by any instance: a set must be stored once. */
const stored: Array<Parameters<NonNullable<RoomHostOptions['store']>>[0]> = [];

function instance(key: string) {
  const link = connectRedis(url.toString());
  const bus = new RedisBus(link);
  let lobby: VersusLobby | null = null;
  const leases = new MatchLeases(link, () => [...lobby!.matches.keys()], (id) => lobby!.stop(id));
  const checkpoints = new RedisMatchCheckpoints(link, (id) => lobby!.stop(id));
  lobby = new VersusLobby({ bus, cluster: { checkpoints, claim: (id) => leases.claim(id), release: (id) => leases.release(id), held: (id) => leases.held(id) } });
  const rooms = new RoomLobby({ store: async (o) => (stored.push(o), { ok: true, matchId: o.matchId, repeated: false }) });
  const teams = new TeamQueue({ rooms, ratingOf: async () => NEW_PLAYER_RATING, rankedEntry: async () => ({ ok: true, avoid: [] }) });
  const relay = new VersusRelay(link, bus, lobby, { rooms, teams }, key, { leases, checkpoints });
  bus.setHooks({ snapshot: () => null, watchersChanged: () => {}, release: () => false, versus: (w) => relay.receive(w) });
  const shut = () => (relay.close(), lobby.close(), rooms.close(), bus.close(), link.close());
  closers.push(shut);
  /** Dies without a word: nothing more reaches Redis, its leases are not let go, its sets stop. */
  const crash = () => (link.kill(), shut());
  return { key, link, relay, rooms, crash, shut };
}

/** A browser's socket on one instance: what it was sent, and when (performance.now()). */
function socket(guest: string) {
  const got: ServerMessage[] = [];
  const at: number[] = [];
  const conn = {
    id: randomBytes(8).toString('hex'), relayedTo: null, owner: { userId: null, guestId: guest }, player: { name: null, guest: true },
    address: `10.7.${randomBytes(1)[0]}.1`, device: null, open: true, watches: new Map(), match: null, host: null, closedWith: 0,
    streams: new StreamBook(),
    send: (m: ServerMessage) => void (conn.streams.heard(m), got.push(serverMessageSchema.parse(m)), at.push(performance.now())),
    error: (code: string, message: string, extra = {}) => void (got.push({ t: 'error', code, message, ...extra } as ServerMessage), at.push(performance.now())),
    close(code: number) {
      this.open = false;
      this.closedWith = code;
    },
  };
  const last = <T extends ServerMessage['t']>(t: T) => got.findLast((m) => m.t === t) as Extract<ServerMessage, { t: T }> | undefined;
  const next = async <T extends ServerMessage['t']>(t: T, timeout = 15_000) => {
    await expect.poll(() => last(t), { timeout }).toBeDefined();
    return last(t)!;
  };
  return { conn: conn as unknown as Connection & { closedWith: number }, got, at, last, next };
}
type Sock = ReturnType<typeof socket>;

/**
 * Alice's page, on the real clock: from the tick its server has to the room's clock, batches of no
 * inputs (her pieces fall by gravity, so she stays in a while), to whichever socket she has now. A
 * resume moves her back to where the server's copy stands: what was lost is sent again.
 */
function page(matchId: string) {
  const st = { game: -1, seq: 0, tick: 0, t0: 0 };
  const seen = new WeakSet<ServerMessage>();
  return async (s: Sock, send: (m: RoomMessage) => Promise<void> | void) => {
    s.got.forEach((m, i) => {
      if (seen.has(m)) return;
      seen.add(m);
      if (m.t === 'rbegin') Object.assign(st, { game: m.game, seq: 0, tick: 0, t0: s.at[i]! + m.startsInMs });
      if (m.t === 'rresumed' && m.game === st.game) Object.assign(st, { seq: m.lastSeq, tick: m.tick });
    });
    if (st.game < 0 || !s.conn.open || s.got.some((m) => m.t === 'rgame' && m.game === st.game)) return;
    const now = clockTick(performance.now() - st.t0);
    while (st.tick < now && s.conn.open) {
      const tick = Math.min(now, st.tick + MAX_BATCH_TICKS);
      await send({ t: 'inputs', stream: matchId, game: st.game, seq: ++st.seq, tick, events: [] });
      st.tick = tick;
    }
  };
}

/**
 * Alice (on b) in a room of hers with two bots, made through b and held on the home (a), with a
 * watcher on b; 25 s games, the first in play. `playFor` plays her page through b on whichever socket she has.
 */
async function setAtHome(a: ReturnType<typeof instance>, b: ReturnType<typeof instance>) {
  const tag = randomBytes(3).toString('hex');
  const alice = socket(`alice-${tag}`);
  const watcher = socket(`watch-${tag}`);
  await b.relay.room(alice.conn, { t: 'rcreate', mode: 'battle', size: 3, rules: rules({ firstTo: 1, timeLimitTicks: 25 * 60 }), bots: [{ seat: 1, pps: 2, style: 'attacker' }, { seat: 2, pps: 1, style: 'tidy' }], handling: DEFAULT_HANDLING });
  const { code } = await alice.next('rroom');
  expect(a.rooms.rooms.has(code)).toBe(true);
  await b.relay.room(watcher.conn, { t: 'rwatch', code });
  await b.relay.room(alice.conn, { t: 'rready', code, ready: true });
  await b.relay.room(alice.conn, { t: 'rstart', code });
  const m = await alice.next('rmatch');
  const plays = page(m.matchId);
  const her = { sock: alice };
  const playFor = async (ms: number) => {
    for (const end = performance.now() + ms; performance.now() < end; ) {
      await sleep(100);
      await plays(her.sock, (x) => b.relay.room(her.sock.conn, x));
    }
  };
  await playFor(7_000);
  expect(a.rooms.matches.get(m.matchId)!.match.current.tick).toBeGreaterThan(120);
  // Written at least once since the game began.
  expect(await new RedisRoomCheckpoints(b.link, a.key).listed()).toContain(m.matchId);
  return { tag, alice, watcher, m, code, her, playFor };
}

/** After the home went: Alice's page and the watcher's dial again through b and take the set up there; it plays to its end, stored once. */
async function backAtTheNextHome(b: ReturnType<typeof instance>, set: Awaited<ReturnType<typeof setAtHome>>) {
  const { tag, alice, watcher, m, code, her, playFor } = set;
  await expect.poll(() => alice.conn.open, { timeout: 15_000 }).toBe(false);
  expect(alice.conn.closedWith).toBe(1012);
  // Her page dials again (through b) and resumes with the seat's token: it waits for the next home and its take-up.
  // A socket closed before it resumed (the home that went told it so, 1012) dials again, as a page does.
  for (let tries = 0; tries < 5 && !her.sock.last('rresumed'); tries++) {
    her.sock = socket(`alice-${tag}`);
    await b.relay.room(her.sock.conn, { t: 'rresume', matchId: m.matchId, token: m.resumeToken! });
    await expect.poll(() => !her.sock.conn.open || her.sock.last('rresumed') !== undefined || her.sock.last('error') !== undefined, { timeout: 15_000 }).toBe(true);
    // Never told the seat is gone: a page would give it up.
    expect(her.sock.last('error')).toBeUndefined();
  }
  expect(her.sock.last('rresumed')).toMatchObject({ matchId: m.matchId, game: 0, playing: true });
  expect(b.rooms.matches.has(m.matchId)).toBe(true);
  // Every field from its start (the frames before came from the home that went), then on from there.
  expect(her.sock.got.find((x) => x.t === 'rframes')).toMatchObject({ all: true, from: 0 });
  // The watcher was told to dial again too, and watches the set where it is now.
  await expect.poll(() => watcher.conn.open, { timeout: 10_000 }).toBe(false);
  let watching = socket(`watch-${tag}`);
  for (let tries = 0; tries < 5 && !watching.last('rframes'); tries++) {
    watching = socket(`watch-${tag}`);
    await b.relay.room(watching.conn, { t: 'rwatch', code });
    await expect.poll(() => !watching.conn.open || watching.last('rframes') !== undefined, { timeout: 15_000 }).toBe(true);
  }
  expect(watching.last('rframes')?.all).toBe(true);
  for (let t = 0; t < 120_000 && !her.sock.last('rover'); t += 100) await playFor(100);
  expect(her.sock.last('rover')).toMatchObject({ matchId: m.matchId, stored: true });
  expect(watching.last('rover')).toMatchObject({ matchId: m.matchId });
  // She was never put out for lag, across the instances (garbage may top her out).
  expect([...alice.got, ...her.sock.got].filter((x) => x.t === 'rko' && x.seat === 0 && x.why === 'lag')).toEqual([]);
  const mine = stored.filter((x) => x.matchId === m.matchId);
  expect(mine).toHaveLength(1);
  expect(verifyRoomMatch(mine[0]!.record).ok).toBe(true);
  // Stored: its checkpoint goes with it.
  await expect.poll(async () => new RedisRoomCheckpoints(b.link, b.key).listed(), { timeout: 5_000 }).not.toContain(m.matchId);
}

/** Two instances on one home key, the first holding the home, and Alice's set at it (setAtHome). */
async function homeAndAlice() {
  const k = homeKey();
  const a = instance(k);
  await sleep(100);
  const b = instance(k);
  return { a, b, set: await setAtHome(a, b) };
}

describe.skipIf(!redisUp)('a room set outlives the versus home', () => {
  it('the home crashes mid-game: the next home takes the set up from its checkpoint, its player and its watcher come back through their instance, and it is stored once', { timeout: 180_000 }, async () => {
    const { a, b, set } = await homeAndAlice();
    a.crash();
    // Her batches find no home: her socket is closed so the page dials again (or b closes it, once it holds the home).
    await set.playFor(1_000);
    await backAtTheNextHome(b, set);
  });

  it('the home loses its lease while it runs (a stall): its sets stop there, unstored, and the next home takes them up', { timeout: 180_000 }, async () => {
    const { a, b, set } = await homeAndAlice();
    // As if a stalled past its lease and b took the home meanwhile.
    await a.link.cmd.set(a.key, b.link.instance, 'PX', 60_000);
    await expect.poll(() => a.rooms.matches.has(set.m.matchId), { timeout: 5_000 }).toBe(false);
    await backAtTheNextHome(b, set);
    expect(a.rooms.matches.size).toBe(0);
  });

  it('the home loses Redis while it runs: after a lease without renewing it stops its sets, so only the next home plays them', { timeout: 180_000 }, async () => {
    const { a, b, set } = await homeAndAlice();
    // Its commands fail from now on (its bus still hears): it cannot renew the home, nor know who took it.
    a.link.cmd.disconnect();
    await expect.poll(() => a.rooms.matches.has(set.m.matchId), { timeout: CLUSTER.leaseMs + 3 * CLUSTER.renewEveryMs }).toBe(false);
    await backAtTheNextHome(b, set);
    expect(a.rooms.matches.size).toBe(0);
  });

  it('the home shuts down: it writes its sets and lets the home go, and the next takes them up at once', { timeout: 180_000 }, async () => {
    const { a, b, set } = await homeAndAlice();
    await a.relay.handOverRooms();
    const gone = performance.now();
    a.shut();
    await expect.poll(() => b.rooms.matches.has(set.m.matchId), { timeout: 10_000 }).toBe(true);
    // Not a lease's wait: b holds the home at its next look (every renewEveryMs).
    expect(performance.now() - gone).toBeLessThan(CLUSTER.renewEveryMs + 1_000);
    await backAtTheNextHome(b, set);
  });
});

/** Alice's room of three made through b, held on the home (a): Bob in seat 1 (ready), a bot in seat 2, a watcher; written to Redis. */
async function lobbyAtHome() {
  const k = homeKey();
  const a = instance(k);
  await sleep(100);
  const b = instance(k);
  const tag = randomBytes(3).toString('hex');
  const [alice, bob, watcher] = [socket(`alice-${tag}`), socket(`bob-${tag}`), socket(`watch-${tag}`)];
  await b.relay.room(alice.conn, { t: 'rcreate', mode: 'battle', size: 3, rules: rules(), bots: [{ seat: 2, pps: 1, style: 'tidy' }], handling: DEFAULT_HANDLING });
  const { code } = await alice.next('rroom');
  expect(a.rooms.rooms.has(code)).toBe(true);
  await b.relay.room(bob.conn, { t: 'rjoin', code, handling: DEFAULT_HANDLING });
  await b.relay.room(watcher.conn, { t: 'rwatch', code });
  await b.relay.room(bob.conn, { t: 'rready', code, ready: true });
  await expect.poll(() => bob.last('rroom')?.seats[1]?.ready).toBe(true);
  // Written by the home (each second): what the next home takes up.
  await expect.poll(async () => (await new RedisRoomCheckpoints(b.link, k).lobbies()).map((r) => r.code), { timeout: 5_000 }).toContain(code);
  return { a, b, tag, code, alice, bob, watcher, before: bob.last('rroom')! };
}

/**
 * A page's message through b until it is answered: a socket closed first (an instance that is not
 * the home, or no longer, says so by closing it) dials again, as the page does.
 */
async function dial(b: ReturnType<typeof instance>, guest: string, m: RoomClientMessage | VersusClientMessage, answered: (s: Sock) => boolean): Promise<Sock> {
  for (let tries = 0; tries < 5; tries++) {
    const s = socket(guest);
    await (isRoomMessage(m) ? b.relay.room(s.conn, m) : b.relay.handle(s.conn, m));
    await expect.poll(() => !s.conn.open || answered(s), { timeout: 15_000 }).toBe(true);
    if (answered(s)) return s;
  }
  throw new Error(`${guest}'s page was never answered`);
}

/** After the home went: each page's socket closed to dial again; back through b, a stranger finds no seat, its people sit in their own, and it starts. */
async function lobbyBack({ b, tag, code, alice, bob, watcher, before }: Awaited<ReturnType<typeof lobbyAtHome>>) {
  for (const s of [alice, bob, watcher]) {
    await expect.poll(() => s.conn.open, { timeout: 15_000 }).toBe(false);
    expect(s.conn.closedWith).toBe(1012);
    expect(s.last('rclosed')).toBeUndefined();
  }
  // A stranger asks first: every seat is kept (two for their people, one a bot's).
  const mallory = await dial(b, `mallory-${tag}`, { t: 'rjoin', code, handling: DEFAULT_HANDLING }, (s) => s.last('error') !== undefined);
  expect(mallory.last('error')?.code).toBe('room_full');
  expect(b.rooms.rooms.has(code)).toBe(true);
  // The pages dial again, as room-session does on `welcome`: Bob first, then Alice.
  const bob2 = await dial(b, `bob-${tag}`, { t: 'rjoin', code, handling: DEFAULT_HANDLING }, (s) => s.last('rroom') !== undefined);
  const alice2 = await dial(b, `alice-${tag}`, { t: 'rjoin', code, handling: DEFAULT_HANDLING }, (s) => s.last('rroom') !== undefined);
  const watcher2 = await dial(b, `watch-${tag}`, { t: 'rwatch', code }, (s) => s.last('rroom') !== undefined);
  const back = alice2.last('rroom')!;
  expect(back).toMatchObject({ code, you: 0, host: 0, mode: 'battle', rules: before.rules, playing: false });
  expect(back.seats.map((x) => x.player)).toEqual(before.seats.map((x) => x.player));
  expect(bob2.last('rroom')!.you).toBe(1);
  expect(watcher2.last('rroom')!.you).toBeNull();
  // Ready again (a kept seat is not ready), and started by its host, as before.
  await b.relay.room(bob2.conn, { t: 'rready', code, ready: true });
  await b.relay.room(alice2.conn, { t: 'rready', code, ready: true });
  await expect.poll(() => alice2.last('rroom')?.seats.every((x) => x.ready)).toBe(true);
  await b.relay.room(alice2.conn, { t: 'rstart', code });
  expect((await alice2.next('rmatch')).seat).toBe(0);
  expect((await bob2.next('rmatch')).seat).toBe(1);
}

describe.skipIf(!redisUp)('a room in its lobby outlives the versus home', () => {
  it('the home crashes: the next home takes the room up with its code, chair and bot; its people, dialling again through their instance, sit back in their own seats, a stranger finds none, and the room starts', { timeout: 60_000 }, async () => {
    const at = await lobbyAtHome();
    at.a.crash();
    await lobbyBack(at);
  });

  it('the home loses its lease while it runs (a stall): the room closes there and is taken up by the next home', { timeout: 60_000 }, async () => {
    const at = await lobbyAtHome();
    await at.a.link.cmd.set(at.a.key, at.b.link.instance, 'PX', 60_000);
    await expect.poll(() => at.a.rooms.rooms.has(at.code), { timeout: 5_000 }).toBe(false);
    await lobbyBack(at);
    expect(at.a.rooms.rooms.size).toBe(0);
  });

  it('the home crashes as another takes it, a third instance still relaying to it: its people there, one of whose messages found it gone first, are closed to dial again, and sit back in', { timeout: 60_000 }, async () => {
    const k = homeKey();
    const a = instance(k);
    await sleep(100);
    const [b, c] = [instance(k), instance(k)];
    const tag = randomBytes(3).toString('hex');
    const [alice, bob] = [socket(`alice-${tag}`), socket(`bob-${tag}`)];
    await c.relay.room(alice.conn, { t: 'rcreate', mode: 'battle', size: 3, rules: rules(), bots: [{ seat: 2, pps: 1, style: 'tidy' }], handling: DEFAULT_HANDLING });
    const { code } = await alice.next('rroom');
    await c.relay.room(bob.conn, { t: 'rjoin', code, handling: DEFAULT_HANDLING });
    await expect.poll(() => bob.last('rroom')?.you).toBe(1);
    await expect.poll(async () => (await new RedisRoomCheckpoints(c.link, k).lobbies()).map((r) => r.code), { timeout: 5_000 }).toContain(code);
    // a dies as b takes the home (its lease run out: set here at once), before c has looked again:
    // Bob's ready, relayed by c to the dead home, goes unanswered, and c forgets where the home is.
    a.crash();
    await b.link.cmd.set(k, b.link.instance, 'PX', 60_000);
    // (Answered server_error, unless c's own look at the home came first: then it is the usual path, and passes too.)
    await c.relay.room(bob.conn, { t: 'rready', code, ready: true });
    for (const s of [alice, bob]) {
      await expect.poll(() => s.conn.open, { timeout: 15_000 }).toBe(false);
      expect(s.conn.closedWith).toBe(1012);
    }
    await expect.poll(() => b.rooms.rooms.has(code) || c.rooms.rooms.has(code), { timeout: 5_000 }).toBe(true);
    const alice2 = await dial(c, `alice-${tag}`, { t: 'rjoin', code, handling: DEFAULT_HANDLING }, (s) => s.last('rroom') !== undefined);
    const bob2 = await dial(c, `bob-${tag}`, { t: 'rjoin', code, handling: DEFAULT_HANDLING }, (s) => s.last('rroom') !== undefined);
    expect(alice2.last('rroom')).toMatchObject({ code, you: 0, host: 0 });
    expect(bob2.last('rroom')).toMatchObject({ code, you: 1 });
  });

  it('the home shuts down: it writes its rooms and lets the home go, and the next takes them up at its next look', { timeout: 60_000 }, async () => {
    const at = await lobbyAtHome();
    // The host's change just before the shutdown is in what the next home takes up (written by the hand-over, not a second later).
    await at.b.relay.room(at.alice.conn, { t: 'rrules', code: at.code, mode: 'battle', rules: rules({ firstTo: 2 }) });
    await expect.poll(() => at.alice.last('rroom')?.rules.firstTo).toBe(2);
    await at.a.relay.handOverRooms();
    at.a.shut();
    await expect.poll(() => at.b.rooms.rooms.has(at.code), { timeout: CLUSTER.renewEveryMs + 1_000 }).toBe(true);
    await lobbyBack({ ...at, before: at.alice.last('rroom')! });
  });
});

/**
 * A private versus room of two held on the home (a), made through b (or on the home itself: `on`):
 * Ann made it (race 30, first to 3), Ben joined; written to Redis.
 */
async function pairAtHome(on: 'a' | 'b' = 'b') {
  const k = homeKey();
  const a = instance(k);
  await sleep(100);
  const b = instance(k);
  const via = on === 'a' ? a : b;
  const tag = randomBytes(3).toString('hex');
  const [ann, ben] = [socket(`ann-${tag}`), socket(`ben-${tag}`)];
  await via.relay.handle(ann.conn, { t: 'room_create', mode: 'race30', firstTo: 3, handling: DEFAULT_HANDLING, nextCount: 5 });
  const { code } = (await ann.next('room')).room;
  await via.relay.handle(ben.conn, { t: 'room_join', code, handling: DEFAULT_HANDLING, nextCount: 5 });
  await expect.poll(() => ann.last('room')?.room.seats[1]).not.toBeNull();
  await expect.poll(async () => (await new RedisRoomCheckpoints(b.link, k).versusRooms()).map((r) => r.code), { timeout: 5_000 }).toContain(code);
  return { a, b, tag, code, ann, ben };
}

/** After the home went: both pages' sockets closed to dial again (not told the room closed); back through b, each sits in its own seat, and they play. */
async function pairBack({ b, tag, code, ann, ben }: Awaited<ReturnType<typeof pairAtHome>>) {
  for (const s of [ann, ben]) {
    await expect.poll(() => s.conn.open, { timeout: 15_000 }).toBe(false);
    expect(s.conn.closedWith).toBe(1012);
    expect(s.got.filter((m) => m.t === 'room_closed' || m.t === 'error')).toEqual([]);
  }
  // The pages dial again, as versus-session does on `welcome`: the guest first (the maker's seat is kept), then the maker.
  const join = { t: 'room_join', code, handling: DEFAULT_HANDLING, nextCount: 5 } as const;
  const ben2 = await dial(b, `ben-${tag}`, join, (s) => s.last('room') !== undefined);
  expect(ben2.last('room')!.room).toMatchObject({ code, you: 1, away: true });
  const ann2 = await dial(b, `ann-${tag}`, join, (s) => s.last('room') !== undefined);
  expect(ann2.last('room')!.room).toMatchObject({ code, you: 0, mode: 'race30', firstTo: 3 });
  expect(ann2.last('room')!.room).not.toHaveProperty('away');
  for (const s of [ann2, ben2]) await b.relay.handle(s.conn, { t: 'ready', code, ready: true });
  expect((await ann2.next('match')).seat).toBe(0);
  expect((await ben2.next('match')).seat).toBe(1);
}

describe.skipIf(!redisUp)('a private versus room of two outlives the versus home', () => {
  it('the home crashes: the next home takes the room up with its code and set, and its two pages, dialling again through their instance, sit back in and play', { timeout: 60_000 }, async () => {
    const at = await pairAtHome();
    at.a.crash();
    await pairBack(at);
  });

  it('the home loses its lease while it runs (a stall): the room closes there, its people on it are told to dial again, and the next home takes it up', { timeout: 60_000 }, async () => {
    const at = await pairAtHome('a');
    await at.a.link.cmd.set(at.a.key, at.b.link.instance, 'PX', 60_000);
    await pairBack(at);
  });
});
