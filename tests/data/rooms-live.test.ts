import { beforeEach, describe, expect, it } from 'vitest';
import { clientMessageSchema, type RoomMessage, type ServerMessage } from '@/lib/live/protocol';
import { RoomSession } from '@/lib/client/live/room-session';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { verifyRoomMatch } from '@/lib/server/versus/room-verify';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import { resetDb } from '@/tests/data/db';
import { player } from '@/tests/data/play';
import { bot, playTo, roomSite, rules, socket } from '@/tests/support/room-site';

beforeEach(resetDb);

type Sock = ReturnType<typeof socket>;
const H = DEFAULT_HANDLING;

/** A scripted browser in a room: it plays its seat at the room's clock each 100 ms, game after game. */
function seatPlayer(s: Sock, clock: { now: () => number }) {
  const st = { seq: 0, tick: 0, game: -1, t0: 0, seen: 0 };
  return {
    st,
    step(extra = {}) {
      const begins = s.of('rbegin');
      if (begins.length > st.seen) {
        const b = begins.at(-1)!;
        st.seen = begins.length;
        Object.assign(st, { seq: 0, tick: 0, game: b.game, t0: s.at[s.sent.indexOf(b)]! + b.startsInMs });
      }
      const m = s.last('rmatch');
      if (!m || st.game < 0) return;
      const tick = Math.floor(((clock.now() - st.t0) * 60) / 1000);
      if (tick > 0) playTo(s, m.matchId, st.game, st, tick, extra);
    },
  };
}

async function made(site: ReturnType<typeof roomSite>, name: string) {
  return socket(site.lobby, await player(name), site.clock.now);
}

