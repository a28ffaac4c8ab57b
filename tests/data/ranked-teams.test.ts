import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, keyId } from '@/lib/engine';
import { clientMessageSchema, type ServerMessage, type TeamClientMessage } from '@/lib/live/protocol';
import type { WireEvent } from '@/lib/live/wire';
import { getDb } from '@/lib/server/db';
import { TeamQueue, type TeamQueueOptions } from '@/lib/server/live/rooms/team-queue';
import type { Owner } from '@/lib/server/games/owner';
import type { LiveHub } from '@/lib/server/live/hub';
import { runMessage } from '@/lib/server/live/messages';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { storeRoomMatch } from '@/lib/server/versus/room-store';
import { getStoredRoomSet } from '@/lib/server/versus/room-sets';
import { localDoor } from '@/lib/server/live/match/versus-relay';
import type { VersusLobby } from '@/lib/server/live/match/versus-lobby';
import { roomRecordOf } from '@/lib/server/versus/room-verify';
import { NEW_PLAYER_RATING, RATING_SETTINGS } from '@/lib/server/versus/rating';
import { TEAM_SET, TEAMS_MODE } from '@/lib/server/versus/team-ratings';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import { getTeamBoard, getTeamHistory } from '@/lib/server/versus/team-boards';
import { resetDb } from '@/tests/data/db';
import { player } from '@/tests/data/play';
import { glicko2 } from '@/tests/support/glicko2';
import { roomSite, rules, socket } from '@/tests/support/room-site';
import { MATCHMAKING } from '@/lib/server/versus/matchmaking';
import { RANKED_RULES, rankedEntry } from '@/lib/server/versus/pairing';
import { botRoomSet } from '@/tests/support/room-sets';

beforeEach(resetDb);

const H = DEFAULT_HANDLING;
const HARD = keyId('hardDrop');
type Sock = ReturnType<typeof socket>;

/**
 * A room site with the ranked 2v2 queue beside its lobby, as the hub has them. Its sockets each
 * come from an address of their own unless told otherwise (the ranked rules keep one address's
 * players apart); everyone is admitted to ranked, and avoids nobody, unless `entry` says otherwise.
 */
function teamSite(ratings: Record<string, number> = {}, o: Partial<TeamQueueOptions> = {}) {
  const site = roomSite();
  const queue = new TeamQueue({
    rooms: site.lobby, now: site.clock.now, timers: site.clock.timers, ratingOf: async (u) => ({ ...NEW_PLAYER_RATING, rating: ratings[u] ?? 1500 }), rankedEntry: async () => ({ ok: true, avoid: [] }), ...o,
  });
  const say = async (s: Sock, m: TeamClientMessage) => {
    const parsed = clientMessageSchema.parse(JSON.parse(JSON.stringify(m))) as TeamClientMessage;
    await queue.handle(s.conn, parsed);
  };
  let n = 0;
  const sock = (owner: Owner, where: { address?: string; device?: string } = {}) => socket(site.lobby, owner, site.clock.now, { address: `10.0.0.${++n}`, ...where });
  return { ...site, queue, say, sock };
}

/**
 * Plays a seat as a browser would, a hard drop every `every` ticks: a team that drops faster
 * stacks up faster and tops out first, so the set has a winner.
 */
function seatPlayer(s: Sock, clock: { now: () => number }, every: number) {
  const st = { seq: 0, tick: 0, game: -1, t0: 0, seen: 0 };
  return () => {
    const begins = s.of('rbegin');
    if (begins.length > st.seen) {
      const b = begins.at(-1)!;
      st.seen = begins.length;
      Object.assign(st, { seq: 0, tick: 0, game: b.game, t0: s.at[s.sent.indexOf(b)]! + b.startsInMs });
    }
    const m = s.last('rmatch');
    if (!m || st.game < 0) return;
    const tick = Math.floor(((clock.now() - st.t0) * 60) / 1000);
    if (tick <= st.tick) return;
    const events: WireEvent[] = [];
    for (let t = st.tick; t < tick; t++) {
      if (t % every === 5) events.push([t, HARD, 1]);
      if (t % every === 7) events.push([t, HARD, 0]);
    }
    s.say({ t: 'inputs', stream: m.matchId, game: st.game, seq: ++st.seq, tick, events });
    st.tick = tick;
  };
}

const errors = (s: Sock) => s.of('error').map((e) => e.code);
const last = (s: Sock): ServerMessage | undefined => s.sent.at(-1);

