import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { clientMessageSchema } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import { resetDb } from '@/tests/data/db';
import { player } from '@/tests/data/play';
import { bot, playTo, roomSite, rules, socket } from '@/tests/support/room-site';

beforeEach(resetDb);

const H = DEFAULT_HANDLING;
type Site = ReturnType<typeof roomSite>;
type Sock = ReturnType<typeof socket>;

const who = (x: { player: { bot?: unknown } | null }) => (x.player === null ? null : x.player.bot ? 'bot' : 'person');
const made = async (site: Site, name: string) => socket(site.lobby, await player(name), site.clock.now);

/** Alice's room of `size` with a bot on each seat of `bots`, and the people given joined in order. */
async function room(site: Site, size: number, bots: number[], names: string[], o = rules()) {
  const alice = await made(site, 'alice');
  alice.say({ t: 'rcreate', mode: 'battle', size, rules: o, bots: bots.map((seat) => ({ seat, pps: 2, style: 'tidy' })), handling: H });
  const code = alice.last('rroom')!.code;
  const others: Sock[] = [];
  for (const name of names) {
    const s = await made(site, name);
    s.say({ t: 'rjoin', code, handling: H });
    others.push(s);
  }
  return { alice, code, others };
}

/** Every person plays their seat at the room's clock until the set is stored (a time limit ends each game). */
async function playSet(site: Site, people: Sock[], matchId: string) {
  const host = site.lobby.matches.get(matchId)!;
  const st = people.map(() => ({ seq: 0, tick: 0 }));
  for (let t = 0; t < 10 * 60_000 && !host.stored; t += 100) {
    site.clock.advance(100);
    const begin = people[0]!.last('rbegin')!;
    const tick = Math.floor(((site.clock.now() - ROOM_LIMITS.countdownMs) * 60) / 1000);
    if (begin.game === 0 && tick > 0) people.forEach((p, i) => host.match.current.isOut(host.seats.findIndex((x) => x.stream.link === p.conn)) || playTo(p, matchId, 0, st[i]!, tick));
  }
  return host.stored;
}

describe('rooms one address makes', () => {
  it('are bounded while open: past ROOM_LIMITS.roomsPerAddress the next is refused, another address is not, and a room closed frees its place', () => {
    const site = roomSite();
    const from = (i: number, address: string) => socket(site.lobby, { userId: null, guestId: `made-${address}-${i}` }, site.clock.now, { address });
    const make = (s: Sock) => s.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: H });
    const mine = Array.from({ length: ROOM_LIMITS.roomsPerAddress + 1 }, (_, i) => from(i, '198.51.100.1'));
    mine.forEach(make);
    expect(mine.filter((s) => s.last('rroom')).length).toBe(ROOM_LIMITS.roomsPerAddress);
    const refused = mine.at(-1)!;
    expect(refused.last('error')).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('one address') });
    const theirs = from(0, '198.51.100.2');
    make(theirs);
    expect(theirs.last('rroom')).toBeDefined();
    mine[0]!.say({ t: 'rleave', code: mine[0]!.last('rroom')!.code });
    make(refused);
    expect(refused.last('rroom')).toBeDefined();
  });
});

