import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, keyId } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import type { WireEvent } from '@/lib/live/wire';
import { RoomHost, type RoomHostOptions } from '@/lib/server/live/rooms/room-host';
import { parseRoomCheckpoint, RoomRestoreError, type RoomCheckpoint } from '@/lib/server/live/rooms/room-checkpoint';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import { aliceAndBots, alicePlays, roomSite, rules, socket, storing } from '@/tests/support/room-site';
import { stallProbe } from '@/tests/support/stall-probe';

// A room's set rebuilt from its checkpoint (room-checkpoint.ts), beside the host it was written
// from: fed the same batches on the same clock, the two store the same set.

/** What a checkpoint says of the set itself, not when it was written. */
const setOf = (cp: RoomCheckpoint) => ({ ...cp, writtenAt: 0 });

function restoreBeside(site: ReturnType<typeof aliceAndBots>, store: RoomHostOptions['store']) {
  const cp = parseRoomCheckpoint(JSON.stringify(site.host.checkpoint()));
  if (!cp.ok) throw new Error(cp.message);
  const restored = RoomHost.restore(cp.checkpoint, { now: site.clock.now, timers: site.clock.timers, stalls: stallProbe(site.clock.now, site.clock.timers), store });
  const got: ServerMessage[] = [];
  expect(restored.resume(site.m.resumeToken!, { send: (m) => void got.push(m) }, site.alice.conn.owner)).toBe(0);
  return { cp: cp.checkpoint, restored, got };
}

/**
 * Every seat's inputs as a page holds them from the frames it was sent (RoomFields): a catch-up
 * (`all`) replaces what it held, other frames add to it.
 */
function fieldsOf(got: readonly ServerMessage[], matchId: string, game: number): WireEvent[][] {
  let seats: WireEvent[][] = [];
  for (const m of got) {
    if (m.t !== 'rframes' || m.matchId !== matchId || m.game !== game) continue;
    if (m.all) seats = [];
    for (const f of m.seats) (seats[f.seat] ??= []).push(...f.events);
  }
  return seats;
}

/** Each seat's field as the page holds it is the start of that seat's game on the host: nothing twice, nothing missed. */
function expectFieldsOf(host: RoomHost, got: readonly ServerMessage[]) {
  const seen = fieldsOf(got, host.matchId, host.gameIndex);
  host.seats.forEach((seat, s) => {
    const log = seat.stream.stream.log.wire();
    expect(seen[s]?.length ?? 0, `seat ${s}`).toBeGreaterThan(0);
    expect(seen[s], `seat ${s}`).toEqual(log.slice(0, seen[s]!.length));
  });
}

describe('a page back in its room set', () => {
  it('to the same host after a drop: it is sent every field from its start, and the frames after follow it', () => {
    const site = aliceAndBots(storing().store);
    const plays = alicePlays(site.alice, site.clock);
    plays([site.host], () => site.alice.of('rbegin').length < 1);
    plays([site.host], () => true, 6_000);
    site.lobby.closed(site.alice.conn);
    site.clock.advance(1_000);
    // Someone else's socket (another account) with her token, and her own with a made-up one: no catch-up of her set.
    const stranger = socket(site.lobby, { userId: 'mallory', guestId: null }, site.clock.now);
    stranger.say({ t: 'rresume', matchId: site.m.matchId, token: site.m.resumeToken! });
    const guess = socket(site.lobby, site.alice.conn.owner, site.clock.now);
    guess.say({ t: 'rresume', matchId: site.m.matchId, token: 'x'.repeat(24) });
    for (const s of [stranger, guess]) expect(s.sent.map((m) => m.t)).toEqual(['error']);
    const back = socket(site.lobby, site.alice.conn.owner, site.clock.now);
    back.say({ t: 'rresume', matchId: site.m.matchId, token: site.m.resumeToken! });
    expect(back.last('rresumed')).toBeDefined();
    // The catch-up shows no piece past those she was dealt (the most any frame may show).
    const all = back.of('rframes').find((f) => f.all)!;
    expect(all.from + all.pieces.length).toBeLessThanOrEqual(site.host.seats[0]!.stream.stream.dealt.length);
    // A second resume on the socket already seated costs nothing: refused, no second catch-up.
    back.say({ t: 'rresume', matchId: site.m.matchId, token: site.m.resumeToken! });
    expect(back.of('rframes').filter((f) => f.all)).toHaveLength(1);
    site.clock.advance(1_000);
    expectFieldsOf(site.host, back.sent);
  });

  it('to a host rebuilt from its checkpoint: the same, though the frames before it were sent by another', () => {
    const site = aliceAndBots(storing().store);
    const plays = alicePlays(site.alice, site.clock);
    plays([site.host], () => site.alice.of('rbegin').length < 1);
    plays([site.host], () => true, 6_000);
    const { restored, got } = restoreBeside(site, storing().store);
    plays([site.host, restored], () => true, 1_500);
    expectFieldsOf(restored, got);
  });

  it('a watcher coming in mid-game: the same', () => {
    const site = aliceAndBots(storing().store);
    const plays = alicePlays(site.alice, site.clock);
    plays([site.host], () => site.alice.of('rbegin').length < 1);
    plays([site.host], () => true, 6_030);
    const watcher = socket(site.lobby, { userId: 'bob', guestId: null }, site.clock.now);
    watcher.say({ t: 'rwatch', code: site.m.code });
    plays([site.host], () => true, 1_500);
    expectFieldsOf(site.host, watcher.sent);
  });
});