describe('a ranked 2v2 set', () => {
  it('a pair and two solos to the end: the pair kept together, the set stored ranked, every 2v2 rating equal to an independent Glicko-2, applied once under a retried store', async () => {
    const site = teamSite();
    const { clock, lobby } = site;
    const owners = await Promise.all(['ann', 'ben', 'cat', 'dan'].map((n) => player(n)));
    const [ann, ben, cat, dan] = owners.map((o) => site.sock(o)) as [Sock, Sock, Sock, Sock];
    await site.say(ann, { t: 'tparty', handling: H });
    const code = ann.last('tparty')!.code;
    await site.say(ben, { t: 'tjoin', code, handling: H });
    expect(ben.last('tparty')).toMatchObject({ code, members: [{ guest: false }, { guest: false }] });
    // Either member queues both.
    await site.say(ben, { t: 'tqueue', handling: H });
    expect(ann.last('tqueued')).toMatchObject({ pair: true, waiting: 2 });
    await site.say(cat, { t: 'tqueue', handling: H });
    expect(cat.last('tqueued')).toMatchObject({ pair: false, waiting: 3 });
    await site.say(dan, { t: 'tqueue', handling: H });
    const match = ann.last('rmatch')!;
    for (const s of [ann, ben, cat, dan]) expect(s.last('rmatch')).toMatchObject({ matchId: match.matchId, rules: { teams: [0, 0, 1, 1], firstTo: 2 } });
    expect(site.queue.waiting).toBe(0);
    const seatOf = (s: Sock) => s.last('rmatch')!.seat!;
    // The pair is one team (seats 0–1 or 2–3), the two solos the other.
    const pairTeam = seatOf(ann) < 2 ? 0 : 1;
    expect([seatOf(ann), seatOf(ben)].sort()).toEqual(pairTeam === 0 ? [0, 1] : [2, 3]);
    expect([seatOf(cat), seatOf(dan)].sort()).toEqual(pairTeam === 0 ? [2, 3] : [0, 1]);
    // A ranked room has no chair: nobody kicks, hands over or changes its rules.
    for (const s of [ann, ben, cat, dan]) {
      s.say({ t: 'rhost', code: match.code, seat: (seatOf(s) + 1) % 4 });
      expect(s.last('error')).toMatchObject({ code: 'not_room_host' });
    }
    const play = [ann, ben, cat, dan].map((s, i) => seatPlayer(s, clock, i < 2 ? 40 : 20));
    const host = lobby.matches.get(match.matchId)!;
    for (let t = 0; t < 30 * 60_000 && !host.stored; t += 100) {
      clock.advance(100);
      for (const p of play) p();
    }
    expect(await host.stored).toMatchObject({ ok: true });
    // The pair drops slower, stacks slower: it wins.
    expect(ann.last('rover')).toMatchObject({ winner: pairTeam, stored: true });
    const db = await getDb();
    expect(await db.roomMatch.findUnique({ where: { id: match.matchId }, select: { ranked: true } })).toEqual({ ranked: true });
    // The independent computation: each player one game against the other team's mean (all new: 1500, 350).
    const want = (won: boolean) => glicko2(NEW_PLAYER_RATING, [{ rating: 1500, rd: 350, score: won ? 1 : 0 }], RATING_SETTINGS.tau);
    const ratingsNow = async () => db.versusRating.findMany({ where: { mode: TEAMS_MODE }, orderBy: { userId: 'asc' }, select: { userId: true, rating: true, rd: true, vol: true, matches: true, wins: true } });
    const rows = await ratingsNow();
    expect(rows).toHaveLength(4);
    for (const [i, o] of owners.entries()) {
      const row = rows.find((r) => r.userId === o.userId)!;
      const w = want(i < 2);
      expect(row.rating).toBeCloseTo(w.rating, 2);
      expect(row.rd).toBeCloseTo(w.rd, 2);
      expect(row.vol).toBeCloseTo(w.vol, 5);
      expect(row).toMatchObject({ matches: 1, wins: i < 2 ? 1 : 0 });
    }
    // Before and after on each seat, for history and the chart.
    const seats = await db.roomSeat.findMany({ where: { matchId: match.matchId }, orderBy: { seat: 'asc' } });
    for (const x of seats) {
      expect(x.ratingBefore).toBe(1500);
      expect(x.ratingAfter).toBeCloseTo(want(x.team === pairTeam).rating, 2);
      expect(x.won).toBe(x.team === pairTeam);
    }
    // The set's viewer shows each seat's rating either side of it.
    const viewed = await getStoredRoomSet({ matchId: match.matchId });
    expect(viewed!.players.map((p) => p.rating)).toEqual(seats.map((x) => ({ before: 1500, after: x.ratingAfter })));
    // Ann's history names her partner and both opponents; nobody is on the board yet (one set is no placement).
    const [h] = await getTeamHistory({ userId: owners[0]!.userId!, limit: 10 });
    expect(h).toMatchObject({ matchId: match.matchId, won: true, partner: { username: 'ben' }, ratingBefore: 1500 });
    expect(h!.opponents.map((o) => o?.username).sort()).toEqual(['cat', 'dan']);
    expect(await getTeamBoard({ limit: 10 })).toEqual([]);
    // The host's store retried (a lost answer): the match is found taken and nobody is rated twice.
    const record = roomRecordOf(host.match, host.o.seed, host.o.mode);
    const owned = host.o.seats.map((s) => ({ userId: s.owner.userId, guestId: s.owner.guestId }));
    expect(await storeRoomMatch({ matchId: match.matchId, record, seats: owned, ranked: true })).toMatchObject({ ok: true, repeated: true });
    expect(await ratingsNow()).toEqual(rows);
    // The ranked path refuses a set that is not four accounts under the ranked rules.
    const other = { ...record, rules: { ...record.rules, attackPercent: 200 } };
    expect(await storeRoomMatch({ matchId: 'another1match', record: other, seats: owned, ranked: true })).toMatchObject({ ok: false, code: 'not_rankable' });
  });
});