describe('a live room with people in it', () => {
  it('one person and three bots over the socket to the result: every seat’s frames, deals never past the preview, KOs, the set stored and verified', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    // A time limit, so the set ends however well the bots keep their stacks down.
    alice.say({ t: 'rcreate', mode: 'battle', size: 4, rules: rules({ timeLimitTicks: 5 * 60 * 60 }), bots: [1, 2, 3].map((seat) => ({ seat, pps: 3, style: seat === 2 ? 'attacker' : 'tidy' })), handling: H });
    const code = alice.last('rroom')!.code;
    expect(alice.last('rroom')).toMatchObject({ you: 0, host: 0, playing: false });
    alice.say({ t: 'rstart', code });
    expect(alice.last('error')).toMatchObject({ code: 'not_eligible' });
    alice.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const m = alice.last('rmatch')!;
    expect(m).toMatchObject({ seat: 0, rulesVersion: 7, players: [{ guest: false }, { bot: { pps: 3 } }, { bot: {} }, { bot: {} }] });
    expect(alice.last('rbegin')!.pieces).toHaveLength(rules().preview + 2);
    const me = seatPlayer(alice, clock);
    const host = lobby.matches.get(m.matchId)!;
    for (let t = 0; t < 20 * 60_000 && !host.stored; t += 100) {
      clock.advance(100);
      me.step();
    }
    expect(await host.stored).toMatchObject({ ok: true });
    // Alice tops out first (a hard drop every half second stacks up the middle).
    expect(alice.of('rko')[0]).toMatchObject({ seat: 0, why: 'topOut' });
    expect(alice.last('rover')).toMatchObject({ matchId: m.matchId, stored: true });
    expect(alice.of('ack').length).toBeGreaterThan(10);
    // Every seat's field reached her, and no frame showed a piece past what she had been dealt.
    const framed = new Set(alice.of('rframes').flatMap((f) => f.seats.map((x) => x.seat)));
    expect([...framed].sort()).toEqual([0, 1, 2, 3]);
    let dealt = 0;
    for (const msg of alice.sent) {
      if (msg.t === 'rbegin') dealt = msg.pieces.length;
      if (msg.t === 'deal') dealt = Math.max(dealt, msg.from + msg.pieces.length);
      if (msg.t === 'rframes' && !alice.of('rko').some((k) => k.seat === 0 && alice.sent.indexOf(k) < alice.sent.indexOf(msg))) expect(msg.from + msg.pieces.length).toBeLessThanOrEqual(dealt);
    }
    const db = await getDb();
    const stored = await db.roomSeat.findMany({ where: { matchId: m.matchId }, orderBy: { seat: 'asc' } });
    expect(stored.map((x) => [x.userId !== null, x.botPps])).toEqual([[true, null], [false, 3], [false, 3], [false, 3]]);
    // She is still here: the room goes back to its lobby for another set.
    expect(lobby.matches.size).toBe(0);
    expect(alice.last('rroom')).toMatchObject({ code, playing: false });
  });

  it('leaving, dropping and rejoining: a dropped seat is out after the lag bound, takes its seat up with its token for the next game, and the room closes unstored when the last person leaves', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    const watcher = await made(site, 'watcher');
    alice.say({ t: 'rcreate', mode: 'battle', size: 3, rules: rules({ firstTo: 2 }), bots: [{ seat: 1, pps: 4, style: 'attacker' }, { seat: 2, pps: 2, style: 'tidy' }], handling: H });
    const code = alice.last('rroom')!.code;
    watcher.say({ t: 'rwatch', code });
    alice.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const m = alice.last('rmatch')!;
    const me = seatPlayer(alice, clock);
    for (let t = 0; t < 5_000; t += 100) {
      clock.advance(100);
      me.step();
    }
    lobby.closed(alice.conn);
    // Not back within the lag bound: out of this game, the room plays on.
    clock.advance(ROOM_LIMITS.maxLagMs + 500);
    expect(watcher.of('rko')).toContainEqual(expect.objectContaining({ seat: 0, why: 'lag' }));
    const host = lobby.matches.get(m.matchId)!;
    expect(host.match.current.isOut(0)).toBe(true);
    expect(watcher.of('rframes').length).toBeGreaterThan(0);
    // A stranger's token takes nothing up; the seat's own does, on a new socket.
    const again = socket(lobby, alice.conn.owner, clock.now);
    again.say({ t: 'rresume', matchId: m.matchId, token: 'x'.repeat(24) });
    expect(again.last('error')).toMatchObject({ code: 'resume_failed' });
    again.say({ t: 'rresume', matchId: m.matchId, token: m.resumeToken! });
    expect(again.last('rresumed')).toMatchObject({ matchId: m.matchId, game: 0, playing: false });
    // The two bots settle game 0 between them; alice plays game 1 from its start.
    const back = seatPlayer(again, clock);
    for (let t = 0; t < 30 * 60_000 && again.of('rbegin').length === 0; t += 100) clock.advance(100);
    expect(again.last('rbegin')).toMatchObject({ game: 1 });
    for (let t = 0; t < 6_000; t += 100) {
      clock.advance(100);
      back.step();
    }
    expect(host.match.current.game(0).stats().pieces).toBeGreaterThan(3);
    expect(again.of('error')).toHaveLength(1);
    // She leaves: nobody is left to play for, the room closes and nothing is stored.
    again.say({ t: 'rleave', code });
    expect(watcher.last('rclosed')).toMatchObject({ code, reason: 'empty' });
    expect(lobby.matches.size).toBe(0);
    expect(lobby.rooms.size).toBe(0);
    expect(await (await getDb()).roomMatch.count()).toBe(0);
  });
});