describe('a room set rebuilt from its checkpoint', () => {
  it('mid-game in its second game: the same set as the host it was written from, played on beside it to the same stored result', async () => {
    const a = storing();
    const b = storing();
    const site = aliceAndBots(a.store);
    const plays = alicePlays(site.alice, site.clock);
    plays([site.host], () => site.alice.of('rbegin').length < 2);
    plays([site.host], () => true, 15_000);
    expect(site.host.gameIndex).toBe(1);
    const { cp, restored, got } = restoreBeside(site, b.store);
    expect(cp.phase).toBe('playing');
    // Rebuilt, it writes the very checkpoint it was made from: every game, seat, garbage row and piece dealt.
    expect(setOf(restored.checkpoint())).toEqual(setOf(cp));
    expect(got.find((m) => m.t === 'rresumed')).toMatchObject({ game: 1, lastSeq: cp.state[0]!.lastSeq, playing: !site.host.match.current.isOut(0) });
    plays([site.host, restored], () => !(site.host.stored && restored.stored));
    expect(await restored.stored).toMatchObject({ ok: true });
    expect(b.records).toHaveLength(1);
    expect(b.records[0]).toEqual(a.records[0]);
    expect(got.find((m) => m.t === 'rover')).toMatchObject({ matchId: site.m.matchId, stored: true });
  });

  it('at any moment of a set, every 7 s to its end: the host rebuilt writes back the checkpoint it was made from', async () => {
    const site = aliceAndBots(storing().store);
    const plays = alicePlays(site.alice, site.clock);
    const phases = new Set<string>();
    let restores = 0;
    for (let t = 0; t < 30 * 60_000 && !site.host.stored; t += 7_000) {
      plays([site.host], () => true, 7_000);
      if (site.host.ended) break;
      const cp = site.host.checkpoint();
      phases.add(cp.phase);
      const again = RoomHost.restore(structuredClone(cp), { now: site.clock.now, timers: { set: () => 0, clear: () => {} } });
      expect(setOf(again.checkpoint()), `at ${site.clock.now()} ms, ${cp.phase}`).toEqual(setOf(cp));
      restores++;
    }
    expect(restores).toBeGreaterThan(10);
    expect(phases).toContain('playing');
  });

  it('between games: the next game begins on the restored host when it would have', async () => {
    const a = storing();
    const b = storing();
    const site = aliceAndBots(a.store);
    const plays = alicePlays(site.alice, site.clock);
    plays([site.host], () => site.alice.of('rgame').length === 0);
    const { cp, restored, got } = restoreBeside(site, b.store);
    expect(cp).toMatchObject({ phase: 'between', games: [{ decided: { winner: expect.any(Number) } }] });
    expect(setOf(restored.checkpoint())).toEqual(setOf(cp));
    plays([site.host, restored], () => !(site.host.stored && restored.stored));
    await restored.stored;
    expect(b.records[0]).toEqual(a.records[0]);
    const begun = got.filter((m) => m.t === 'rbegin');
    expect(begun[0]).toMatchObject({ game: 1 });
  });

  it('a stall of ours already excused stays excused: the restored host puts nobody out for lag the other did not', async () => {
    const site = aliceAndBots(storing().store);
    const plays = alicePlays(site.alice, site.clock);
    plays([site.host], () => true, 4_000);
    // The process stalls past the lag bound: the beat runs late and excuses it; the checkpoint is
    // written before Alice's batch from meanwhile is read, while her stream trails by the stall.
    site.clock.stall(ROOM_LIMITS.maxLagMs + 500);
    const { restored, got } = restoreBeside(site, storing().store);
    // A beat of each host (which judges her lag) before her batch is read.
    site.clock.advance(60);
    plays([site.host, restored], () => true, 0);
    plays([site.host, restored], () => true, 1_000);
    const lagged = (messages: ServerMessage[]) => messages.filter((m) => m.t === 'rko' && m.why === 'lag');
    expect(lagged(site.alice.sent)).toEqual([]);
    expect(lagged(got)).toEqual([]);
    expect(setOf(restored.checkpoint())).toEqual(setOf(site.host.checkpoint()));
  });

  it('target changes read past a seat’s leave (the referee held its ticks) are written and rebuilt as read', async () => {
    const site = roomSite(storing().store);
    const [alice, bob] = [socket(site.lobby, { userId: 'alice', guestId: null }, site.clock.now), socket(site.lobby, { userId: 'bob', guestId: null }, site.clock.now)];
    alice.say({ t: 'rcreate', mode: 'battle', size: 3, rules: rules({ targeting: 'manual', firstTo: 2 }), bots: [{ seat: 2, pps: 1, style: 'tidy' }], handling: DEFAULT_HANDLING });
    const code = alice.last('rroom')!.code;
    bob.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    for (const p of [alice, bob]) p.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const m = alice.last('rmatch')!;
    const host = site.lobby.matches.get(m.matchId)!;
    site.clock.advance(3_500);
    // Alice runs ahead of Bob (the referee holds her ticks) aiming at the bot, then leaves: her ticks are dropped, her changes were read.
    expect(host.inputs(0, { game: 0, seq: 1, tick: 20, events: [], targets: [[10, 2]] })).toBeNull();
    alice.say({ t: 'rleave', code });
    const cp1 = host.checkpoint();
    expect(cp1.games[0]!.seats[0]!.targets).toEqual([[10, 2]]);
    const again = RoomHost.restore(structuredClone(cp1), { now: site.clock.now, timers: site.clock.timers });
    expect(setOf(again.checkpoint())).toEqual(setOf(cp1));
  });

  it('in a countdown after a leave: the walkover waits out its countdown, and ends on the restored host as on the other', async () => {
    const site = roomSite(storing().store);
    const [alice, bob] = [socket(site.lobby, { userId: 'alice', guestId: null }, site.clock.now), socket(site.lobby, { userId: 'bob', guestId: null }, site.clock.now)];
    alice.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules({ firstTo: 2 }), bots: [], handling: DEFAULT_HANDLING });
    const code = alice.last('rroom')!.code;
    bob.say({ t: 'rjoin', code, handling: DEFAULT_HANDLING });
    for (const p of [alice, bob]) p.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const host = site.lobby.matches.get(alice.last('rmatch')!.matchId)!;
    site.clock.advance(1_000);
    bob.say({ t: 'rleave', code });
    const cp = parseRoomCheckpoint(JSON.stringify(host.checkpoint()));
    if (!cp.ok) throw new Error(cp.message);
    expect(cp.checkpoint).toMatchObject({ phase: 'countdown', games: [{ decided: { winner: 0 }, leaves: [[1, 0]] }] });
    const restored = RoomHost.restore(cp.checkpoint, { now: site.clock.now, timers: site.clock.timers, store: storing().store });
    expect(setOf(restored.checkpoint())).toEqual(setOf(cp.checkpoint));
    site.clock.advance(3_000);
    expect(restored.checkpoint()).toMatchObject({ phase: 'between', games: [{ decided: { winner: 0 } }] });
    expect(host.checkpoint()).toMatchObject({ phase: 'between' });
  });

  it('refuses a checkpoint that does not replay to what it says: a bot’s input, a seat’s garbage or deals, a decided game’s end or length', () => {
    const site = aliceAndBots(storing().store);
    const plays = alicePlays(site.alice, site.clock);
    plays([site.host], () => site.alice.of('rbegin').length < 2);
    // Past game 1's countdown, a few ticks into its first pieces: the slowest bot (seat 3, 2 a second) is placing its first, so it chooses every input again.
    plays([site.host], () => true, ROOM_LIMITS.betweenGamesMs + 200);
    const cp = site.host.checkpoint();
    expect(cp.games[1]!.seats[3]!.ticks).toBeGreaterThan(0);
    const options = { now: site.clock.now, timers: site.clock.timers };
    const forged = (change: (cp: RoomCheckpoint) => void) => {
      const copy = structuredClone(cp);
      change(copy);
      return () => RoomHost.restore(copy, options);
    };
    expect(() => RoomHost.restore(structuredClone(cp), options)).not.toThrow();
    expect(forged((c) => void c.games[1]!.seats[3]!.events.unshift([0, keyId('hold'), 1]))).toThrow(/did not play tick 0/);
    expect(forged((c) => void c.games[1]!.seats[1]!.joins!.push([1, 1, 0]))).toThrow(RoomRestoreError);
    expect(forged((c) => void (c.games[0]!.decided!.tick += 1))).toThrow(RoomRestoreError);
    expect(forged((c) => void (c.games[1]!.seats[0]!.dealt! += 1))).toThrow(RoomRestoreError);
    expect(forged((c) => void delete c.games[1]!.seats[0]!.joins)).toThrow(RoomRestoreError);
    // A decided game is written back exactly: ticks or inputs past its end are not the game played.
    expect(forged((c) => void (c.games[0]!.seats[1]!.ticks += 600))).toThrow(RoomRestoreError);
  });
});