/**
 * Seat 2 of the set the four were matched into leaves in the countdown of its first game (not one
 * piece played); the others play it to its stored end, team 0 winning.
 */
async function leaverSet(site: ReturnType<typeof teamSite>, socks: Sock[], leaves?: Sock) {
  const { clock, lobby } = site;
  const match = socks[0]!.last('rmatch')!;
  const seatOf = (s: Sock) => s.last('rmatch')!.seat!;
  const [w1, w2, ...team1] = [...socks].sort((x, y) => seatOf(x) - seatOf(y)) as [Sock, Sock, Sock, Sock];
  const leaver = leaves ?? team1[0];
  const partner = team1.find((s) => s !== leaver)!;
  leaver.say({ t: 'rleave', code: match.code });
  const play = [w1, w2, partner].map((s, i) => seatPlayer(s, clock, i < 2 ? 40 : 20));
  const host = lobby.matches.get(match.matchId)!;
  for (let t = 0; t < 30 * 60_000 && !host.stored; t += 100) {
    clock.advance(100);
    for (const p of play) p();
  }
  expect(await host.stored).toMatchObject({ ok: true });
  expect(w1.last('rover')).toMatchObject({ winner: 0, stored: true });
  return { match, leaver, partner };
}

describe('a ranked 2v2 set whose leaver hardly played', () => {
  it('is no contest, as in 1v1: only the leaver\'s loss is rated; the winners and the partner keep their ratings', async () => {
    const site = teamSite();
    const owners = await Promise.all(['na', 'nb', 'nc', 'nd'].map((n) => player(n)));
    const socks = owners.map((o) => site.sock(o));
    for (const s of socks) await site.say(s, { t: 'tqueue', handling: H });
    const { match, leaver } = await leaverSet(site, socks);
    const db = await getDb();
    const seats = await db.roomSeat.findMany({ where: { matchId: match.matchId }, orderBy: { seat: 'asc' }, select: { seat: true, userId: true, ratingBefore: true, ratingAfter: true } });
    expect(seats.map((x) => x.ratingBefore)).toEqual([1500, 1500, 1500, 1500]);
    expect(seats.map((x) => x.ratingAfter)).toEqual([1500, 1500, expect.any(Number), 1500]);
    expect(seats[2]!.ratingAfter).toBeLessThan(1500);
    const rows = await db.versusRating.findMany({ where: { mode: TEAMS_MODE }, select: { userId: true, matches: true, wins: true } });
    expect(rows).toEqual([{ userId: leaver!.conn.owner.userId, matches: 1, wins: 0 }]);
  });
});

describe('a ranked 2v2 set whose leaver hardly played, with the partner it queued with', () => {
  /** Two solos (team 0, the oldest unit), then a party made by socks[2] and joined by socks[3]: team 1. */
  async function partyOf(site: ReturnType<typeof teamSite>, prefix: string, queuer: 2 | 3) {
    const owners = await Promise.all(['a', 'b', 'c', 'd'].map((n) => player(`${prefix}${n}`)));
    const socks = owners.map((o) => site.sock(o));
    for (const s of socks.slice(0, 2)) await site.say(s, { t: 'tqueue', handling: H });
    site.clock.advance(10);
    await site.say(socks[2]!, { t: 'tparty', handling: H });
    await site.say(socks[3]!, { t: 'tjoin', code: socks[2]!.last('tparty')!.code, handling: H });
    await site.say(socks[queuer]!, { t: 'tqueue', handling: H });
    return socks;
  }
  const ratings = async (matchId: string) => {
    const db = await getDb();
    const seats = await db.roomSeat.findMany({ where: { matchId }, orderBy: { seat: 'asc' }, select: { userId: true, ratingAfter: true } });
    const rows = await db.versusRating.findMany({ where: { mode: TEAMS_MODE }, select: { userId: true } });
    return { after: (s: Sock) => seats.find((x) => x.userId === s.conn.owner.userId)!.ratingAfter, rated: rows.map((r) => r.userId) };
  };

  // An alt leaving in the first countdown must not spare the main who queued the two of them.
  it('rates the loss of the partner who sent the pair\'s queue; the winners keep their ratings', async () => {
    const site = teamSite();
    const socks = await partyOf(site, 'p', 2);
    const { match, leaver, partner } = await leaverSet(site, socks, socks[3]);
    const { after, rated } = await ratings(match.matchId);
    expect([0, 1].map((i) => after(socks[i]!))).toEqual([1500, 1500]);
    expect(after(leaver)).toBeLessThan(1500);
    expect(after(partner)).toBeLessThan(1500);
    expect(rated.sort()).toEqual([leaver.conn.owner.userId, partner.conn.owner.userId].sort());
  });

  // A stranger holding a shared party code joins, queues the two at once and leaves: the party's
  // maker never asked for that set, and is not charged for it.
  it('spares a partner who did not send the queue: a stranger with the code cannot charge it a loss', async () => {
    const site = teamSite();
    const socks = await partyOf(site, 'g', 3);
    const { match, leaver, partner } = await leaverSet(site, socks, socks[3]);
    expect(partner).toBe(socks[2]);
    const { after, rated } = await ratings(match.matchId);
    expect(after(leaver)).toBeLessThan(1500);
    expect(after(partner)).toBe(1500);
    expect(rated).toEqual([leaver.conn.owner.userId]);
  });
});

