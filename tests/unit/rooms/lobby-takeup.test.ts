import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { lobbyCheckpointsSchema } from '@/lib/server/live/rooms/lobby-checkpoint';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import type { Timers } from '@/lib/server/live/match/match-timing';
import { aliceAndBots, alicePlays, rules, socket, storing } from '@/tests/support/room-site';

/**
 * A room in its lobby taken up by the next versus home (room-sets.ts writes `lobbies()`, the next
 * home calls `takeUpLobby`): each person's seat is kept for its owner for ROOM_LIMITS.lobbyHoldMs,
 * then freed. Timers by hand, so the hold's end is the test's to choose.
 */
function site() {
  const due: Array<{ at: number; fn: () => void }> = [];
  let now = 0;
  const timers: Timers = { set: (fn, ms) => due.push({ at: now + ms, fn }), clear: () => {} };
  const pass = (ms: number) => {
    now += ms;
    for (const t of due.splice(0).filter((t) => (t.at <= now ? (t.fn(), false) : true))) due.push(t);
  };
  return { lobby: new RoomLobby({ timers }), pass };
}
const alice = { userId: 'u-alice', guestId: null };
const bob = { userId: 'u-bob', guestId: null };

/** Alice's room of three at the old home: Bob in seat 1, a bot in seat 2; as the home wrote it. */
function written() {
  const old = site().lobby;
  const a = socket(old, alice);
  a.say({ t: 'rcreate', mode: 'battle', size: 3, rules: rules(), bots: [{ seat: 2, pps: 1, style: 'tidy' }], handling: DEFAULT_HANDLING });
  const code = a.last('rroom')!.code;
  socket(old, bob).say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
  // Through JSON and the schema, as Redis hands it to the next home.
  return { code, rooms: lobbyCheckpointsSchema.parse(JSON.parse(JSON.stringify(old.lobbies().map((e) => e.read())))) };
}