describe('the room host’s chair', () => {
  it('kicks a person (told, and not let back in), kicks a bot, hands the chair over; nobody else may', async () => {
    const site = roomSite();
    const { alice, code, others } = await room(site, 4, [3], ['bob', 'carol']);
    const [bob, carol] = others as [Sock, Sock];
    expect(alice.last('rroom')!.seats.map(who)).toEqual(['person', 'person', 'person', 'bot']);
    bob.say({ t: 'rkick', code, seat: 2 });
    expect(bob.last('error')).toMatchObject({ code: 'not_room_host' });
    alice.say({ t: 'rkick', code, seat: 0 });
    expect(alice.last('error')).toMatchObject({ code: 'bad_message' });
    alice.say({ t: 'rkick', code, seat: 1 });
    expect(bob.last('rclosed')).toMatchObject({ code, reason: 'kicked' });
    expect(alice.last('rroom')!.seats[1]!.player).toBeNull();
    // Not back into this room under the same account, even on a new socket; free to play elsewhere.
    bob.say({ t: 'rjoin', code, handling: H });
    expect(bob.last('error')).toMatchObject({ code: 'not_eligible' });
    const bob2 = socket(site.lobby, bob.conn.owner, site.clock.now);
    bob2.say({ t: 'rjoin', code, handling: H });
    expect(bob2.last('error')).toMatchObject({ code: 'not_eligible' });
    bob.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: H });
    expect(bob.last('rroom')).toMatchObject({ you: 0 });
    // A bot goes, and its budget with it.
    expect(site.lobby.botSeats).toBe(1);
    alice.say({ t: 'rkick', code, seat: 3 });
    expect(alice.last('rroom')!.seats[3]!.player).toBeNull();
    expect(site.lobby.botSeats).toBe(0);
    // The chair: only to a person's seat.
    alice.say({ t: 'rhost', code, seat: 3 });
    expect(alice.last('error')).toMatchObject({ code: 'bad_message' });
    alice.say({ t: 'rhost', code, seat: 2 });
    expect(carol.last('rroom')).toMatchObject({ host: 2, you: 2 });
    alice.say({ t: 'rkick', code, seat: 2 });
    expect(alice.last('error')).toMatchObject({ code: 'not_room_host' });
    carol.say({ t: 'rbot', code, seat: 1, bot: { pps: 3, style: 'attacker' } });
    expect(carol.last('rroom')!.seats[1]).toMatchObject({ player: { bot: { pps: 3, style: 'attacker' } }, ready: true });
  });

  it('changes the rules and the bots only in the lobby, each checked as at creation; everyone readies again', async () => {
    const site = roomSite();
    const { alice, code, others } = await room(site, 4, [], ['bob']);
    const [bob] = others as [Sock];
    bob.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rrules', code, mode: 'race30', rules: rules({ garbageDelay: 30, firstTo: 3 }) });
    expect(bob.last('rroom')).toMatchObject({ mode: 'race30', rules: { garbageDelay: 30, firstTo: 3 } });
    expect(bob.last('rroom')!.seats[1]!.ready).toBe(false);
    bob.say({ t: 'rrules', code, mode: 'battle', rules: rules() });
    expect(bob.last('error')).toMatchObject({ code: 'not_room_host' });
    // Checked against the room's size, with the same words as at creation.
    alice.say({ t: 'rrules', code, mode: 'battle', rules: rules({ teams: [0, 1] }) });
    expect(alice.last('error')).toMatchObject({ code: 'bad_message', message: expect.stringContaining('team') });
    alice.say({ t: 'rrules', code, mode: 'battle', rules: { ...rules(), garbageDelay: 10_000 } });
    expect(alice.last('error')).toMatchObject({ code: 'bad_message', message: expect.stringContaining('garbageDelay') });
    alice.say({ t: 'rrules', code, mode: 'battle', rules: rules({ messiness: 20 }) });
    expect(alice.last('error')).toMatchObject({ code: 'bad_message' });
    expect(alice.last('rroom')).toMatchObject({ mode: 'race30', rules: { garbageDelay: 30 } });
    // Bots: on empty seats only, never on a person's, never seat 0; bounded per instance.
    alice.say({ t: 'rbot', code, seat: 1, bot: { pps: 2, style: 'tidy' } });
    expect(alice.last('error')).toMatchObject({ code: 'bad_message' });
    expect(clientMessageSchema.safeParse({ t: 'rbot', code, seat: 0, bot: null }).success).toBe(false);
    alice.say({ t: 'rbot', code, seat: 2, bot: { pps: 5, style: 'tidy' } });
    alice.say({ t: 'rbot', code, seat: 3, bot: { pps: 1, style: 'attacker' } });
    expect(site.lobby.botSeats).toBe(2);
    alice.say({ t: 'rbot', code, seat: 2, bot: null });
    expect(alice.last('rroom')!.seats[2]!.player).toBeNull();
    expect(site.lobby.botSeats).toBe(1);
    // Rooms of bots up to the instance's bound exactly (each of 2–15 seats).
    const bots = (n: number) => site.lobby.playNow({ mode: 'battle', rules: rules(), seats: Array.from({ length: n }, () => bot({ pps: 1, style: 'tidy' })) });
    while (ROOM_LIMITS.botSeatsPerInstance - site.lobby.botSeats > 3) bots(Math.min(15, ROOM_LIMITS.botSeatsPerInstance - site.lobby.botSeats - 2));
    bots(ROOM_LIMITS.botSeatsPerInstance - site.lobby.botSeats);
    alice.say({ t: 'rbot', code, seat: 2, bot: { pps: 1, style: 'tidy' } });
    expect(alice.last('error')).toMatchObject({ code: 'rate_limited' });
    // Nothing of the lobby's may change under a set in play.
    alice.say({ t: 'rbot', code, seat: 3, bot: null });
    expect(site.lobby.botSeats).toBe(ROOM_LIMITS.botSeatsPerInstance - 1);
    alice.say({ t: 'rbot', code, seat: 2, bot: { pps: 1, style: 'tidy' } });
    expect(site.lobby.botSeats).toBe(ROOM_LIMITS.botSeatsPerInstance);
    // The bot rooms end, their budget comes back.
    for (const h of [...site.lobby.matches.values()]) h.close();
    alice.say({ t: 'rbot', code, seat: 3, bot: { pps: 1, style: 'tidy' } });
    expect(site.lobby.botSeats).toBe(2);
    for (const s of [alice, bob]) s.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    expect(alice.last('rmatch')).toBeDefined();
    const errors = alice.of('error').length;
    alice.say({ t: 'rrules', code, mode: 'battle', rules: rules() });
    alice.say({ t: 'rbot', code, seat: 2, bot: null });
    expect(alice.of('error').slice(errors).map((e) => e.code)).toEqual(['room_full', 'room_full']);
  });
});