describe('a ranked 2v2 seat taken up on the room page', () => {
  it('is sent its game\'s start there (it went to the queue\'s socket), so the new page plays rather than lagging out', async () => {
    const site = teamSite();
    const owners = await Promise.all(['ta', 'tb', 'tc', 'td'].map((n) => player(n)));
    const socks = owners.map((o) => site.sock(o));
    for (const s of socks) await site.say(s, { t: 'tqueue', handling: H });
    const match = socks[0]!.last('rmatch')!;
    // The room page's own connection takes the seat up with the token, in the countdown; the queue's closes.
    const page = socket(site.lobby, owners[0]!, site.clock.now, { address: '10.0.0.1' });
    page.say({ t: 'rresume', matchId: match.matchId, token: match.resumeToken! });
    site.lobby.closed(socks[0]!.conn);
    // Then every seat's field from its start (a page rebuilds the others' fields from it).
    expect(page.sent.map((m) => m.t)).toEqual(['rmatch', 'rbegin', 'rresumed', 'rframes']);
    expect(page.last('rbegin')).toMatchObject({ game: 0, pieces: socks[0]!.last('rbegin')!.pieces });
  });

  it('is not sent the start of a game it is already out of (lagged out before any batch)', async () => {
    const site = teamSite();
    const { clock } = site;
    const owners = await Promise.all(['ua', 'ub', 'uc', 'ud'].map((n) => player(n)));
    const socks = owners.map((o) => site.sock(o));
    for (const s of socks) await site.say(s, { t: 'tqueue', handling: H });
    const match = socks[0]!.last('rmatch')!;
    const play = socks.slice(1).map((s) => seatPlayer(s, clock, 20));
    // The game plays on without the seat until the referee puts it out for lag (at the lag bound past the countdown).
    const out = () => socks[1]!.sent.some((m) => m.t === 'rko' && m.seat === match.seat);
    for (let t = 0; t < ROOM_LIMITS.countdownMs + ROOM_LIMITS.maxLagMs + 1_000 && !out(); t += 100) {
      clock.advance(100);
      for (const p of play) p();
    }
    expect(out()).toBe(true);
    // Still playing: nobody else is out.
    expect(socks[1]!.sent.filter((m) => m.t === 'rko')).toHaveLength(1);
    const page = socket(site.lobby, owners[0]!, clock.now, { address: '10.0.0.1' });
    page.say({ t: 'rresume', matchId: match.matchId, token: match.resumeToken! });
    expect(page.sent.map((m) => m.t)).toEqual(['rmatch', 'rresumed', 'rframes']);
  });
});