describe('a room in its lobby taken up by the next home', () => {
  it('keeps each person’s seat for its owner only, until the hold ends: then a seat nobody came back to is free, and the chair passes', () => {
    const { code, rooms } = written();
    const { lobby, pass } = site();
    expect(lobby.takeUpLobby(rooms[0]!)).toBe(true);
    expect(lobby.takeUpLobby(rooms[0]!)).toBe(false); // its code is held here now
    const mallory = socket(lobby, { userId: 'u-mallory', guestId: null });
    mallory.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    expect(mallory.last('error')?.code).toBe('room_full');
    const b = socket(lobby, bob);
    b.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    expect(b.last('rroom')).toMatchObject({ you: 1, host: 0 });
    // Alice's seat is kept, not ready: the room cannot start without her.
    expect(b.last('rroom')!.seats[0]).toMatchObject({ player: expect.anything(), ready: false });
    pass(ROOM_LIMITS.lobbyHoldMs - 1);
    mallory.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    expect(mallory.last('error')?.code).toBe('room_full');
    pass(1);
    // Alice did not come back: her seat is free and the chair is Bob's.
    expect(b.last('rroom')).toMatchObject({ you: 1, host: 1 });
    expect(b.last('rroom')!.seats[0]!.player).toBeNull();
    mallory.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    expect(mallory.last('rroom')).toMatchObject({ you: 0, host: 1 });
  });

  it('closes once the hold ends with none of its people back, giving its bots back', () => {
    const { code, rooms } = written();
    const { lobby, pass } = site();
    lobby.takeUpLobby(rooms[0]!);
    expect(lobby.botSeats).toBe(1);
    const w = socket(lobby, { userId: null, guestId: 'g-watch' });
    w.say({ t: 'rwatch', code });
    pass(ROOM_LIMITS.lobbyHoldMs);
    expect(lobby.rooms.has(code)).toBe(false);
    expect(lobby.botSeats).toBe(0);
    expect(w.last('rclosed')).toMatchObject({ code, reason: 'empty' });
  });

  it('keeps out whom the host removed', () => {
    const { lobby } = site();
    const a = socket(lobby, alice);
    a.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: DEFAULT_HANDLING });
    const code = a.last('rroom')!.code;
    const b = socket(lobby, bob);
    b.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    a.say({ t: 'rkick', code, seat: 1 });
    const next = site();
    next.lobby.takeUpLobby(lobbyCheckpointsSchema.parse(lobby.lobbies().map((e) => e.read()))[0]!);
    const back = socket(next.lobby, bob);
    back.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    expect(back.last('error')?.code).toBe('not_eligible');
  });

  it('gives the chair to nobody whose seat is only kept: not by hand, nor when the host leaves', () => {
    const carol = { userId: 'u-carol', guestId: null };
    const old = site().lobby;
    const a0 = socket(old, alice);
    a0.say({ t: 'rcreate', mode: 'battle', size: 3, rules: rules(), bots: [], handling: DEFAULT_HANDLING });
    const code = a0.last('rroom')!.code;
    socket(old, carol).say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    socket(old, bob).say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    const { lobby } = site();
    lobby.takeUpLobby(lobbyCheckpointsSchema.parse(old.lobbies().map((e) => e.read()))[0]!);
    const a = socket(lobby, alice);
    const b = socket(lobby, bob);
    a.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    b.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    expect(b.last('rroom')).toMatchObject({ you: 2, host: 0 });
    // Carol (seat 1) has not come back.
    a.say({ t: 'rhost', code, seat: 1 });
    expect(a.last('error')?.code).toBe('bad_message');
    a.say({ t: 'rleave', code });
    expect(b.last('rroom')!.host).toBe(2);
  });

  it('at an instance no longer the home: a set that ends there closes its room, its people told to dial again, rather than bringing back a lobby nobody reaches', async () => {
    let release!: () => void;
    const storedLate = new Promise<void>((resolve) => (release = resolve));
    const site = aliceAndBots(async (o) => (await storedLate, { ok: true, matchId: o.matchId, repeated: false }));
    const closes: number[] = [];
    site.alice.conn.close = (code: number) => void closes.push(code);
    alicePlays(site.alice, site.clock)([site.host], () => !site.host.ended);
    expect(site.host.ended).toBe(true);
    // Over but not stored yet, when another instance takes the home: what is in play stops, the rooms in their lobby close.
    site.lobby.stopSets();
    site.lobby.stopLobbies();
    expect(site.lobby.rooms.has(site.m.code)).toBe(true);
    release();
    await expect.poll(() => site.lobby.rooms.has(site.m.code)).toBe(false);
    expect(closes).toEqual([1012]);
    expect(site.lobby.botSeats).toBe(0);
  });

  it('holds its rooms again once it is the home again: a set ending then goes back to its lobby', async () => {
    const site = aliceAndBots(storing().store);
    site.lobby.stopLobbies();
    site.lobby.hold();
    alicePlays(site.alice, site.clock)([site.host], () => !site.host.ended);
    await expect.poll(() => site.alice.last('rover')).toBeDefined();
    await expect.poll(() => site.alice.sent.at(-1)).toMatchObject({ t: 'rroom', code: site.m.code, playing: false, you: 0 });
    expect(site.lobby.rooms.has(site.m.code)).toBe(true);
  });

  it('carries its terms and its maker\'s address: a ready from before the move for older terms readies nothing, and the maker\'s rooms still count', () => {
    const { code, rooms } = written();
    const room = rooms[0]!;
    // Made by socket()'s default address; bob's joining changed the terms once.
    expect(room).toMatchObject({ madeFrom: 'test', terms: 1 });
    const { lobby } = site();
    expect(lobby.takeUpLobby(room)).toBe(true);
    const b = socket(lobby, bob);
    b.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    expect(b.last('rroom')!.terms).toBe(1);
    b.say({ t: 'rready', code, ready: true, terms: 0 });
    expect(b.last('rroom')!.seats[1]!.ready).toBe(false);
    for (let i = 1; i < ROOM_LIMITS.roomsPerAddress; i++) socket(lobby, { userId: null, guestId: `more-${i}` }).say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: DEFAULT_HANDLING });
    const last = socket(lobby, { userId: null, guestId: 'one-too-many' });
    last.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: DEFAULT_HANDLING });
    expect(last.last('error')).toMatchObject({ code: 'rate_limited' });
  });
});