describe('what a modified browser in the host\'s chair can send', () => {
  it('a bot on a seat past the room\'s size is refused: the room keeps its size and budget', async () => {
    const site = roomSite();
    const { alice, code } = await room(site, 2, [], []);
    alice.say({ t: 'rbot', code, seat: 5, bot: { pps: 2, style: 'tidy' } });
    expect(alice.last('error')).toMatchObject({ code: 'bad_message' });
    expect(alice.last('rroom')!.seats).toHaveLength(2);
    expect(site.lobby.botSeats).toBe(0);
    alice.say({ t: 'rbot', code, seat: 5, bot: null });
    expect(alice.last('rroom')!.seats).toHaveLength(2);
  });

  it('a bot put on, changed or taken off, and a kick, each make everyone ready again, as new rules do', async () => {
    const site = roomSite();
    const { alice, code, others } = await room(site, 4, [], ['bob', 'carol']);
    const [bob] = others as [Sock, Sock];
    const readyAll = () => [alice, ...others].forEach((s) => s.say({ t: 'rready', code, ready: true }));
    const readies = () => bob.last('rroom')!.seats.map((x) => (x.player && !x.player.bot ? x.ready : null));
    readyAll();
    alice.say({ t: 'rbot', code, seat: 3, bot: { pps: 2, style: 'tidy' } });
    expect(readies()).toEqual([false, false, false, null]);
    readyAll();
    alice.say({ t: 'rbot', code, seat: 3, bot: { pps: 5, style: 'attacker' } });
    expect(readies()).toEqual([false, false, false, null]);
    readyAll();
    alice.say({ t: 'rkick', code, seat: 2 });
    expect(readies()).toEqual([false, false, null, null]);
    readyAll();
    alice.say({ t: 'rbot', code, seat: 2, bot: { pps: 1, style: 'tidy' } });
    expect(readies()).toEqual([false, false, null, null]);
    // Nobody starts what they did not ready for.
    alice.say({ t: 'rstart', code });
    expect(alice.last('error')).toMatchObject({ code: 'not_eligible' });
    readyAll();
    alice.say({ t: 'rbot', code, seat: 3, bot: null });
    expect(readies()).toEqual([false, false, null, null]);
  });
});

describe('what everyone in a room agreed to', () => {
  it('a ready sent before the rules changed readies for nothing: it names the terms it saw; a person joining or leaving makes everyone ready again', async () => {
    const site = roomSite();
    const { alice, code, others } = await room(site, 3, [], ['bob']);
    const [bob] = others as [Sock];
    const seen = bob.last('rroom')!.terms!;
    expect(seen).toEqual(expect.any(Number));
    // Bob's ready is on its way when the host's new rules land first.
    alice.say({ t: 'rrules', code, mode: 'race30', rules: rules({ firstTo: 5 }) });
    bob.say({ t: 'rready', code, ready: true, terms: seen });
    expect(bob.last('rroom')!.seats[1]!.ready).toBe(false);
    alice.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    expect(alice.last('rmatch')).toBeUndefined();
    // Ready for the rules shown now.
    bob.say({ t: 'rready', code, ready: true, terms: bob.last('rroom')!.terms });
    expect(bob.last('rroom')!.seats[1]!.ready).toBe(true);
    // Carol joins: whom they play changed, so alice and bob ready again; and again when she leaves.
    const carol = await made(site, 'carol');
    carol.say({ t: 'rjoin', code, handling: H });
    expect(alice.last('rroom')!.seats.map((x) => x.ready)).toEqual([false, false, false]);
    for (const s of [alice, bob]) s.say({ t: 'rready', code, ready: true, terms: s.last('rroom')!.terms });
    carol.say({ t: 'rleave', code });
    expect(alice.last('rroom')!.seats.map((x) => x.ready)).toEqual([false, false, false]);
  });
});