describe('the ranked 2v2 queue', () => {
  it('four solos are matched into two teams; a guest is refused; one socket and one account queue once', async () => {
    const site = teamSite();
    const { clock, lobby } = site;
    const guest = socket(lobby, { userId: null, guestId: 'g1' }, clock.now);
    await site.say(guest, { t: 'tqueue', handling: H });
    await site.say(guest, { t: 'tparty', handling: H });
    expect(errors(guest)).toEqual(['sign_in_required', 'sign_in_required']);
    const owners = await Promise.all(['s1', 's2', 's3', 's4'].map((n) => player(n)));
    const socks = owners.map((o) => site.sock(o));
    await site.say(socks[0]!, { t: 'tqueue', handling: H });
    await site.say(socks[0]!, { t: 'tqueue', handling: H });
    expect(errors(socks[0]!)).toEqual(['already_playing']);
    // The same account on another tab: still one entry.
    const tab = site.sock(owners[0]!);
    await site.say(tab, { t: 'tqueue', handling: H });
    expect(errors(tab)).toEqual(['already_playing']);
    expect(site.queue.waiting).toBe(1);
    for (const s of socks.slice(1)) await site.say(s, { t: 'tqueue', handling: H });
    const seats = socks.map((s) => s.last('rmatch')?.seat);
    expect([...seats].sort()).toEqual([0, 1, 2, 3]);
    expect(site.queue.waiting).toBe(0);
    // Now in a room's seat: no queue, no party.
    await site.say(socks[1]!, { t: 'tparty', handling: H });
    expect(errors(socks[1]!)).toEqual(['already_playing']);
  });

  it('a party is joined only with its code, by one player; leaving unqueues the pair and tells the partner', async () => {
    const site = teamSite();
    const [a, b, c] = await Promise.all(['pa', 'pb', 'pc'].map(async (n) => site.sock(await player(n))));
    await site.say(a!, { t: 'tparty', handling: H });
    const code = a!.last('tparty')!.code;
    const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    await site.say(c!, { t: 'tjoin', code: wrong, handling: H });
    expect(errors(c!)).toEqual(['unknown_room']);
    // Alone in a party: not queued until the partner joins.
    await site.say(a!, { t: 'tqueue', handling: H });
    expect(errors(a!)).toEqual(['not_eligible']);
    await site.say(b!, { t: 'tjoin', code, handling: H });
    await site.say(c!, { t: 'tjoin', code, handling: H });
    expect(errors(c!)).toEqual(['unknown_room', 'room_full']);
    await site.say(a!, { t: 'tqueue', handling: H });
    expect(b!.last('tqueued')).toMatchObject({ pair: true });
    expect(site.queue.waiting).toBe(2);
    await site.say(b!, { t: 'tleave' });
    expect(last(b!)).toEqual({ t: 'tunqueued', reason: 'left' });
    expect(last(a!)).toEqual({ t: 'tunqueued', reason: 'partner_left' });
    expect(site.queue.waiting).toBe(0);
    // The party is gone with it: its code takes nobody in now.
    await site.say(c!, { t: 'tjoin', code, handling: H });
    expect(errors(c!)).toEqual(['unknown_room', 'room_full', 'unknown_room']);
    // A socket that closes leaves the queue the same way.
    await site.say(c!, { t: 'tqueue', handling: H });
    expect(site.queue.waiting).toBe(1);
    site.queue.closed(c!.conn);
    expect(site.queue.waiting).toBe(0);
  });

  it('through the socket\'s handler: a banned player neither makes, joins nor queues, and party codes are guessed no faster than the lobby budget', async () => {
    const site = teamSite();
    // One instance's wiring: ranked 2v2's messages go through the door to the queue (on the home, with several).
    const hub = { teams: site.queue, door: localDoor({} as VersusLobby, { rooms: site.lobby, teams: site.queue }), draining: false } as unknown as LiveHub;
    const mallory = socket(site.lobby, await player('mallory'), site.clock.now);
    mallory.conn.session = { version: 0, role: 'player', banned: true };
    runMessage(hub, mallory.conn, { t: 'tqueue', handling: H });
    runMessage(hub, mallory.conn, { t: 'tparty', handling: H });
    expect(errors(mallory)).toEqual(['banned', 'banned']);
    const guesser = socket(site.lobby, await player('guesser'), site.clock.now);
    for (let i = 0; i < LIVE_LIMITS.lobbyMessagesPerMinute + 5; i++) runMessage(hub, guesser.conn, { t: 'tjoin', code: 'ZZZZZZ', handling: H });
    await Promise.resolve();
    const codes = errors(guesser);
    expect(codes.filter((c) => c === 'unknown_room')).toHaveLength(LIVE_LIMITS.lobbyMessagesPerMinute);
    expect(codes).toContain('rate_limited');
  });
});