describe('what a modified browser can ask of a room', () => {
  it('a stall of the server itself puts no one out for lag: each stream is excused the time our stall probe ran late', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    alice.say({ t: 'rcreate', mode: 'battle', size: 3, rules: rules({ firstTo: 1, timeLimitTicks: 5 * 60 * 60 }), bots: [{ seat: 1, pps: 1, style: 'tidy' }, { seat: 2, pps: 1, style: 'tidy' }], handling: H });
    const code = alice.last('rroom')!.code;
    alice.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const m = alice.last('rmatch')!;
    const me = seatPlayer(alice, clock);
    const play = (ms: number) => {
      for (let t = 0; t < ms; t += 100) {
        clock.advance(100);
        me.step();
      }
    };
    const lagged = () => alice.of('rko').filter((k) => k.seat === 0 && k.why === 'lag');
    play(4_000);
    // The process stalls past the lag bound; the room's beat runs first, then alice's batch is read.
    clock.stall(ROOM_LIMITS.maxLagMs + 500);
    me.step();
    play(500);
    expect(lagged()).toEqual([]);
    expect(lobby.matches.get(m.matchId)!.match.current.isOut(0)).toBe(false);
    // A stream that really stops is still judged, by its own time: the stall is excused, nothing more.
    clock.stall(ROOM_LIMITS.maxLagMs + 500);
    clock.advance(ROOM_LIMITS.maxLagMs - 500);
    expect(lagged()).toEqual([]);
    clock.advance(1_000);
    expect(lagged()).toHaveLength(1);
  });

  it('the game starts on its clock, not on the beat after it: a first batch that arrives in between is taken', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    alice.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules({ timeLimitTicks: 5 * 60 * 60 }), bots: [{ seat: 1, pps: 1, style: 'tidy' }], handling: H });
    const code = alice.last('rroom')!.code;
    alice.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const m = alice.last('rmatch')!;
    const me = seatPlayer(alice, clock);
    // A long task of 70 ms (well under STALL_MS) runs a beat late and moves the beats after it off
    // the clock's start: the last of the countdown comes 30 ms before it, the next 20 ms after.
    clock.advance(1_000);
    clock.stall(70);
    // The first tick's batch arrives 17 ms into the game, between the two.
    clock.advance(ROOM_LIMITS.countdownMs - 1_070 + 17);
    me.step();
    expect(alice.of('error')).toEqual([]);
    expect(alice.last('ack')).toMatchObject({ seq: 1, tick: 1 });
    for (let t = 0; t < ROOM_LIMITS.maxLagMs + 1_000; t += 100) {
      clock.advance(100);
      me.step();
    }
    expect(alice.of('rko')).toEqual([]);
    expect(lobby.matches.get(m.matchId)!.match.current.isOut(0)).toBe(false);
  });

  it('a batch lost on the way (unread past the message budget) costs the browser\'s seat nothing: its room session sends it again', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    // The page's own session, each way through the wire's JSON; `lose` batches vanish on the way.
    let lose = 0;
    let heard = 0;
    const page = new RoomSession({
      via: { send: (m) => ((m.t === 'inputs' && lose > 0 ? lose-- : alice.say(m as RoomMessage)), true), link: 'open' },
      onView: () => {},
      onGame: () => {},
      now: clock.now,
    });
    const deliver = () => {
      while (heard < alice.sent.length) page.hear(JSON.parse(JSON.stringify(alice.sent[heard++])) as ServerMessage);
    };
    page.create({ mode: 'battle', size: 2, rules: rules({ timeLimitTicks: 5 * 60 * 60 }), bots: [{ seat: 1, pps: 1, style: 'tidy' }] }, H);
    deliver();
    page.ready(true);
    page.start();
    deliver();
    const m = alice.last('rmatch')!;
    const t0 = alice.at[alice.sent.indexOf(alice.last('rbegin')!)]! + alice.last('rbegin')!.startsInMs;
    const host = lobby.matches.get(m.matchId)!;
    // The page's frames: its game played to the room's clock, a batch every 100 ms.
    const frames = (ms: number) => {
      for (let t = 0; t < ms; t += 100) {
        clock.advance(100);
        deliver();
        if (clock.now() < t0) continue;
        page.started();
        const tick = Math.floor(((clock.now() - t0) * 60) / 1000);
        for (let g = page.seat.game; g && g.tickNo < tick; g = page.seat.game) {
          const before = g.tickNo;
          page.seat.step([]);
          if (page.seat.game === g && g.tickNo === before) break; // waiting for pieces, or decided
        }
        page.pump(clock.now());
        deliver();
      }
    };
    frames(ROOM_LIMITS.countdownMs + 2_000);
    expect(host.seats[0]!.sentTick).toBeGreaterThan(100);
    lose = 1;
    frames(ROOM_LIMITS.maxLagMs + 3_000);
    expect(alice.of('error').filter((e) => e.code === 'out_of_order').length).toBeGreaterThan(0);
    expect(alice.of('rko')).toEqual([]);
    expect(host.match.current.isOut(0)).toBe(false);
    // The server's copy of her game is where the room's clock is, give or take a batch in flight.
    expect(Math.floor(((clock.now() - t0) * 60) / 1000) - host.seats[0]!.sentTick).toBeLessThan(12);
  });

  it('target changes: a teammate, itself, or under another rule refuse the whole batch; a seat already out is dropped; a good one is in the replay', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    const bob = await made(site, 'bob');
    alice.say({ t: 'rcreate', mode: 'battle', size: 4, rules: rules({ targeting: 'manual', teams: [0, 1, 0, 1] }), bots: [{ seat: 2, pps: 1, style: 'tidy' }, { seat: 3, pps: 1, style: 'tidy' }], handling: H });
    const code = alice.last('rroom')!.code;
    bob.say({ t: 'rjoin', code, handling: H });
    expect(bob.last('rroom')).toMatchObject({ you: 1 });
    for (const s of [alice, bob]) s.say({ t: 'rready', code, ready: true });
    bob.say({ t: 'rstart', code });
    expect(bob.last('error')).toMatchObject({ code: 'not_room_host' });
    alice.say({ t: 'rstart', code });
    const m = alice.last('rmatch')!;
    const host = lobby.matches.get(m.matchId)!;
    const [a, b] = [seatPlayer(alice, clock), seatPlayer(bob, clock)];
    clock.advance(ROOM_LIMITS.countdownMs + 1_000);
    b.step();
    const acks = alice.of('ack').length;
    for (const [target, why] of [[2, 'teammate'], [0, 'seat 0'], [7, 'seat 7']] as const) {
      const before = { ...a.st };
      a.step({ targets: [[a.st.tick, target]] });
      expect(alice.last('error')!.message).toContain(why);
      Object.assign(a.st, before); // nothing was taken: the same batch number again
    }
    expect(alice.of('ack')).toHaveLength(acks);
    expect(host.seats[0]!.sentTick).toBe(0);
    a.step({ targets: [[a.st.tick, 3]] });
    expect(alice.of('ack')).toHaveLength(acks + 1);
    clock.advance(100);
    b.step();
    // Bob leaves; alice's change naming him (she had not seen it yet) is dropped, her inputs are played.
    bob.say({ t: 'rleave', code });
    expect(host.match.current.isOut(1)).toBe(true);
    clock.advance(100);
    a.step({ targets: [[a.st.tick, 1]] });
    expect(alice.of('ack')).toHaveLength(acks + 2);
    clock.advance(500);
    a.step();
    expect(alice.of('error').filter((e) => e.code === 'bad_inputs')).toHaveLength(3);
    expect(host.match.current.replay(0).room!.targets).toEqual([{ tick: expect.any(Number), target: 3 }]);
    // Under any rule but manual, no target change at all.
    const site2 = roomSite();
    const c2 = site2.clock;
    const carol = await made(site2, 'carol');
    carol.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [{ seat: 1, pps: 1, style: 'tidy' }], handling: H });
    carol.say({ t: 'rready', code: carol.last('rroom')!.code, ready: true });
    carol.say({ t: 'rstart', code: carol.last('rroom')!.code });
    c2.advance(ROOM_LIMITS.countdownMs + 500);
    seatPlayer(carol, c2).step({ targets: [[0, 1]] });
    expect(carol.last('error')).toMatchObject({ code: 'bad_inputs', message: expect.stringContaining('manual') });
  });

  it('inputs for another seat, another match, ahead of the clock; a second room on one socket; oversized rooms and too many bots', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    alice.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [{ seat: 1, pps: 2, style: 'tidy' }], handling: H });
    const code = alice.last('rroom')!.code;
    alice.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const m = alice.last('rmatch')!;
    clock.advance(ROOM_LIMITS.countdownMs + 1_000);
    // A socket with no seat in the match cannot play one: the seat is the socket's, never the message's.
    const mallory = await made(site, 'mallory');
    mallory.say({ t: 'inputs', stream: m.matchId, game: 0, seq: 1, tick: 30, events: [] });
    expect(mallory.last('error')).toMatchObject({ code: 'not_your_match' });
    mallory.say({ t: 'inputs', stream: 'nosuchmatch1', game: 0, seq: 1, tick: 30, events: [] });
    expect(mallory.last('error')).toMatchObject({ code: 'unknown_match' });
    mallory.say({ t: 'rjoin', code, handling: H });
    expect(mallory.last('error')).toMatchObject({ code: 'room_full' });
    // One room per socket.
    alice.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: H });
    expect(alice.last('error')).toMatchObject({ code: 'already_playing' });
    // Ahead of the room's clock.
    alice.say({ t: 'inputs', stream: m.matchId, game: 0, seq: 1, tick: 60 * 60, events: [] });
    expect(alice.last('error')).toMatchObject({ code: 'ahead_of_clock' });
    expect(lobby.matches.get(m.matchId)!.seats[0]!.sentTick).toBe(0);
    // Oversized: refused by the schema both sides parse, before the lobby sees it.
    const parse = (x: object) => clientMessageSchema.safeParse({ t: 'rcreate', mode: 'battle', handling: H, bots: [], rules: rules(), size: 4, ...x }).success;
    expect(parse({})).toBe(true);
    expect(parse({ size: 17, rules: rules() })).toBe(false);
    expect(parse({ size: 1 })).toBe(false);
    expect(parse({ bots: Array.from({ length: 16 }, (_, i) => ({ seat: i + 1, pps: 3, style: 'tidy' })), size: 16 })).toBe(false);
    expect(parse({ bots: [{ seat: 0, pps: 3, style: 'tidy' }] })).toBe(false);
    expect(parse({ bots: [{ seat: 1, pps: 6, style: 'tidy' }] })).toBe(false);
    expect(parse({ rules: rules({ teams: [0, 1] }) })).toBe(false);
    expect(clientMessageSchema.safeParse({ t: 'inputs', stream: m.matchId, game: 0, seq: 1, tick: 30, events: [], targets: Array.from({ length: 17 }, (_, i) => [i, 1]) }).success).toBe(false);
    // Messy rooms are for bots alone; and the instance's bot seats are bounded.
    const bob = await made(site, 'bob');
    bob.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules({ messiness: 30 }), bots: [], handling: H });
    expect(bob.last('error')).toMatchObject({ code: 'bad_message' });
    while (lobby.botSeats + 15 <= ROOM_LIMITS.botSeatsPerInstance) lobby.playNow({ mode: 'battle', rules: rules(), seats: Array.from({ length: 15 }, () => bot({ pps: 1, style: 'tidy' })) });
    bob.say({ t: 'rcreate', mode: 'battle', size: 16, rules: rules(), bots: Array.from({ length: 15 }, (_, i) => ({ seat: i + 1, pps: 1, style: 'tidy' })), handling: H });
    expect(bob.last('error')).toMatchObject({ code: 'rate_limited' });
    expect(verifyRoomMatch).toBeTypeOf('function');
  });
});

