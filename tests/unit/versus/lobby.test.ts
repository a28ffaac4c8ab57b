import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { serverMessageSchema, type ServerMessage, type VersusMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import type { VersusPeer } from '@/lib/server/live/connection';
import { VersusLobby } from '@/lib/server/live/match/versus-lobby';
import { DbUnavailableError } from '@/lib/db/errors';
import { STORE_RETRY } from '@/lib/server/live/match/match-store';
import type { QueueStanding } from '@/lib/server/versus/bands';
import { MATCHMAKING } from '@/lib/server/versus/matchmaking';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import { fakeClock } from '@/tests/support/room-site';
import { versusRoomCheckpointSchema } from '@/lib/server/live/match/versus-room-keep';

/** A player as the lobby sees it (a socket here or one relayed from another instance): an owner, a send, errors collected. */
let addresses = 0;
function conn(owner: { userId: string | null; guestId: string | null }, address = `10.0.0.${++addresses}`, device: string | null = null) {
  const got: ServerMessage[] = [];
  const c: VersusPeer = {
    owner, player: { name: owner.userId, guest: !owner.userId }, address, device, open: true, watches: new Map(), match: null,
    send: (m) => void got.push(serverMessageSchema.parse(m)),
    error: (code, message) => void got.push({ t: 'error', code, message }),
  };
  return { c, got, last: (t: string) => got.filter((m) => m.t === t).at(-1) as never };
}

const base = { handling: DEFAULT_HANDLING, nextCount: 5 };
let lobby: VersusLobby;
afterEach(() => lobby?.close());
const anyone = async () => ({ ok: true as const, avoid: [] });
const make = () => (lobby = new VersusLobby({ bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: anyone }));
const send = (x: { c: VersusPeer }, m: VersusMessage) => lobby.handle(x.c, m);
/** Two guests queued for an unranked battle, paired at once: their match. */
async function guestsPaired(tag: string) {
  const a = conn({ userId: null, guestId: `${tag}a` });
  const b = conn({ userId: null, guestId: `${tag}b` });
  await send(a, { t: 'queue', mode: 'battle', ranked: false, ...base });
  await send(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
  return { a, b, matchId: (a.last('match') as { matchId: string }).matchId };
}

describe('the versus lobby', () => {
  it('knows an account in a ranked match, hosted here or placed elsewhere, whatever its tab: ranked 2v2 refuses it meanwhile', async () => {
    make();
    const [a, b, c, d] = ['r1', 'r2', 'r3', 'r4'].map((u) => conn({ userId: u, guestId: null }));
    await send(a!, { t: 'queue', mode: 'battle', ranked: true, ...base });
    await send(b!, { t: 'queue', mode: 'battle', ranked: true, ...base });
    expect(a!.last('match')).toMatchObject({ ranked: true });
    expect([lobby.playsRanked('r1'), lobby.playsRanked('r2'), lobby.playsRanked('r3')]).toEqual([true, true, false]);
    // Unranked is not ranked.
    await send(c!, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await send(d!, { t: 'queue', mode: 'battle', ranked: false, ...base });
    expect(c!.last('match')).toMatchObject({ ranked: false });
    expect(lobby.playsRanked('r3')).toBe(false);
    // A pair the home placed on another instance is known too.
    const [e, f] = ['r5', 'r6'].map((u) => conn({ userId: u, guestId: null }));
    lobby.setPlacer(() => true);
    await send(e!, { t: 'queue', mode: 'battle', ranked: true, ...base });
    await send(f!, { t: 'queue', mode: 'battle', ranked: true, ...base });
    expect(lobby.playsRanked('r5')).toBe(true);
    // Its socket dropping does not end the match there (the seat waits to be resumed): still playing.
    lobby.drop(e!.c);
    expect(lobby.playsRanked('r5')).toBe(true);
    lobby.settlePlaced([e!.c, f!.c], null, [null, null]);
    expect(lobby.playsRanked('r5')).toBe(false);
  });

  it('ranked: gives the pairing rules the connection’s device as well as its address', async () => {
    const seen: Array<{ address: string; device: string | null }> = [];
    lobby = new VersusLobby({ bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: async ({ address, device }) => (seen.push({ address, device }), { ok: true, avoid: [] }) });
    await send(conn({ userId: 'd1', guestId: null }, '10.9.9.9', 'device-a'), { t: 'queue', mode: 'battle', ranked: true, ...base });
    expect(seen).toEqual([{ address: '10.9.9.9', device: 'device-a' }]);
  });

  it('ranked: refuses a player the pairing rules do not admit, with their message; keeps one address and avoided players apart', async () => {
    const avoid: Record<string, string[]> = { u3: ['u4'] };
    lobby = new VersusLobby({
      bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }),
      rankedEntry: async ({ userId }) => (userId === 'new' ? { ok: false, code: 'not_eligible', message: 'Ranked opens after 3 finished solo games.' } : { ok: true, avoid: avoid[userId] ?? [] }),
    });
    const fresh = conn({ userId: 'new', guestId: null });
    await send(fresh, { t: 'queue', mode: 'battle', ranked: true, ...base });
    expect(fresh.last('error')).toMatchObject({ code: 'not_eligible', message: 'Ranked opens after 3 finished solo games.' });
    expect(fresh.last('queued')).toBeUndefined();
    // Unranked is open to them.
    await send(fresh, { t: 'queue', mode: 'battle', ranked: false, ...base });
    expect(fresh.last('queued')).toMatchObject({ ranked: false });

    // Two accounts behind one address wait; a third from elsewhere meets the first.
    const [a, b] = [conn({ userId: 'u1', guestId: null }, '10.9.9.9'), conn({ userId: 'u2', guestId: null }, '10.9.9.9')];
    await send(a, { t: 'queue', mode: 'race30', ranked: true, ...base });
    await send(b, { t: 'queue', mode: 'race30', ranked: true, ...base });
    expect(lobby.matches.size).toBe(0);
    // u3 must not meet u4 (its list); u4 must not meet u3 either way round.
    const [c, d] = [conn({ userId: 'u3', guestId: null }), conn({ userId: 'u4', guestId: null })];
    await send(c, { t: 'queue', mode: 'battle', ranked: true, ...base });
    await send(d, { t: 'queue', mode: 'battle', ranked: true, ...base });
    expect(lobby.matches.size).toBe(0);
    const e = conn({ userId: 'u5', guestId: null });
    await send(e, { t: 'queue', mode: 'race30', ranked: true, ...base });
    expect(a.last('match')).toMatchObject({ ranked: true });
    expect(b.last('match')).toBeUndefined();
  });

  it('ranked: pairs by band on the lobby’s clock, and a set is as long as the lower band of the pair plays', async () => {
    const clock = { t: 50_000 };
    const standings: Record<string, QueueStanding> = {
      g: { rating: 1610, band: 'gold' }, d: { rating: 1905, band: 'diamond' }, m: { rating: 2150, band: 'master' }, x: { rating: 1950, band: 'diamond' },
    };
    lobby = new VersusLobby({ bus: createLocalBus(), now: () => clock.t, ratingOf: async (userId) => standings[userId]!, rankedEntry: anyone });
    const [g, d, m, x] = (['g', 'd', 'm', 'x'] as const).map((id) => conn({ userId: id, guestId: null }));
    const ranked = { t: 'queue', mode: 'battle', ranked: true, ...base } as const;
    await send(g!, ranked);
    await send(d!, ranked);
    // Gold and Diamond are two bands apart: they wait for the second widening.
    clock.t += MATCHMAKING.bandWindowAfterMs[2] - 1;
    lobby.pair();
    expect(lobby.matches.size).toBe(0);
    clock.t += 1;
    lobby.pair();
    expect(g!.last('match')).toMatchObject({ ranked: true, firstTo: 3 });
    expect(d!.last('match')).toMatchObject({ firstTo: 3 });
    // Master and Diamond, a band apart: after the first widening, first to 4.
    await send(m!, ranked);
    await send(x!, ranked);
    expect(lobby.matches.size).toBe(1);
    clock.t += MATCHMAKING.bandWindowAfterMs[1];
    lobby.pair();
    expect(m!.last('match')).toMatchObject({ ranked: true, firstTo: 4 });
  });

  it('reads a standing without a band again, but no more than once a minute per connection', async () => {
    let reads = 0;
    let band: QueueStanding['band'] = null;
    const clock = { t: 0 };
    lobby = new VersusLobby({ bus: createLocalBus(), now: () => clock.t, ratingOf: async () => (reads++, { rating: 1500, band }), rankedEntry: anyone });
    const a = conn({ userId: 'ua', guestId: null });
    const again = async () => {
      await send(a, { t: 'queue', mode: 'battle', ranked: true, ...base });
      await send(a, { t: 'unqueue' });
    };
    await again();
    band = 'gold';
    await again(); // within the minute: kept, no read per message
    expect(reads).toBe(1);
    clock.t += 60_000;
    await again(); // then read again: now with its band
    await again();
    clock.t += 600_000;
    await again(); // a standing with a band is kept until a match of the player's ends
    expect(reads).toBe(2);
  });

  it('refuses ranked quick matches to guests and pairs two waiting guests unranked', async () => {
    make();
    const a = conn({ userId: null, guestId: 'ga' });
    const b = conn({ userId: null, guestId: 'gb' });
    await send(a, { t: 'queue', mode: 'battle', ranked: true, ...base });
    expect(a.last('error')).toMatchObject({ code: 'sign_in_required' });
    await send(a, { t: 'queue', mode: 'battle', ranked: false, ...base });
    expect(a.last('queued')).toMatchObject({ waiting: 1 });
    await send(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
    expect(a.last('match')).toMatchObject({ seat: 0, ranked: false, firstTo: 2 });
    expect(b.last('match')).toMatchObject({ seat: 1 });
    expect(lobby.matches.size).toBe(1);
  });

  it('says when every match that ended is stored, so a shutdown can wait for it', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let stored = 0;
    lobby = new VersusLobby({
      bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: anyone,
      store: async () => {
        await held;
        stored++;
        return { ok: true, matchId: 'm', repeated: false, ratings: null, noContest: false };
      },
    });
    const a = conn({ userId: null, guestId: 'sa' });
    const b = conn({ userId: null, guestId: 'sb' });
    // A match in play has nothing to store yet.
    await send(a, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await send(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await lobby.stored();
    const { matchId } = a.last('match') as { matchId: string };
    await send(b, { t: 'vleave', matchId });
    let settled = false;
    const waiting = lobby.stored().then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect([settled, stored]).toEqual([false, 0]);
    release();
    await waiting;
    expect(stored).toBe(1);
    expect(a.last('vover')).toMatchObject({ stored: true });
  });

  it('tries a finished match’s store on while the database is away, past the first attempts: the seats hear it is pending, then stored; a store failing otherwise is given up', async () => {
    let failures = 12;
    let failure: Error = new DbUnavailableError('the database is away');
    let stored = 0;
    let tries = 0;
    // Each retry's wait at once: the waits themselves are STORE_RETRY's.
    const timers = { set: (fn: () => void) => setTimeout(fn, 0), clear: (h: unknown) => clearTimeout(h as NodeJS.Timeout) };
    lobby = new VersusLobby({
      bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: anyone, timers,
      store: async () => {
        tries++;
        if (failures-- > 0) throw failure;
        stored++;
        return { ok: true, matchId: 'm', repeated: false, ratings: null, noContest: false };
      },
    });
    const errors = console.error;
    console.error = () => {};
    try {
      const { a, b, matchId } = await guestsPaired('p');
      await send(b, { t: 'vleave', matchId });
      await lobby.stored();
      expect(stored).toBe(1);
      const overs = a.got.filter((m) => m.t === 'vover');
      expect(overs.map((m) => [m.stored, m.pending])).toEqual([[false, true], [true, undefined]]);
      expect(lobby.matches.size).toBe(0);
      // A store that fails as a bug would, every time: given up after a few tries, its seats told it is not stored.
      failures = 100;
      failure = new TypeError('a bug');
      tries = 0;
      const { a: c, b: d, matchId: second } = await guestsPaired('q');
      await send(d, { t: 'vleave', matchId: second });
      await lobby.stored();
      expect(tries).toBe(STORE_RETRY.attempts);
      expect(c.got.filter((m) => m.t === 'vover').map((m) => [m.stored, m.pending])).toEqual([[false, true], [false, undefined]]);
      expect(lobby.matches.size).toBe(0);
    } finally {
      console.error = errors;
    }
  });

  it('a match let go here (its lease lost) moves on only who still watches it: a watch ended by a solo `unwatch` naming it is not', async () => {
    make();
    const moved: VersusPeer[][] = [];
    lobby.setLetGo((_, spectators) => void moved.push(spectators));
    const { matchId } = await guestsPaired('l');
    const [stays, quits] = [conn({ userId: null, guestId: 'w1' }), conn({ userId: null, guestId: 'w2' })];
    await send(stays, { t: 'vwatch', matchId });
    await send(quits, { t: 'vwatch', matchId });
    // What the solo handler does with `unwatch` (messages.ts): the socket's watch of that id ends, whatever it watches.
    quits.c.watches.get(matchId)!();
    quits.c.watches.delete(matchId);
    lobby.stop(matchId);
    expect(moved).toEqual([[stays.c]]);
  });

  it('a decided match let go while its store is on its way: its spectators stay, and hear the result', async () => {
    let release: () => void = () => {};
    const storing = new Promise<void>((r) => (release = r));
    lobby = new VersusLobby({
      bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: anyone,
      store: async () => {
        await storing;
        return { ok: true, matchId: 'm', repeated: false, ratings: null, noContest: false };
      },
    });
    const moved: VersusPeer[][] = [];
    lobby.setLetGo((_, spectators) => void moved.push(spectators));
    const { b, matchId } = await guestsPaired('d');
    const watcher = conn({ userId: null, guestId: 'dw' });
    await send(watcher, { t: 'vwatch', matchId });
    await send(b, { t: 'vleave', matchId });
    lobby.stop(matchId);
    release();
    await expect.poll(() => watcher.got.filter((m) => m.t === 'vover').map((m) => m.t === 'vover' && m.stored)).toEqual([true]);
    expect(moved).toEqual([]);
  });

  it('runs a private room: only the creator sets it, both ready start the match', async () => {
    make();
    const host = conn({ userId: 'u1', guestId: null });
    const friend = conn({ userId: 'u2', guestId: null });
    await send(host, { t: 'room_create', mode: 'battle', firstTo: 3, ...base });
    const code = (host.last('room') as { room: { code: string } }).room.code;
    await send(friend, { t: 'room_join', code, ...base });
    await send(friend, { t: 'room_set', code, mode: 'race30', firstTo: 7 });
    expect(friend.last('error')).toMatchObject({ code: 'not_room_host' });
    await send(host, { t: 'room_set', code, mode: 'race30', firstTo: 4 });
    await send(host, { t: 'ready', code, ready: true });
    expect(lobby.matches.size).toBe(0);
    await send(friend, { t: 'ready', code, ready: true });
    expect(host.last('match')).toMatchObject({ mode: 'race30', firstTo: 4, ranked: false });
    await send(conn({ userId: 'u3', guestId: null }), { t: 'room_join', code, ...base });
    expect(lobby.matches.size).toBe(1);
  });

  /** A room's match between two accounts, on a lobby whose store always takes it: `rooms` counts the room views its maker was sent. */
  async function roomMatch(tag: string) {
    lobby = new VersusLobby({ bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: anyone, store: async () => ({ ok: true, matchId: 'm', repeated: false, ratings: null, noContest: false }) });
    const host = conn({ userId: `${tag}1`, guestId: null });
    const friend = conn({ userId: `${tag}2`, guestId: null });
    await send(host, { t: 'room_create', mode: 'battle', firstTo: 2, ...base });
    const code = (host.last('room') as { room: { code: string } }).room.code;
    await send(friend, { t: 'room_join', code, ...base });
    await send(host, { t: 'ready', code, ready: true });
    await send(friend, { t: 'ready', code, ready: true });
    const { matchId } = host.last('match') as { matchId: string };
    return { host, friend, code, matchId, rooms: () => host.got.filter((m) => m.t === 'room').length };
  }

  it('opens a room again, with both players not ready, when its match is over', async () => {
    const { host, friend, code, matchId, rooms } = await roomMatch('r');
    const before = rooms();
    await send(friend, { t: 'vleave', matchId });
    await lobby.matches.get(matchId)?.finished;
    await expect.poll(() => lobby.matches.size).toBe(0);
    expect(rooms()).toBe(before + 1);
    expect(host.last('room')).toMatchObject({ room: { code, mode: 'battle', firstTo: 2, ready: [false, false], you: 0 } });
    expect(friend.last('room')).toMatchObject({ room: { code, you: 1 } });
    // The same two can play again from it.
    await send(host, { t: 'ready', code, ready: true });
    await send(friend, { t: 'ready', code, ready: true });
    expect(lobby.matches.size).toBe(1);
  });

  it('opens no room again where rooms are no longer held (another instance took the home while the match was played)', async () => {
    const { host, friend, matchId, rooms } = await roomMatch('h');
    const before = rooms();
    lobby.rooms.setHeld(() => false);
    await send(friend, { t: 'vleave', matchId });
    await lobby.matches.get(matchId)?.finished;
    await expect.poll(() => lobby.matches.size).toBe(0);
    expect(rooms()).toBe(before);
    expect(lobby.rooms.kept()).toEqual([]);
    await send(host, { t: 'queue', mode: 'battle', ranked: false, ...base });
    expect(host.last('queued')).toBeDefined();
  });

  it('takes inputs for a seat only from its player, and only from the connection that holds it', async () => {
    make();
    const a = conn({ userId: 'ua', guestId: null });
    const b = conn({ userId: 'ub', guestId: null });
    await send(a, { t: 'queue', mode: 'battle', ranked: true, ...base });
    await send(b, { t: 'queue', mode: 'battle', ranked: true, ...base });
    const { matchId, resumeToken } = a.last('match') as { matchId: string; resumeToken: string };
    const stranger = conn({ userId: 'uz', guestId: null });
    const batch: VersusMessage = { t: 'inputs', stream: matchId, game: 0, seq: 1, tick: 0, events: [] };
    await send(stranger, batch);
    expect(stranger.last('error')).toMatchObject({ code: 'not_your_match' });
    await send(stranger, { t: 'vresume', matchId, token: resumeToken });
    expect(stranger.last('error')).toMatchObject({ code: 'resume_failed' });
    // The same player from a second tab takes the seat over; the first tab is told at once (its page
    // stops playing and resumes nothing), then refused.
    const tab = conn({ userId: 'ua', guestId: null });
    await send(tab, { t: 'vresume', matchId, token: resumeToken });
    expect(tab.last('vresumed')).toMatchObject({ matchId });
    expect(a.last('error')).toMatchObject({ code: 'seat_taken', gameId: matchId });
    expect(tab.got.filter((m) => m.t === 'error')).toEqual([]);
    await send(a, batch);
    expect(a.last('error')).toMatchObject({ code: 'not_your_match' });
    // Nor may it leave: that would forfeit the match the second tab plays.
    await send(a, { t: 'vleave', matchId });
    expect(a.last('error')).toMatchObject({ code: 'not_your_match' });
    expect(tab.last('vover')).toBeUndefined();
    await send(tab, batch);
    expect(tab.last('ack')).toMatchObject({ seq: 1 });
  });
});

describe('a private room whose maker’s connection drops', () => {
  const clock = fakeClock();
  const held = () => (lobby = new VersusLobby({ bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: anyone, timers: clock.timers, now: clock.now }));
  /** A room made by `maker`, joined by `guest` (who is ready), then the maker's socket gone. */
  async function dropped(tag: string) {
    held();
    const maker = conn({ userId: null, guestId: `${tag}-maker` });
    const guest = conn({ userId: null, guestId: `${tag}-guest` });
    await send(maker, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    const code = (maker.last('room') as { room: { code: string } }).room.code;
    await send(guest, { t: 'room_join', code, ...base });
    await send(guest, { t: 'ready', code, ready: true });
    (maker.c as { open: boolean }).open = false;
    lobby.drop(maker.c);
    return { maker, guest, code };
  }

  it('keeps the maker’s seat for its page: the guest waits, a stranger is refused, and the maker dialling again sits back in it and starts the match', async () => {
    const { guest, code } = await dropped('back');
    expect(guest.got.filter((m) => m.t === 'room_closed')).toEqual([]);
    // The guest sees the maker away, and readies again once the maker is back: whom they play may have changed its mind.
    expect(guest.last('room')).toMatchObject({ room: { code, away: true, ready: [false, false], you: 1 } });
    const stranger = conn({ userId: null, guestId: 'back-stranger' });
    await send(stranger, { t: 'room_join', code, ...base });
    expect(stranger.last('error')).toMatchObject({ code: 'room_full' });
    clock.advance(ROOM_LIMITS.lobbyHoldMs - 1_000);
    const again = conn({ userId: null, guestId: 'back-maker' });
    await send(again, { t: 'room_join', code, ...base });
    expect(again.last('room')).toMatchObject({ room: { code, you: 0 } });
    expect((guest.last('room') as { room: object }).room).not.toHaveProperty('away');
    // Its maker's chair too: the set is the maker's to pick.
    await send(again, { t: 'room_set', code, mode: 'race30', firstTo: 2 });
    expect(guest.last('room')).toMatchObject({ room: { mode: 'race30', firstTo: 2 } });
    await send(again, { t: 'ready', code, ready: true });
    await send(guest, { t: 'ready', code, ready: true });
    expect(again.last('match')).toMatchObject({ seat: 0, mode: 'race30', firstTo: 2 });
    expect(guest.last('match')).toMatchObject({ seat: 1 });
  });

  it('is kept once however often its old socket is dropped: the maker back in time keeps the room past the first drop’s time', async () => {
    const { maker, guest, code } = await dropped('twice');
    clock.advance(10_000);
    lobby.drop(maker.c); // its instance gone too: the same socket dropped again
    const again = conn({ userId: null, guestId: 'twice-maker' });
    await send(again, { t: 'room_join', code, ...base });
    clock.advance(ROOM_LIMITS.lobbyHoldMs);
    expect(guest.got.filter((m) => m.t === 'room_closed')).toEqual([]);
    await send(again, { t: 'ready', code, ready: true });
    await send(guest, { t: 'ready', code, ready: true });
    expect(again.last('match')).toMatchObject({ seat: 0 });
  });

  it('closes the room once the seat has been kept its time, and the maker’s page is told it is gone', async () => {
    const { guest, code } = await dropped('gone');
    clock.advance(ROOM_LIMITS.lobbyHoldMs);
    expect(guest.last('room_closed')).toMatchObject({ code, reason: 'left' });
    const late = conn({ userId: null, guestId: 'gone-maker' });
    await send(late, { t: 'room_join', code, ...base });
    expect(late.last('error')).toMatchObject({ code: 'unknown_room' });
  });

  it('counts against its maker’s address while kept: sockets dialled and dropped in turn hold no more than ROOM_LIMITS.roomsPerAddress rooms', async () => {
    held();
    const address = '10.66.0.1';
    for (let i = 0; i < ROOM_LIMITS.roomsPerAddress; i++) {
      const maker = conn({ userId: null, guestId: `cycler-${i}` }, address);
      await send(maker, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
      expect(maker.last('room')).toBeDefined();
      (maker.c as { open: boolean }).open = false;
      lobby.drop(maker.c);
    }
    const one = conn({ userId: null, guestId: 'cycler-more' }, address);
    await send(one, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    expect(one.last('error')).toMatchObject({ code: 'rate_limited' });
    const elsewhere = conn({ userId: null, guestId: 'someone-else' }, '10.66.0.2');
    await send(elsewhere, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    expect(elsewhere.last('room')).toBeDefined();
    // Once the kept seats' time is over, the address may make rooms again.
    clock.advance(ROOM_LIMITS.lobbyHoldMs);
    await send(one, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    expect(one.last('room')).toBeDefined();
  });

  it('is the page’s again even before its old socket is noticed gone (a dead network closes nothing at once): the maker, not a guest of its own room', async () => {
    held();
    const maker = conn({ userId: null, guestId: 'quick-maker' });
    await send(maker, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    const code = (maker.last('room') as { room: { code: string } }).room.code;
    const again = conn({ userId: null, guestId: 'quick-maker' });
    await send(again, { t: 'room_join', code, ...base });
    expect(again.last('room')).toMatchObject({ room: { code, you: 0, seats: [{ guest: true }, null] } });
    // With a guest in: the guest's page dialling again before its old socket is gone takes its seat back too.
    const guest = conn({ userId: null, guestId: 'quick-guest' });
    await send(guest, { t: 'room_join', code, ...base });
    const guestAgain = conn({ userId: null, guestId: 'quick-guest' });
    await send(guestAgain, { t: 'room_join', code, ...base });
    expect(guestAgain.last('room')).toMatchObject({ room: { code, you: 1 } });
    // The old sockets' drops, when they come, leave the room as it is.
    lobby.drop(maker.c);
    lobby.drop(guest.c);
    clock.advance(ROOM_LIMITS.lobbyHoldMs);
    expect(guestAgain.got.filter((m) => m.t === 'room_closed')).toEqual([]);
    await send(again, { t: 'ready', code, ready: true });
    await send(guestAgain, { t: 'ready', code, ready: true });
    expect(again.last('match')).toMatchObject({ seat: 0 });
  });

  it('frees its sockets once they sit in it no more: a guest whose maker left, both after their match began, and a guest its own new page replaced', async () => {
    held();
    const create = (x: ReturnType<typeof conn>) => send(x, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    const codeOf = (x: ReturnType<typeof conn>) => (x.last('room') as { room: { code: string } }).room.code;
    const maker = conn({ userId: null, guestId: 'free-maker' });
    await create(maker);
    const guest = conn({ userId: null, guestId: 'free-guest' });
    await send(guest, { t: 'room_join', code: codeOf(maker), ...base });
    // Its own page again, before its old socket is noticed gone: the old one sits nowhere now.
    const guestAgain = conn({ userId: null, guestId: 'free-guest' });
    await send(guestAgain, { t: 'room_join', code: codeOf(maker), ...base });
    await create(guest);
    expect(guest.last('room')).toMatchObject({ room: { you: 0 } });
    await send(maker, { t: 'room_leave', code: codeOf(maker) });
    expect(guestAgain.last('room_closed')).toMatchObject({ reason: 'left' });
    await create(guestAgain);
    expect(guestAgain.got.filter((m) => m.t === 'error')).toEqual([]);
    // A room whose match began: its people are the match's, not the room's (busy for the match alone).
    const other = conn({ userId: null, guestId: 'free-other' });
    await send(other, { t: 'room_join', code: codeOf(guestAgain), ...base });
    await send(guestAgain, { t: 'ready', code: codeOf(guestAgain), ready: true });
    await send(other, { t: 'ready', code: codeOf(guestAgain), ready: true });
    expect(other.last('match')).toMatchObject({ seat: 1 });
    await send(other, { t: 'room_leave', code: codeOf(guestAgain) });
    expect(other.last('error')).toMatchObject({ code: 'unknown_room' });
  });

  it('is kept no more once the lobby closes (the instance going): its timer is not left to fire on a lobby that is gone', async () => {
    const { guest } = await dropped('closing');
    lobby.close();
    clock.advance(ROOM_LIMITS.lobbyHoldMs);
    expect(guest.got.filter((m) => m.t === 'room_closed')).toEqual([]);
  });

  it('counts only kept seats against an address: more makers than ROOM_LIMITS.roomsPerAddress behind one address, each connected, all get rooms', async () => {
    held();
    for (let i = 0; i <= ROOM_LIMITS.roomsPerAddress; i++) {
      const maker = conn({ userId: null, guestId: `school-${i}` }, '10.67.0.1');
      await send(maker, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
      expect(maker.last('room')).toBeDefined();
    }
  });

  it('keeps no more seats for an address than ROOM_LIMITS.roomsPerAddress when their sockets drop: past it a room closes at once, its guest told', async () => {
    held();
    const makers = [];
    for (let i = 0; i <= ROOM_LIMITS.roomsPerAddress; i++) {
      const maker = conn({ userId: null, guestId: `blip-${i}` }, '10.67.0.2');
      await send(maker, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
      const code = (maker.last('room') as { room: { code: string } }).room.code;
      const guest = conn({ userId: null, guestId: `blip-guest-${i}` });
      await send(guest, { t: 'room_join', code, ...base });
      makers.push({ maker, guest, code });
    }
    // Connected, each had its room; dropped (or dialled and dropped in turn), they keep at most the address's share.
    for (const { maker } of makers) {
      (maker.c as { open: boolean }).open = false;
      lobby.drop(maker.c);
    }
    const closed = makers.filter(({ guest }) => guest.last('room_closed'));
    expect(closed.map(({ guest }) => guest.last('room_closed'))).toEqual([{ t: 'room_closed', code: makers.at(-1)!.code, reason: 'left' }]);
    const back = conn({ userId: null, guestId: `blip-${ROOM_LIMITS.roomsPerAddress}` }, '10.67.0.2');
    await send(back, { t: 'room_join', code: makers.at(-1)!.code, ...base });
    expect(back.last('error')).toMatchObject({ code: 'unknown_room' });
    // The kept ones are their makers' still.
    const first = conn({ userId: null, guestId: 'blip-0' }, '10.67.0.2');
    await send(first, { t: 'room_join', code: makers[0]!.code, ...base });
    expect(first.last('room')).toMatchObject({ room: { code: makers[0]!.code, you: 0 } });
  });
});

describe('a private room left on purpose (room_leave)', () => {
  const clock = fakeClock();
  /** A room made by `maker` and joined by `guest`, who is ready. */
  async function room(tag: string) {
    lobby = new VersusLobby({ bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: anyone, timers: clock.timers, now: clock.now });
    const maker = conn({ userId: null, guestId: `${tag}-maker` }, '10.68.0.1');
    const guest = conn({ userId: null, guestId: `${tag}-guest` });
    await send(maker, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    const code = (maker.last('room') as { room: { code: string } }).room.code;
    await send(guest, { t: 'room_join', code, ...base });
    await send(guest, { t: 'ready', code, ready: true });
    return { maker, guest, code };
  }

  it('by its maker closes it at once: the guest is told, not kept waiting on a seat nobody comes back to, and nothing is held for the maker', async () => {
    const { maker, guest, code } = await room('maker');
    await send(maker, { t: 'room_leave', code });
    expect(guest.last('room_closed')).toMatchObject({ code, reason: 'left' });
    expect(guest.got.filter((m) => m.t === 'room' && 'away' in m.room)).toEqual([]);
    // The maker's own page put itself back in the lobby: the room's close is its answer, and it is free to play.
    expect(maker.got.filter((m) => m.t === 'room_closed' || m.t === 'error')).toEqual([{ t: 'room_closed', code, reason: 'left' }]);
    const stranger = conn({ userId: null, guestId: 'maker-stranger' });
    await send(stranger, { t: 'room_join', code, ...base });
    expect(stranger.last('error')).toMatchObject({ code: 'unknown_room' });
    await send(maker, { t: 'queue', mode: 'battle', ranked: false, ...base });
    expect(maker.last('queued')).toBeDefined();
    // Its socket closing after (the page went elsewhere) keeps no seat: as many kept rooms as ever are its address's.
    (maker.c as { open: boolean }).open = false;
    lobby.drop(maker.c);
    for (let i = 0; i < ROOM_LIMITS.roomsPerAddress; i++) {
      const next = conn({ userId: null, guestId: `maker-next-${i}` }, '10.68.0.1');
      await send(next, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
      expect(next.last('room')).toBeDefined();
      (next.c as { open: boolean }).open = false;
      lobby.drop(next.c); // kept: these count
    }
  });

  it('by its maker while the guest has not come: the room is gone, and its kept seat timer with it', async () => {
    const { maker, guest, code } = await room('kept');
    lobby.drop(guest.c);
    (maker.c as { open: boolean }).open = false;
    lobby.drop(maker.c); // kept: its page dials again and leaves
    const again = conn({ userId: null, guestId: 'kept-maker' }, '10.68.0.1');
    await send(again, { t: 'room_join', code, ...base });
    await send(again, { t: 'room_leave', code });
    clock.advance(ROOM_LIMITS.lobbyHoldMs);
    expect(again.got.filter((m) => m.t === 'room_closed' || m.t === 'error')).toEqual([{ t: 'room_closed', code, reason: 'left' }]);
    await send(again, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    expect(again.got.filter((m) => m.t === 'error')).toEqual([]);
    expect((again.last('room') as { room: { code: string; you: number } }).room).toMatchObject({ you: 0, code: expect.not.stringMatching(code) });
  });

  it('by its guest frees the seat: the maker waits for another, and the guest may play elsewhere', async () => {
    const { maker, guest, code } = await room('guest');
    await send(guest, { t: 'room_leave', code });
    expect(maker.last('room')).toMatchObject({ room: { code, seats: [{ guest: true }, null], ready: [false, false] } });
    expect(maker.got.filter((m) => m.t === 'room_closed')).toEqual([]);
    expect(guest.last('room_closed')).toEqual({ t: 'room_closed', code, reason: 'left' });
    await send(guest, { t: 'queue', mode: 'battle', ranked: false, ...base });
    expect(guest.last('queued')).toBeDefined();
    const other = conn({ userId: null, guestId: 'guest-other' });
    await send(other, { t: 'room_join', code, ...base });
    expect(other.last('room')).toMatchObject({ room: { code, you: 1 } });
  });

  it('by its maker’s page from a socket dialled since its seat was kept (it left while its link was down): closed at once', async () => {
    const { maker, guest, code } = await room('down');
    (maker.c as { open: boolean }).open = false;
    lobby.drop(maker.c);
    const again = conn({ userId: null, guestId: 'down-maker' }, '10.68.0.1');
    await send(again, { t: 'room_leave', code });
    expect(guest.last('room_closed')).toMatchObject({ code, reason: 'left' });
    expect(again.last('room_closed')).toMatchObject({ code, reason: 'left' });
  });

  it('by anyone not seated in it is refused, and leaves the room as it was', async () => {
    const { maker, guest, code } = await room('stranger');
    // The maker's own account from another tab that never joined: not its seat to give up.
    for (const who of [conn({ userId: null, guestId: 'stranger-x' }), conn({ userId: null, guestId: 'stranger-maker' })]) {
      await send(who, { t: 'room_leave', code });
      expect(who.last('error')).toMatchObject({ code: 'unknown_room' });
    }
    expect(guest.got.filter((m) => m.t === 'room_closed')).toEqual([]);
    await send(maker, { t: 'ready', code, ready: true });
    expect(maker.last('match')).toBeDefined();
  });
});

describe('a private room whose home goes (the next home takes it up)', () => {
  const clock = fakeClock();
  const onClock = () => new VersusLobby({ bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: anyone, timers: clock.timers, now: clock.now });
  /** A room made and set by its maker, joined, as the home wrote it (through JSON and its schema, as Redis holds it). */
  async function written(tag: string) {
    const home = (lobby = onClock());
    const maker = conn({ userId: null, guestId: `${tag}-maker` }, '10.69.0.1');
    const guest = conn({ userId: null, guestId: `${tag}-guest` });
    await send(maker, { t: 'room_create', mode: 'battle', firstTo: 1, handling: { ...DEFAULT_HANDLING, das: 7 }, nextCount: 3 });
    const code = (maker.last('room') as { room: { code: string } }).room.code;
    const before = home.rooms.kept()[0]!.rev;
    await send(maker, { t: 'room_set', code, mode: 'race30', firstTo: 3 });
    await send(guest, { t: 'room_join', code, ...base });
    const [entry] = home.rooms.kept();
    expect(entry!.rev).not.toBe(before);
    const cp = versusRoomCheckpointSchema.parse(JSON.parse(JSON.stringify(entry!.read())));
    home.close();
    return { cp, code };
  }

  it('is rebuilt with its code and set; its maker’s page dialling again sits in its seat and the chair, the guest’s takes the free seat, and they play with the setups their pages bring', async () => {
    const { cp, code } = await written('up');
    lobby = onClock();
    expect(lobby.rooms.takeUp(cp)).toBe(true);
    expect(lobby.rooms.takeUp(cp)).toBe(false);
    // A stranger with the code finds the maker's seat kept (the guest's is free, as after a guest's drop).
    const stranger = conn({ userId: null, guestId: 'up-stranger' });
    await send(stranger, { t: 'room_join', code, ...base });
    expect(stranger.last('room')).toMatchObject({ room: { code, you: 1, away: true } });
    await send(stranger, { t: 'room_leave', code });
    const maker = conn({ userId: null, guestId: 'up-maker' });
    const guest = conn({ userId: null, guestId: 'up-guest' });
    clock.advance(ROOM_LIMITS.lobbyHoldMs - 1_000);
    await send(guest, { t: 'room_join', code, ...base });
    await send(maker, { t: 'room_join', code, handling: { ...DEFAULT_HANDLING, das: 7 }, nextCount: 3 });
    expect(maker.last('room')).toMatchObject({ room: { code, you: 0, mode: 'race30', firstTo: 3 } });
    expect((guest.last('room') as { room: object }).room).not.toHaveProperty('away');
    await send(maker, { t: 'ready', code, ready: true });
    await send(guest, { t: 'ready', code, ready: true });
    expect(maker.last('match')).toMatchObject({ seat: 0, mode: 'race30', firstTo: 3, handling: [{ das: 7 }, { das: DEFAULT_HANDLING.das }] });
  });

  it('keeps every room it takes up, however many makers behind one address had them (the server dropped them, not they); kept, they count against the address', async () => {
    lobby = onClock();
    const cps = Array.from({ length: ROOM_LIMITS.roomsPerAddress + 2 }, (_, i) => versusRoomCheckpointSchema.parse({
      code: `CAMP${'ABCDEFGHJKMNPQRSTUVWXYZ'[i]}2`, mode: 'battle', firstTo: 1,
      maker: { owner: { userId: null, guestId: `campus-${i}` }, player: { name: null, guest: true }, address: '10.70.0.1' },
    }));
    for (const cp of cps) expect(lobby.rooms.takeUp(cp)).toBe(true);
    const last = conn({ userId: null, guestId: `campus-${cps.length - 1}` }, '10.70.0.1');
    await send(last, { t: 'room_join', code: cps.at(-1)!.code, ...base });
    expect(last.last('room')).toMatchObject({ room: { code: cps.at(-1)!.code, you: 0 } });
    const more = conn({ userId: null, guestId: 'campus-more' }, '10.70.0.1');
    await send(more, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    expect(more.last('error')).toMatchObject({ code: 'rate_limited' });
    // Their time over, the address makes rooms again (each counted once, whichever way it ended).
    clock.advance(ROOM_LIMITS.lobbyHoldMs);
    await send(more, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    expect(more.last('room')).toBeDefined();
  });

  it('closes once its maker’s seat has been kept its time, the guest told', async () => {
    const { cp, code } = await written('late');
    lobby = onClock();
    lobby.rooms.takeUp(cp);
    const guest = conn({ userId: null, guestId: 'late-guest' });
    await send(guest, { t: 'room_join', code, ...base });
    clock.advance(ROOM_LIMITS.lobbyHoldMs);
    expect(guest.last('room_closed')).toMatchObject({ code, reason: 'left' });
  });

  it('stops where the home was lost (another took it): its rooms close there unannounced, and their people are handed back to be told to dial again', async () => {
    lobby = onClock();
    const maker = conn({ userId: null, guestId: 'lost-maker' });
    const guest = conn({ userId: null, guestId: 'lost-guest' });
    await send(maker, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    const code = (maker.last('room') as { room: { code: string } }).room.code;
    await send(guest, { t: 'room_join', code, ...base });
    expect(lobby.rooms.stop()).toEqual([maker.c, guest.c]);
    expect(lobby.rooms.kept()).toEqual([]);
    expect([...maker.got, ...guest.got].filter((m) => m.t === 'room_closed')).toEqual([]);
    await send(maker, { t: 'queue', mode: 'battle', ranked: false, ...base });
    expect(maker.last('queued')).toBeDefined();
  });
});