describe('the ranked rules in the 2v2 queue, as in 1v1', () => {
  const queueAll = async (site: ReturnType<typeof teamSite>, socks: Sock[]) => {
    for (const s of socks) await site.say(s, { t: 'tqueue', handling: H });
  };

  it('opponents never share an address or a device; teammates may', async () => {
    const site = teamSite();
    const [a, b, x, y, z] = await Promise.all(['ka', 'kb', 'kx', 'ky', 'kz'].map((n) => player(n)));
    const sa = site.sock(a!);
    const sb = site.sock(b!, { address: 'home' });
    const sx = site.sock(x!, { address: 'home' });
    const [sy, sz] = [site.sock(y!), site.sock(z!, { device: 'dev-1' })];
    await site.say(sa, { t: 'tparty', handling: H });
    await site.say(sb, { t: 'tjoin', code: sa.last('tparty')!.code, handling: H });
    await queueAll(site, [sa, sx, sy]);
    // The pair's b and the solo x share an address: never opponents, however long they wait.
    site.clock.advance(60_000);
    expect(sa.last('rmatch')).toBeUndefined();
    expect(site.queue.waiting).toBe(4);
    await queueAll(site, [sz]);
    expect(sa.last('rmatch')).toBeDefined();
    expect([sy, sz].map((s) => s.last('rmatch')?.matchId)).toEqual([sa.last('rmatch')!.matchId, sa.last('rmatch')!.matchId]);
    expect(sx.last('rmatch')).toBeUndefined();
    // Four solos, two on one device: teammates, never opponents.
    const site2 = teamSite();
    const solos = await Promise.all(['d1', 'd2', 'd3', 'd4'].map((n) => player(n)));
    const socks = solos.map((o, i) => site2.sock(o, i < 2 ? { device: 'dev-2' } : {}));
    await queueAll(site2, socks);
    const team = (s: Sock) => (s.last('rmatch')!.seat! < 2 ? 0 : 1);
    expect(team(socks[0]!)).toBe(team(socks[1]!));
    expect(team(socks[2]!)).toBe(team(socks[3]!));
  });

  it('each player is admitted by the ranked rules, and never meets anyone on their avoid list', async () => {
    const [a, b, x, y, z] = await Promise.all(['va', 'vb', 'vx', 'vy', 'vz'].map((n) => player(n)));
    const entries: Array<{ userId: string; address: string; device: string | null }> = [];
    const site = teamSite({}, {
      rankedEntry: async (who) => {
        entries.push(who);
        if (who.userId === z!.userId) return { ok: false, code: 'not_eligible', message: 'too new' };
        return { ok: true, avoid: who.userId === x!.userId ? [b!.userId!] : [] };
      },
    });
    const sz = site.sock(z!);
    await site.say(sz, { t: 'tqueue', handling: H });
    expect(sz.last('error')).toMatchObject({ code: 'not_eligible', message: 'too new' });
    const [sa, sb, sx, sy] = [a, b, x, y].map((o) => site.sock(o!));
    await site.say(sa!, { t: 'tparty', handling: H });
    await site.say(sb!, { t: 'tjoin', code: sa!.last('tparty')!.code, handling: H });
    await queueAll(site, [sa!, sx!, sy!]);
    // Both members of the pair were looked up, with their own address.
    expect(entries.map((e) => e.userId)).toEqual(expect.arrayContaining([a!.userId, b!.userId, x!.userId, y!.userId]));
    expect(entries.find((e) => e.userId === b!.userId)!.address).toBe(sb!.conn.address);
    site.clock.advance(60_000);
    // x avoids b: the pair never meets x.
    expect(sa!.last('rmatch')).toBeUndefined();
  });

  // The pair limit counts ranked 2v2 sets too: else a main and its alt could farm each other in
  // 2v2 as often as they like, each set against the same opponent.
  it('opponents met in three ranked 2v2 sets within the pair window are not matched again', async () => {
    const [a, b, c, d, x, y] = await Promise.all(['fa', 'fb', 'fc', 'fd', 'fx', 'fy'].map((n) => player(n)));
    const record = botRoomSet('pair-limit', TEAM_SET.rules, ['a', 'b', 'c', 'd'].map((seed) => ({ seed, mistakes: 0.1 })));
    // A day on: the accounts are old enough for ranked, and the sets fall in the window.
    const later = new Date(Date.now() + RANKED_RULES.minAccountAgeMs + 60_000);
    for (let i = 0; i < RANKED_RULES.maxMatchesPerPair; i++)
      expect(await storeRoomMatch({ matchId: `met${i}`, record, seats: [a!, c!, x!, d!], ranked: true, now: later })).toMatchObject({ ok: true });
    const site = teamSite({}, { rankedEntry: (who) => rankedEntry({ ...who, now: new Date(later.getTime() + 60_000) }) });
    const [sa, sb, sx, sy] = [a, b, x, y].map((o) => site.sock(o!)) as [Sock, Sock, Sock, Sock];
    await site.say(sa, { t: 'tparty', handling: H });
    await site.say(sb, { t: 'tjoin', code: sa.last('tparty')!.code, handling: H });
    await queueAll(site, [sa, sx, sy]);
    expect(site.queue.waiting).toBe(4);
    site.clock.advance(MATCHMAKING.anyoneAfterMs + 5_000);
    expect(sa.last('rmatch')).toBeUndefined();
    expect(site.queue.waiting).toBe(4);
  });

  it('a pair far apart is matched near its stronger player, not at its mean', async () => {
    const ratings: Record<string, number> = {};
    const site = teamSite(ratings);
    const [hi, lo, c, d] = await Promise.all(['hi', 'lo', 'mc', 'md'].map((n) => player(n)));
    Object.assign(ratings, { [hi!.userId!]: 2200, [lo!.userId!]: 1000, [c!.userId!]: 1600, [d!.userId!]: 1600 });
    const [sh, sl, sc, sd] = [hi, lo, c, d].map((o) => site.sock(o!)) as [Sock, Sock, Sock, Sock];
    await site.say(sh, { t: 'tparty', handling: H });
    await site.say(sl, { t: 'tjoin', code: sh.last('tparty')!.code, handling: H });
    await queueAll(site, [sh, sc, sd]);
    // The mean (1600) would meet 1600 + 1600 at once; counted at 2100, it waits for its own level.
    expect(sh.last('rmatch')).toBeUndefined();
    expect(site.queue.waiting).toBe(4);
  });

  it('an account seated in a live ranked set is busy on every tab: no second queue or party', async () => {
    const site = teamSite();
    const owners = await Promise.all(['ba', 'bb', 'bc', 'bd'].map((n) => player(n)));
    const socks = owners.map((o) => site.sock(o));
    await queueAll(site, socks);
    expect(socks[0]!.last('rmatch')).toBeDefined();
    const tab = site.sock(owners[0]!);
    await site.say(tab, { t: 'tqueue', handling: H });
    await site.say(tab, { t: 'tparty', handling: H });
    expect(errors(tab)).toEqual(['already_playing', 'already_playing']);
    expect(site.queue.waiting).toBe(0);
  });

  it('a ranked set is charged to each player\'s and each address\'s starts per hour, as a room\'s', async () => {
    const site = teamSite();
    const owners = await Promise.all(['ca', 'cb', 'cc', 'cd'].map((n) => player(n)));
    const play = () => {
      const socks = owners.map((o) => site.sock(o));
      const seats = socks.map((s) => ({ owner: s.conn.owner, player: s.conn.player, handling: H }));
      return site.lobby.startRanked({ ...TEAM_SET, seats, peers: socks.map((s) => s.conn) });
    };
    for (let i = 0; i < ROOM_LIMITS.startsPerHour.player; i++) expect(play()).toEqual({ ok: true });
    expect(play()).toMatchObject({ ok: false });
    site.lobby.close(); // the sets end (unstored): the players are free again, but for their budget
    // The queue says so before a player waits for a match it could not start.
    const s = site.sock(owners[0]!);
    await site.say(s, { t: 'tqueue', handling: H });
    expect(s.last('error')).toMatchObject({ code: 'rate_limited' });
    site.clock.advance(3_600_000);
    expect(play()).toEqual({ ok: true });
    // Rooms people make leave room for ranked sets: with as many open as may be made, a set still starts.
    site.lobby.close();
    const maker = (i: number) => socket(site.lobby, { userId: null, guestId: `g${i}` }, site.clock.now, { address: `10.7.${i >> 8}.${i & 255}` });
    for (let i = 0; i <= ROOM_LIMITS.madeRoomsPerInstance; i++) maker(i).say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: H });
    expect(site.lobby.rooms.size).toBe(ROOM_LIMITS.madeRoomsPerInstance);
    site.clock.advance(3_600_000);
    expect(play()).toEqual({ ok: true });
    // An instance holding as many rooms as it can starts no ranked set either.
    for (let i = 0; site.lobby.rooms.size < ROOM_LIMITS.roomsPerInstance; i++) {
      site.clock.advance(3_600_000);
      expect(play()).toEqual({ ok: true });
    }
    site.clock.advance(3_600_000);
    expect(play()).toMatchObject({ ok: false, refused: { length: 4 } });
  });
});

