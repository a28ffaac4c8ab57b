import { NEW_PLAYER_RATING } from '@/lib/server/versus/rating';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES } from '@/lib/engine';
import { serverMessageSchema, type ServerMessage, type VersusClientMessage } from '@/lib/live/protocol';
import { StreamBook } from '@/lib/server/live/streams';
import type { Connection } from '@/lib/server/live/connection';
import type { VersusWire } from '@/lib/server/live/cluster/wires';
import { RedisBus } from '@/lib/server/live/cluster/redis-bus';
import { KEYS } from '@/lib/server/live/cluster/cluster';
import { connectRedis, type RedisLink } from '@/lib/server/live/cluster/redis';
import { VersusLobby, type LobbyOptions } from '@/lib/server/live/match/versus-lobby';
import { VersusRelay } from '@/lib/server/live/match/versus-relay';
import { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import { TeamQueue } from '@/lib/server/live/rooms/team-queue';
import { redisUp, redisUrl as url } from '@/tests/support/redis';

// Versus across instances on a real Redis (docs/decisions/0018): one instance, the versus home,
// runs the lobby; another relays its sockets' messages there and the answers back.

const closers: Array<() => void> = [];
afterAll(() => {
  for (const close of closers.reverse()) close();
});

/** One instance's versus: its Redis link, bus, lobby and relay, on a home key of this test's own. */
function instance(homeKey: string, o: Omit<LobbyOptions, 'bus'> = {}) {
  const link: RedisLink = connectRedis(url.toString());
  const bus = new RedisBus(link);
  const lobby = new VersusLobby({ bus, ...o });
  const rooms = new RoomLobby();
  // Everyone may play ranked 2v2 (the pairing rules' database is not what is tried here).
  const teams = new TeamQueue({ rooms, ratingOf: async () => NEW_PLAYER_RATING, rankedEntry: async () => ({ ok: true, avoid: [] }) });
  const relay = new VersusRelay(link, bus, lobby, { rooms, teams }, homeKey);
  bus.setHooks({ snapshot: () => null, watchersChanged: () => {}, release: () => false, versus: (w) => relay.receive(w) });
  closers.push(() => (relay.close(), lobby.close(), rooms.close(), bus.close(), link.close()));
  return { link, relay, bus, rooms };
}

/** A socket on one instance, as the relay sees it: what it was sent is collected. */
function socket(name: string, address = `10.9.0.${name.length}`) {
  const got: ServerMessage[] = [];
  const conn = {
    id: randomBytes(8).toString('hex'), relayedTo: null, owner: { userId: null, guestId: `guest-${name}` }, player: { name: null, guest: true },
    address, open: true, watches: new Map(), match: null, host: null,
    closed: [] as number[],
    close(code: number) {
      this.closed.push(code);
    },
    streams: new StreamBook(),
    send: (m: ServerMessage) => void (conn.streams.heard(m), got.push(serverMessageSchema.parse(m))),
    error: (code: string, message: string) => void got.push({ t: 'error', code, message } as ServerMessage),
  };
  const next = async <T extends ServerMessage['t']>(t: T, pred: (m: Extract<ServerMessage, { t: T }>) => boolean = () => true) => {
    await expect.poll(() => got.some((m) => m.t === t && pred(m as Extract<ServerMessage, { t: T }>)), { timeout: 5_000 }).toBe(true);
    return got.findLast((m) => m.t === t && pred(m as Extract<ServerMessage, { t: T }>)) as Extract<ServerMessage, { t: T }>;
  };
  return { conn: conn as unknown as Connection, got, next };
}

const setup = { handling: DEFAULT_HANDLING, nextCount: 5 };

/** The home and another instance; a room made through the other (`far`'s), joined on the home (`near`'s). */
async function roomAcross() {
  const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
  const home = instance(homeKey);
  await new Promise((r) => setTimeout(r, 100)); // the first claims the home
  const other = instance(homeKey);
  const far = socket('far');
  const near = socket('near');
  await other.relay.handle(far.conn, { t: 'room_create', mode: 'battle', firstTo: 2, ...setup });
  const { room } = await far.next('room');
  await home.relay.handle(near.conn, { t: 'room_join', code: room.code, ...setup });
  await near.next('room', (m) => m.room.seats[0] !== null && m.room.seats[1] !== null);
  await far.next('room', (m) => m.room.seats[1] !== null);
  return { home, other, far, near, room };
}

describe.skipIf(!redisUp)('versus across instances on Redis', () => {
  it('a room made through one instance is joined on the home; the relayed maker’s socket closing keeps its seat, and its page dialling again through the home sits back in it', async () => {
    // Made through the other instance, joined by its code on the home itself: both hear of it, the relayed one through Redis.
    const { home, other, far, near, room } = await roomAcross();
    expect(far.conn.relayedTo).toBe(home.link.instance);
    expect(room.seats).toEqual([{ name: null, guest: true }, null]);
    expect(near.conn.relayedTo).toBeNull();
    expect((await near.next('room')).room.you).toBe(1);

    // Only the room's maker picks the set, whichever instance its socket is on.
    await home.relay.handle(near.conn, { t: 'room_set', code: room.code, mode: 'race30', firstTo: 3 });
    expect((await near.next('error')).code).toBe('not_room_host');
    await other.relay.handle(far.conn, { t: 'room_set', code: room.code, mode: 'race30', firstTo: 3 });
    expect((await near.next('room', (m) => m.room.mode === 'race30')).room.firstTo).toBe(3);

    // The maker's socket closes on its own instance: the home keeps its seat a while, and says so.
    other.relay.drop(far.conn);
    expect((await near.next('room', (m) => m.room.away === true)).room.seats[0]).toEqual({ name: null, guest: true });
    // Its page dials again, through another instance this time: the same player sits back in the maker's seat.
    const again = socket('far');
    await home.relay.handle(again.conn, { t: 'room_join', code: room.code, ...setup });
    expect((await again.next('room')).room).toMatchObject({ code: room.code, you: 0, mode: 'race30' });
    expect(near.got.filter((m) => m.t === 'room_closed')).toEqual([]);
  });

  it('a room left through another instance than the home’s: the guest there hears at once, and the leaver is not counted as waiting there (it may play the bot)', async () => {
    const { other, far, near, room } = await roomAcross();
    await other.relay.handle(far.conn, { t: 'room_leave', code: room.code });
    expect(await near.next('room_closed')).toMatchObject({ code: room.code, reason: 'left' });
    await far.next('room_closed');
    await other.relay.handle(far.conn, { t: 'spar', mode: 'battle', firstTo: 1, bot: { pps: 1, style: 'tidy' }, ...setup });
    await far.next('match');
  });

  it('a versus seat’s batch through one instance reaches its match on the home, not the rooms held there', async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const home = instance(homeKey);
    await new Promise((r) => setTimeout(r, 100));
    const other = instance(homeKey);
    const [far, near] = [socket('far'), socket('near')];
    await other.relay.handle(far.conn, { t: 'room_create', mode: 'battle', firstTo: 1, ...setup });
    const { room } = await far.next('room');
    await home.relay.handle(near.conn, { t: 'room_join', code: room.code, ...setup });
    await other.relay.handle(far.conn, { t: 'ready', code: room.code, ready: true });
    await home.relay.handle(near.conn, { t: 'ready', code: room.code, ready: true });
    const { matchId } = await far.next('match');
    await other.relay.handle(far.conn, { t: 'inputs', stream: matchId, game: 0, seq: 1, tick: 0, events: [] });
    expect(await far.next('ack')).toEqual({ t: 'ack', stream: matchId, game: 0, seq: 1, tick: 0 });
    expect(far.got.filter((m) => m.t === 'error')).toEqual([]);
  });

  it('an instance of another protocol version (a deploy under way) is not half-heard: a message relayed from one closes its socket 1012, and the page dials a server of its own version', async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const home = instance(homeKey);
    await new Promise((r) => setTimeout(r, 100));
    const other = instance(homeKey);
    const far = socket('far');
    await other.relay.handle(far.conn, { t: 'room_create', mode: 'battle', firstTo: 1, ...setup });
    const { room } = await far.next('room');
    const who = { owner: far.conn.owner, player: far.conn.player, address: far.conn.address, device: null };
    // What an instance of protocol 1 sends the home: its batches' type is gone from this version.
    home.relay.receive({ k: 'vin', from: other.link.instance, peer: far.conn.id, who, m: { t: 'ready', code: room.code, ready: true } } as VersusWire);
    await expect.poll(() => (far.conn as unknown as { closed: number[] }).closed).toEqual([1012]);
    // And an answer from one: never passed to a page that could not read it.
    const heard = far.got.length;
    other.relay.receive({ k: 'vout', from: home.link.instance, peer: far.conn.id, m: { t: 'pong', n: 1 } } as VersusWire);
    expect(far.got).toHaveLength(heard);
    expect((far.conn as unknown as { closed: number[] }).closed).toEqual([1012, 1012]);
  });

  it('a room of 2–16 is held on the home: made through one instance, joined by its code through another, started, and a relayed socket’s close frees its seat', async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const home = instance(homeKey);
    await new Promise((r) => setTimeout(r, 100));
    const other = instance(homeKey);
    const [far, near, gone] = [socket('far'), socket('near'), socket('gone')];
    const H = DEFAULT_HANDLING;
    await other.relay.room(far.conn, { t: 'rcreate', mode: 'battle', size: 4, rules: { ...DEFAULT_ROOM_RULES, firstTo: 1 }, bots: [{ seat: 3, pps: 2, style: 'tidy' }], handling: H });
    const { code } = await far.next('rroom');
    expect(home.rooms.rooms.has(code)).toBe(true);
    expect(other.rooms.rooms.size).toBe(0);
    // Its code works whichever instance a socket is on.
    await home.relay.room(near.conn, { t: 'rjoin', code, handling: H });
    await other.relay.room(gone.conn, { t: 'rjoin', code, handling: H });
    expect((await near.next('rroom', (m) => m.seats[2]!.player !== null)).you).toBe(1);
    await far.next('rroom', (m) => m.seats.every((x) => x.player !== null));
    // A relayed socket that closes leaves its seat free, as one on the home would.
    other.relay.drop(gone.conn);
    await far.next('rroom', (m) => m.seats[2]!.player === null);
    await other.relay.room(far.conn, { t: 'rbot', code, seat: 2, bot: { pps: 1, style: 'tidy' } });
    for (const [s, relay] of [[far, other.relay], [near, home.relay]] as const) await relay.room(s.conn, { t: 'rready', code, ready: true });
    await other.relay.room(far.conn, { t: 'rstart', code });
    const m = await far.next('rmatch');
    expect(m).toMatchObject({ code, seat: 0 });
    expect((await near.next('rmatch')).matchId).toBe(m.matchId);
    expect((await far.next('rbegin')).pieces.length).toBeGreaterThan(0);
    expect(home.rooms.matches.has(m.matchId)).toBe(true);
    // A seat's batch through its instance reaches the set at the home (its type names no family: the relay marks it a room's).
    await other.relay.room(far.conn, { t: 'inputs', stream: m.matchId, game: 0, seq: 1, tick: 0, events: [] });
    expect(await far.next('ack')).toEqual({ t: 'ack', stream: m.matchId, game: 0, seq: 1, tick: 0 });
    for (const [s, relay] of [[far, other.relay], [near, home.relay]] as const) await relay.room(s.conn, { t: 'rleave', code });
    await expect.poll(() => home.rooms.rooms.size).toBe(0);
  });

  it('a ranked 2v2 party made through one instance is joined by its code through another: the queue is held on the home', async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const home = instance(homeKey);
    await new Promise((r) => setTimeout(r, 100));
    const other = instance(homeKey);
    const [far, near] = [socket('far'), socket('near')];
    for (const [s, id] of [[far, 'u-far'], [near, 'u-near']] as const) Object.assign(s.conn, { owner: { userId: `${id}-${homeKey.slice(-6)}`, guestId: null } });
    await other.relay.room(far.conn, { t: 'tparty', handling: DEFAULT_HANDLING });
    const { code } = await far.next('tparty');
    await home.relay.room(near.conn, { t: 'tjoin', code, handling: DEFAULT_HANDLING });
    expect((await far.next('tparty', (m) => m.members.length === 2)).code).toBe(code);
    await other.relay.room(far.conn, { t: 'tqueue', handling: DEFAULT_HANDLING });
    expect(await far.next('tqueued')).toMatchObject({ pair: true });
    // The relayed socket closes: its partner is told, and the pair leaves the queue.
    other.relay.drop(far.conn);
    expect(await near.next('tunqueued')).toMatchObject({ reason: 'partner_left' });
  });

  it('a socket relayed to one instance is closed only by that instance, not by any other naming it', async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const home = instance(homeKey);
    await new Promise((r) => setTimeout(r, 100));
    const other = instance(homeKey);
    const third = instance(homeKey);
    const far = socket('far');
    await other.relay.room(far.conn, { t: 'rcreate', mode: 'battle', size: 2, rules: { ...DEFAULT_ROOM_RULES, firstTo: 1 }, bots: [], handling: DEFAULT_HANDLING });
    await far.next('rroom');
    const closed = (far.conn as unknown as { closed: number[] }).closed;
    // An instance the socket never spoke with names it: nothing happens.
    await third.bus.tell(other.link.instance, { k: 'vkick', from: third.link.instance, peer: far.conn.id, code: 1012, reason: 'moved' });
    await new Promise((r) => setTimeout(r, 200));
    expect(closed).toEqual([]);
    await home.bus.tell(other.link.instance, { k: 'vkick', from: home.link.instance, peer: far.conn.id, code: 1012, reason: 'moved' });
    await expect.poll(() => closed).toEqual([1012]);
  });

  it('drops the players of an instance that stopped, as if their sockets had closed', { timeout: 30_000 }, async () => {
    const { other, near } = await roomAcross();
    // The other instance dies without a word: it stops listing itself, and says nothing of its sockets.
    // Its maker is dropped as a closed socket is: its seat kept for its page a while.
    other.bus.close();
    other.relay.close();
    await expect.poll(() => near.got.some((m) => m.t === 'room' && m.room.away === true), { timeout: 20_000, interval: 500 }).toBe(true);
  });

  it('an instance only missing from the list (its writes late, its sockets alive) has its players’ sockets closed too: the maker’s page dials again and sits back in its room', { timeout: 30_000 }, async () => {
    const { other, far, near, room } = await roomAcross();
    // Its list is not written for a while (a stalled loop, Redis slow): the home takes it for dead.
    clearInterval((other.bus as unknown as { lister: NodeJS.Timeout }).lister);
    await other.link.cmd.zrem(KEYS.listers, other.link.instance);
    await expect.poll(() => near.got.some((m) => m.t === 'room' && m.room.away === true), { timeout: 20_000, interval: 500 }).toBe(true);
    // Its socket is alive, and no longer seated at the home: it is closed, not left in a room that is not its any more.
    await expect.poll(() => (far.conn as unknown as { closed: number[] }).closed, { timeout: 5_000 }).toContain(1012);
    const again = socket('far');
    await other.relay.handle(again.conn, { t: 'room_join', code: room.code, ...setup });
    await again.next('room', (m) => m.room.you === 0 && m.room.away === undefined);
    await near.next('room', (m) => m.room.away === undefined && m.room.seats[0] !== null);
  });

  it('a rematch of a quick match with one player relayed: offered on the home, refused to a stranger elsewhere, played again, and ended when the relayed socket closes', async () => {
    const homeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const store: LobbyOptions['store'] = async ({ matchId }) => ({ ok: true, matchId, repeated: false, ratings: null, noContest: false });
    const home = instance(homeKey, { store });
    await new Promise((r) => setTimeout(r, 100));
    const other = instance(homeKey, { store });
    const [far, near, stranger] = [socket('far', '10.9.1.1'), socket('near', '10.9.1.2'), socket('stranger', '10.9.1.3')];
    // A mode nobody else in this file queues for, so the two meet each other.
    const queue: VersusClientMessage = { t: 'queue', mode: 'race30', ranked: false, ...setup };
    await other.relay.handle(far.conn, queue);
    await far.next('queued');
    await home.relay.handle(near.conn, queue);
    const { matchId } = await near.next('match');
    await far.next('match', (m) => m.matchId === matchId);
    await home.relay.handle(near.conn, { t: 'vleave', matchId });
    await far.next('rematch_state', (m) => m.matchId === matchId);
    await near.next('rematch_state', (m) => m.matchId === matchId);

    // Someone on the other instance names the match: the home refuses them, and the players hear nothing.
    await other.relay.handle(stranger.conn, { t: 'rematch', matchId, want: true });
    expect((await stranger.next('error')).code).toBe('not_your_match');
    await other.relay.handle(far.conn, { t: 'rematch', matchId, want: true });
    await near.next('rematch_state', (m) => m.wants.includes(true));
    await home.relay.handle(near.conn, { t: 'rematch', matchId, want: true });
    const again = await far.next('match', (m) => m.matchId !== matchId);
    expect((await near.next('match', (m) => m.matchId !== matchId)).matchId).toBe(again.matchId);

    // Over again; the relayed player's socket closes: the player on the home hears they left.
    await other.relay.handle(far.conn, { t: 'vleave', matchId: again.matchId });
    await near.next('rematch_state', (m) => m.matchId === again.matchId);
    other.relay.drop(far.conn);
    expect((await near.next('rematch_over', (m) => m.matchId === again.matchId)).reason).toBe('left');
  });
});