describe('rooms that would outlive their people, and seats played twice', () => {
  it('a room whose people have all gone closes within ROOM_LIMITS.emptyCloseMs: its bots stop and their budget is freed', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    const watcher = await made(site, 'watcher');
    // Games that end at once in a draw and are replayed: without the rule, this set never ends.
    alice.say({ t: 'rcreate', mode: 'battle', size: 3, rules: rules({ firstTo: 7, timeLimitTicks: 60 }), bots: [{ seat: 1, pps: 5, style: 'tidy' }, { seat: 2, pps: 5, style: 'tidy' }], handling: H });
    const code = alice.last('rroom')!.code;
    watcher.say({ t: 'rwatch', code });
    alice.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    expect(lobby.botSeats).toBe(2);
    lobby.closed(alice.conn);
    for (let t = 0; t < 10 * 60_000 && lobby.rooms.size > 0; t += 100) clock.advance(100);
    expect(lobby.rooms.size).toBe(0);
    expect(lobby.matches.size).toBe(0);
    expect(lobby.botSeats).toBe(0);
    expect(watcher.last('rclosed')).toMatchObject({ code, reason: 'empty' });
    expect(await (await getDb()).roomMatch.count()).toBe(0);
  });

  it('a seat taken up on a new socket is played from there only, and only by its own player', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    alice.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [{ seat: 1, pps: 1, style: 'tidy' }], handling: H });
    const code = alice.last('rroom')!.code;
    alice.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const m = alice.last('rmatch')!;
    clock.advance(ROOM_LIMITS.countdownMs + 500);
    // Another account holding alice's token (handed over, or a banned player signed in afresh) takes nothing up.
    const mallory = await made(site, 'mallory');
    mallory.say({ t: 'rresume', matchId: m.matchId, token: m.resumeToken! });
    expect(mallory.last('error')).toMatchObject({ code: 'resume_failed' });
    // Her own second tab takes the seat up; the first socket, still open, is told so and no longer plays it.
    const tab = socket(lobby, alice.conn.owner, clock.now);
    tab.say({ t: 'rresume', matchId: m.matchId, token: m.resumeToken! });
    expect(tab.last('rresumed')).toMatchObject({ matchId: m.matchId });
    expect(alice.last('error')).toMatchObject({ code: 'seat_taken', gameId: m.matchId });
    expect(tab.last('error')).toBeUndefined();
    alice.say({ t: 'inputs', stream: m.matchId, game: 0, seq: 1, tick: 20, events: [] });
    expect(alice.last('error')).toMatchObject({ code: 'not_your_match' });
    tab.say({ t: 'inputs', stream: m.matchId, game: 0, seq: 1, tick: 20, events: [] });
    expect(tab.last('ack')).toMatchObject({ seq: 1, tick: 20 });
  });
});