describe('the instance\'s rooms, ranked sets and rooms people make together', () => {
  it('never pass ROOM_LIMITS.roomsPerInstance: with more ranked sets in play than are kept for them, fewer rooms may be made', async () => {
    const site = teamSite();
    const owners = await Promise.all(['ta', 'tb', 'tc', 'td'].map((n) => player(n)));
    const play = () => {
      site.clock.advance(3_600_000);
      const socks = owners.map((o) => site.sock(o));
      return site.lobby.startRanked({ ...TEAM_SET, seats: socks.map((s) => ({ owner: s.conn.owner, player: s.conn.player, handling: H })), peers: socks.map((s) => s.conn) });
    };
    const sets = ROOM_LIMITS.roomsPerInstance - ROOM_LIMITS.madeRoomsPerInstance + 50;
    for (let i = 0; i < sets; i++) expect(play()).toEqual({ ok: true });
    for (let i = 0; i < ROOM_LIMITS.madeRoomsPerInstance; i++) {
      socket(site.lobby, { userId: null, guestId: `m${i}` }, site.clock.now, { address: `10.8.${i >> 8}.${i & 255}` }).say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: H });
    }
    expect(site.lobby.rooms.size).toBe(ROOM_LIMITS.roomsPerInstance);
  });
});

describe('a socket in the 2v2 queue or a party, and rooms', () => {
  it('is refused a room (make, join, take up a seat) while it waits, with a clear error; the match then starts for all four', async () => {
    const site = teamSite();
    const [a, b, c, d, host] = await Promise.all(['qa', 'qb', 'qc', 'qd', 'qh'].map((n) => player(n)));
    const [sa, sb, sc, sd, sh] = [a, b, c, d, host].map((o) => site.sock(o!)) as [Sock, Sock, Sock, Sock, Sock];
    sh.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: H });
    const code = sh.last('rroom')!.code;
    await site.say(sa, { t: 'tparty', handling: H });
    await site.say(sb, { t: 'tqueue', handling: H });
    for (const s of [sa, sb]) {
      s.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: H });
      s.say({ t: 'rjoin', code, handling: H });
      s.say({ t: 'rresume', matchId: 'aaaaaaaaaaaa', token: 'x'.repeat(16) });
      expect(s.of('error').map((e) => [e.code, e.message])).toEqual(Array(3).fill(['already_playing', expect.stringContaining('2v2')]));
    }
    expect(site.lobby.rooms.size).toBe(1);
    await site.say(sa, { t: 'tleave' });
    await site.say(sa, { t: 'tqueue', handling: H });
    for (const s of [sc, sd]) await site.say(s, { t: 'tqueue', handling: H });
    for (const s of [sa, sb, sc, sd]) expect(s.last('rmatch')).toBeDefined();
  });

  it('a match one unit cannot start: that unit is out, told why; the others wait on as long as they had waited', async () => {
    const ratings: Record<string, number> = {};
    const site = teamSite(ratings);
    const [a, b, c, d, e] = await Promise.all(['ra', 'rb', 'rc', 'rd', 're'].map((n) => player(n)));
    ratings[e!.userId!] = 2100;
    // a has one room set start left this hour when it queues; another tab then spends it.
    const fillers = await Promise.all(['f1', 'f2', 'f3'].map((n) => player(n)));
    const start = () => {
      const socks = [a!, ...fillers].map((o) => site.sock(o));
      return site.lobby.startRanked({ ...TEAM_SET, seats: socks.map((s) => ({ owner: s.conn.owner, player: s.conn.player, handling: H })), peers: socks.map((s) => s.conn) });
    };
    for (let i = 1; i < ROOM_LIMITS.startsPerHour.player; i++) expect(start()).toEqual({ ok: true });
    site.lobby.close();
    const [sa, sb] = [site.sock(a!), site.sock(b!)];
    await site.say(sa, { t: 'tqueue', handling: H });
    await site.say(sb, { t: 'tqueue', handling: H });
    expect(start()).toEqual({ ok: true });
    site.lobby.close();
    site.clock.advance(MATCHMAKING.anyoneAfterMs);
    const [sc, sd] = [site.sock(c!), site.sock(d!)];
    for (const s of [sc, sd]) await site.say(s, { t: 'tqueue', handling: H });
    expect(sa.last('tunqueued')).toEqual({ t: 'tunqueued', reason: 'refused' });
    expect(sa.last('error')).toMatchObject({ code: 'rate_limited' });
    for (const s of [sb, sc, sd]) expect([s.last('tunqueued'), s.last('rmatch')]).toEqual([undefined, undefined]);
    expect(site.queue.waiting).toBe(3);
    // b has waited past anyoneAfterMs: anyone will do, even e, 600 above it.
    const se = site.sock(e!);
    await site.say(se, { t: 'tqueue', handling: H });
    for (const s of [sb, sc, sd, se]) expect(s.last('rmatch')).toBeDefined();
  });

  // An account is checked busy when it queues; it may start a ranked game elsewhere while it waits.
  it('a unit whose player plays a ranked set from another tab by the time its match starts is out, told so; the others wait on', async () => {
    const site = teamSite();
    const [a, b, c, d] = await Promise.all(['ya', 'yb', 'yc', 'yd'].map((n) => player(n)));
    const fillers = await Promise.all(['y1', 'y2', 'y3'].map((n) => player(n)));
    const [sa, sb] = [site.sock(a!), site.sock(b!)];
    for (const s of [sa, sb]) await site.say(s, { t: 'tqueue', handling: H });
    const tab = [a!, ...fillers].map((o) => site.sock(o));
    expect(site.lobby.startRanked({ ...TEAM_SET, seats: tab.map((s) => ({ owner: s.conn.owner, player: s.conn.player, handling: H })), peers: tab.map((s) => s.conn) })).toEqual({ ok: true });
    const [sc, sd] = [site.sock(c!), site.sock(d!)];
    for (const s of [sc, sd]) await site.say(s, { t: 'tqueue', handling: H });
    expect(site.lobby.playsRanked(a!.userId!)).toBe(true);
    expect(sa.last('rmatch')).toBeUndefined();
    expect(sa.last('tunqueued')).toEqual({ t: 'tunqueued', reason: 'refused' });
    for (const s of [sb, sc, sd]) expect([s.last('tunqueued'), s.last('rmatch')]).toEqual([undefined, undefined]);
    expect(site.queue.waiting).toBe(3);
  });

  it('a seat taken up on a second tab is no longer the first tab\'s: its leave leaves nothing', async () => {
    const site = teamSite();
    const owners = await Promise.all(['ta', 'tb', 'tc', 'td'].map((n) => player(n)));
    const socks = owners.map((o) => site.sock(o));
    for (const s of socks) await site.say(s, { t: 'tqueue', handling: H });
    const m = socks[0]!.last('rmatch')!;
    const tab = site.sock(owners[0]!);
    tab.say({ t: 'rresume', matchId: m.matchId, token: m.resumeToken! });
    expect(tab.last('rresumed')).toBeDefined();
    socks[0]!.say({ t: 'rleave', code: m.code });
    expect(socks[0]!.last('error')).toMatchObject({ code: 'unknown_room' });
    expect(site.lobby.matches.get(m.matchId)!.seats[m.seat!]!.leftRoom).toBe(false);
  });
});