describe('another set in the same room', () => {
  it('after a set the room goes back to the lobby with its people and bots, every person to ready again; a player who left is gone, one kicked in play too', async () => {
    const site = roomSite();
    const { alice, code, others } = await room(site, 4, [3], ['bob', 'carol'], rules({ timeLimitTicks: 20 * 60 }));
    const [bob, carol] = others as [Sock, Sock];
    for (const s of [alice, bob, carol]) s.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const m = alice.last('rmatch')!;
    site.clock.advance(ROOM_LIMITS.countdownMs + 2_000);
    // Carol leaves and bob is kicked while the set plays: both are out of it, and out of the room after.
    carol.say({ t: 'rleave', code });
    alice.say({ t: 'rkick', code, seat: 1 });
    expect(bob.last('rclosed')).toMatchObject({ reason: 'kicked' });
    expect(await playSet(site, [alice], m.matchId)).toMatchObject({ ok: true });
    expect(alice.last('rover')).toMatchObject({ matchId: m.matchId, stored: true });
    expect(site.lobby.rooms.size).toBe(1);
    const back = alice.last('rroom')!;
    expect(back).toMatchObject({ code, playing: false, host: 0, you: 0 });
    expect(back.seats.map((x) => [who(x), x.ready])).toEqual([['person', false], [null, false], [null, false], ['bot', true]]);
    // The seats fill again and the next set is a new match, stored on its own.
    const dave = await made(site, 'dave');
    dave.say({ t: 'rjoin', code, handling: H });
    alice.say({ t: 'rbot', code, seat: 2, bot: { pps: 1, style: 'tidy' } });
    for (const s of [alice, dave]) s.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const m2 = alice.last('rmatch')!;
    expect(m2.matchId).not.toBe(m.matchId);
    expect(dave.last('rmatch')).toMatchObject({ matchId: m2.matchId, seat: 1 });
    expect(await playSet(site, [alice, dave], m2.matchId)).toMatchObject({ ok: true });
    expect(await (await getDb()).roomMatch.count()).toBe(2);
  });

  it('a player who left a set and made a room of their own keeps it when that set ends: leaving, closing and its bots are theirs still', async () => {
    const site = roomSite();
    const { alice, code, others } = await room(site, 3, [2], ['bob'], rules({ timeLimitTicks: 20 * 60 }));
    const [bob] = others as [Sock];
    for (const s of [alice, bob]) s.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const host = site.lobby.matches.get(alice.last('rmatch')!.matchId)!;
    site.clock.advance(ROOM_LIMITS.countdownMs + 1_000);
    bob.say({ t: 'rleave', code });
    bob.say({ t: 'rcreate', mode: 'battle', size: 4, rules: rules(), bots: [1, 2, 3].map((seat) => ({ seat, pps: 2, style: 'tidy' })), handling: H });
    const mine = bob.last('rroom')!.code;
    expect(mine).not.toBe(code);
    expect(site.lobby.botSeats).toBe(4);
    // The first set ends with nobody left in it.
    alice.say({ t: 'rleave', code });
    for (let t = 0; t < 10 * 60_000 && site.lobby.rooms.has(code); t += 100) site.clock.advance(100);
    expect(site.lobby.rooms.has(code)).toBe(false);
    expect(host.closed).toBe(true);
    // Bob's own room is still his: he readies in it, and leaving closes it and frees its bots.
    bob.say({ t: 'rready', code: mine, ready: true });
    expect(bob.last('rroom')).toMatchObject({ code: mine, you: 0 });
    expect(bob.of('error')).toEqual([]);
    bob.say({ t: 'rleave', code: mine });
    expect(site.lobby.rooms.has(mine)).toBe(false);
    expect(site.lobby.botSeats).toBe(0);
  });

  it('a set whose people have all gone does not come back: the room closes and its bots are freed', async () => {
    const site = roomSite();
    const { alice, code } = await room(site, 2, [1], [], rules({ timeLimitTicks: 20 * 60 }));
    alice.say({ t: 'rready', code, ready: true });
    alice.say({ t: 'rstart', code });
    const host = site.lobby.matches.get(alice.last('rmatch')!.matchId)!;
    site.clock.advance(ROOM_LIMITS.countdownMs + 1_000);
    // Her socket drops: out of the game by the lag bound, the bot wins the set, which is stored.
    site.lobby.closed(alice.conn);
    for (let t = 0; t < 60_000 && !host.stored; t += 100) site.clock.advance(100);
    expect(await host.stored).toMatchObject({ ok: true });
    expect(site.lobby.rooms.size).toBe(0);
    expect(site.lobby.botSeats).toBe(0);
  });
});