describe('room sets started per hour', () => {
  it('a player may start ROOM_LIMITS.startsPerHour.player sets an hour: each is a stored match, so starting and leaving in a loop is refused past it', async () => {
    const site = roomSite();
    const { clock, lobby } = site;
    const alice = await made(site, 'alice');
    const open = () => {
      alice.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [{ seat: 1, pps: 1, style: 'tidy' }], handling: H });
      const code = alice.last('rroom')!.code;
      alice.say({ t: 'rready', code, ready: true });
      alice.say({ t: 'rstart', code });
      return code;
    };
    for (let i = 0; i < ROOM_LIMITS.startsPerHour.player; i++) {
      const code = open();
      expect(lobby.matches.size).toBe(1);
      alice.say({ t: 'rleave', code });
      expect(lobby.rooms.size).toBe(0);
    }
    const code = open();
    expect(alice.last('error')).toMatchObject({ code: 'rate_limited' });
    expect(lobby.matches.size).toBe(0);
    alice.say({ t: 'rleave', code });
    // An hour on, the budget is whole again.
    clock.advance(3_600_000);
    open();
    expect(lobby.matches.size).toBe(1);
  });
});

describe('watching rooms', () => {
  it('a socket watches at most ROOM_LIMITS.watchesPerConnection rooms at once', async () => {
    const site = roomSite();
    const { lobby } = site;
    const codes: string[] = [];
    for (let i = 0; i <= ROOM_LIMITS.watchesPerConnection; i++) {
      const host = await made(site, `host${i}`);
      host.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: H });
      codes.push(host.last('rroom')!.code);
    }
    const eve = await made(site, 'eve');
    for (const code of codes.slice(0, -1)) eve.say({ t: 'rwatch', code });
    expect(eve.of('error')).toHaveLength(0);
    expect(eve.of('rroom')).toHaveLength(ROOM_LIMITS.watchesPerConnection);
    eve.say({ t: 'rwatch', code: codes.at(-1)! });
    expect(eve.last('error')).toMatchObject({ code: 'rate_limited' });
    // Letting one go makes room for another.
    eve.say({ t: 'runwatch', code: codes[0]! });
    eve.say({ t: 'rwatch', code: codes.at(-1)! });
    expect(eve.of('rroom')).toHaveLength(ROOM_LIMITS.watchesPerConnection + 1);
    expect(lobby.rooms.size).toBe(codes.length);
  });
});
