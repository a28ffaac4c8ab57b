import { beforeEach, describe, expect, it } from 'vitest';
import { decodeReplay, encodeReplay, VersusMatch } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { getRatingBoard, getVersusRating, getWeeklyWinsBoard, InvalidCursorError } from '@/lib/server/versus/boards';
import { guestTag } from '@/lib/server/games/guest-tag';
import { getMatchHistory } from '@/lib/server/versus/history';
import { getStoredMatch } from '@/lib/server/versus/matches';
import { NEW_PLAYER_RATING, rateMatch, storedRating } from '@/lib/server/versus/rating';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { resetDb } from '@/tests/data/db';
import { minutes, player, T0 } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

function botMatch(seed: string): VersusMatchRecord {
  const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4 })]);
  return recordOf(match, seed, 'battle');
}
const records = ['data-1', 'data-2', 'data-3'].map(botMatch);
const rec = records[0]!;

beforeEach(resetDb);

describe('storing a versus match', () => {
  it('stores the match, both seats and every game’s replays, and moves both ratings as the package computes', async () => {
    const [alice, bob] = [await player('alice'), await player('bob')];
    const out = await storeMatch({ matchId: 'm1', record: rec, seats: [alice, bob], ranked: true, now: T0 });
    expect(out).toMatchObject({ ok: true, repeated: false });
    const db = await getDb();
    const match = await db.versusMatch.findUniqueOrThrow({ where: { id: 'm1' }, include: { seats: { orderBy: { seat: 'asc' } }, games: { orderBy: { index: 'asc' } } } });
    expect(match).toMatchObject({ mode: 'battle', ranked: true, firstTo: 2, winnerSeat: rec.winnerSeat, endReason: 'games', week: '2026-W47' });
    expect(match.games.map((g) => [g.replay0, g.replay1])).toEqual(rec.games.map((g) => g.replays));
    const rated = rateMatch(NEW_PLAYER_RATING, NEW_PLAYER_RATING);
    const expected = { winner: storedRating(rated.winner), loser: storedRating(rated.loser) };
    expect(expected.winner.rating).toBeCloseTo(rated.winner.rating, 8);
    const w = rec.winnerSeat;
    const winner = [alice, bob][w]!.userId!;
    const loser = [alice, bob][1 - w]!.userId!;
    expect(match.seats[w]).toMatchObject({ won: true, gamesWon: 2, ratingBefore: 1500, ratingAfter: expected.winner.rating, rdAfter: expected.winner.rd });
    expect(match.seats[1 - w]).toMatchObject({ won: false, ratingAfter: expected.loser.rating });
    expect(await getVersusRating({ userId: winner, mode: 'battle', now: T0 })).toEqual({
      rating: expected.winner.rating, rd: expected.winner.rd, matches: 1, wins: 1, provisional: true, placement: { played: 1, of: 10 }, band: null,
    });
    expect(await getVersusRating({ userId: loser, mode: 'battle', now: T0 })).toMatchObject({ rating: expected.loser.rating, matches: 1, wins: 0 });
    const wins = await getWeeklyWinsBoard({ mode: 'battle', limit: 10, now: minutes(1) });
    expect(wins.rows).toEqual([{ rank: 1, player: { id: winner, username: w === 0 ? 'alice' : 'bob' }, wins: 1, lastWinAt: T0.toISOString() }]);
    const history = await getMatchHistory({ userId: loser, limit: 10 });
    expect(history.nextCursor).toBeNull();
    expect(history.entries).toEqual([
      { matchId: 'm1', mode: 'battle', ranked: true, playedAt: T0.toISOString(), won: false, score: [match.seats[1 - w]!.gamesWon, 2], opponent: { id: winner, username: w === 0 ? 'alice' : 'bob' }, opponentTag: null, opponentBot: null, ratingBefore: 1500, ratingAfter: expected.loser.rating, noContest: false, voided: false },
    ]);
  });

  it('stores a retried match once: the same id again changes nothing', async () => {
    const [alice, bob] = [await player('alice'), await player('bob')];
    const store = () => storeMatch({ matchId: 'm1', record: rec, seats: [alice, bob], ranked: true, now: T0 });
    const results = await Promise.all([store(), store()]);
    expect(results.map((r) => r.ok && r.repeated).sort()).toEqual([false, true]);
    expect(await store()).toMatchObject({ ok: true, repeated: true });
    const db = await getDb();
    expect([await db.versusMatch.count(), await db.versusGame.count()]).toEqual([1, rec.games.length]);
    expect((await getVersusRating({ userId: alice.userId!, mode: 'battle' })).matches).toBe(1);
  });

  it('refuses a match its replays do not prove, and stores nothing of it', async () => {
    const [alice, bob] = [await player('alice'), await player('bob')];
    const g = rec.games[0]!;
    const r0 = decodeReplay(g.replays[0]);
    const forged = { ...rec, games: [{ ...g, replays: [encodeReplay({ ...r0, garbage: [{ tick: 0, size: 9 }, ...r0.garbage!] }), g.replays[1]] as [string, string] }, ...rec.games.slice(1)] };
    expect(await storeMatch({ matchId: 'bad', record: forged, seats: [alice, bob], ranked: true, now: T0 })).toMatchObject({ ok: false, code: 'garbage_mismatch' });
    expect(await storeMatch({ matchId: 'bad', record: { ...rec, winnerSeat: rec.winnerSeat === 0 ? 1 : 0 }, seats: [alice, bob], ranked: true })).toMatchObject({ ok: false, code: 'score_mismatch' });
    const db = await getDb();
    expect([await db.versusMatch.count(), await db.versusSeat.count(), await db.versusGame.count(), await db.versusRating.count()]).toEqual([0, 0, 0, 0]);
  });

  it('ranked needs two different accounts; an unranked match with a guest is stored and rates no one', async () => {
    const alice = await player('alice');
    const guest = { userId: null, guestId: 'guest-1' };
    expect(await storeMatch({ matchId: 'g1', record: rec, seats: [alice, guest], ranked: true })).toMatchObject({ ok: false, code: 'ranked_needs_accounts' });
    expect(await storeMatch({ matchId: 'g1', record: rec, seats: [alice, alice], ranked: true })).toMatchObject({ ok: false, code: 'ranked_needs_accounts' });
    expect(await storeMatch({ matchId: 'g1', record: rec, seats: [alice, guest], ranked: false, now: T0 })).toMatchObject({ ok: true, ratings: null });
    const db = await getDb();
    expect(await db.versusRating.count()).toBe(0);
    expect(await db.versusWeeklyWins.count()).toBe(0);
    expect((await getMatchHistory({ userId: alice.userId!, limit: 5 })).entries[0]).toMatchObject({ ranked: false, opponent: null, opponentTag: guestTag('guest-1'), ratingAfter: null });
    // The guest is named by its tag, never by its id (the cookie that owns its games).
    const stored = await getStoredMatch({ matchId: 'g1' });
    expect(stored?.seats.map((s) => s.guestTag)).toEqual([null, guestTag('guest-1')]);
    expect(JSON.stringify(stored)).not.toContain('guest-1');
  });

  it('a match against the sparring bot is stored with the bot’s seat as such, never ranked, and read back as the bot', async () => {
    const alice = await player('alice');
    const bot = { userId: null, guestId: null, bot: { pps: 4, style: 'attacker' as const } };
    expect(await storeMatch({ matchId: 'b1', record: rec, seats: [alice, bot], ranked: true })).toMatchObject({ ok: false, code: 'ranked_needs_accounts' });
    // A seat with no account, no guest and no bot is nobody's.
    expect(await storeMatch({ matchId: 'b1', record: rec, seats: [alice, { userId: null, guestId: null }], ranked: false })).toMatchObject({ ok: false, code: 'seat_without_owner' });
    expect(await storeMatch({ matchId: 'b1', record: rec, seats: [alice, bot], ranked: false, now: T0 })).toMatchObject({ ok: true, ratings: null });
    const stored = await getStoredMatch({ matchId: 'b1' });
    expect(stored?.seats.map((s) => [s.player?.username ?? null, s.guestTag, s.bot])).toEqual([['alice', null, null], [null, null, { pps: 4, style: 'attacker' }]]);
    expect((await getMatchHistory({ userId: alice.userId!, limit: 5 })).entries[0]).toMatchObject({ opponent: null, opponentTag: null, opponentBot: { pps: 4, style: 'attacker' } });
    expect(await (await getDb()).versusRating.count()).toBe(0);
  });

  it('two matches of the same player finishing at once both count: the ratings are updated one after the other', async () => {
    const [alice, bob, carol] = [await player('alice'), await player('bob'), await player('carol')];
    // Established players, so their rows exist and only the row lock keeps the updates apart.
    const db0 = await getDb();
    for (const p of [alice, bob, carol]) await db0.versusRating.create({ data: { userId: p.userId!, mode: 'battle', rating: 1500, rd: 90, vol: 0.06, matches: 30, wins: 15, updatedAt: T0, ratedAt: T0 } });
    await Promise.all([
      storeMatch({ matchId: 'a', record: records[1]!, seats: [alice, bob], ranked: true, now: T0 }),
      storeMatch({ matchId: 'b', record: records[2]!, seats: [alice, carol], ranked: true, now: T0 }),
    ]);
    const a = await getVersusRating({ userId: alice.userId!, mode: 'battle', now: T0 });
    expect(a.matches).toBe(32);
    const db = await getDb();
    const seats = await db.versusSeat.findMany({ where: { userId: alice.userId! }, orderBy: { rdAfter: 'desc' } });
    // The second update started from the first one's result.
    expect(seats[1]!.ratingBefore).toBe(seats[0]!.ratingAfter);
    expect(a.rating).toBe(seats[1]!.ratingAfter);
  });
});

describe('versus boards', () => {
  async function ratings(list: Array<[string, number, number, number?]>) {
    const db = await getDb();
    const ids: Record<string, string> = {};
    for (const [name, rating, rd, matches = 20] of list) {
      ids[name] = (await player(name)).userId!;
      await db.versusRating.create({ data: { userId: ids[name], mode: 'battle', rating, rd, vol: 0.06, matches, wins: 5, updatedAt: T0, ratedAt: T0 } });
    }
    return ids;
  }

  it('rating board: established players only, highest first, keyset pages, the viewer pinned (provisional: no rank)', async () => {
    // Dan's deviation is not settled; Gus has one placement match to go.
    const ids = await ratings([['ann', 1700, 60], ['ben', 1800, 60], ['cat', 1650, 90], ['dan', 1900, 200], ['eve', 1650, 100], ['fay', 1500, 80], ['gus', 2000, 60, 9]]);
    const first = await getRatingBoard({ mode: 'battle', limit: 2, viewerId: ids.fay, now: T0 });
    expect(first.rows.map((r) => [r.rank, r.player.username])).toEqual([[1, 'ben'], [2, 'ann']]);
    expect(first.me).toMatchObject({ rank: 5, provisional: false, player: { username: 'fay' } });
    const second = await getRatingBoard({ mode: 'battle', limit: 2, cursor: first.nextCursor!, now: T0 });
    const tie = [ids.cat!, ids.eve!].sort().map((id) => (id === ids.cat ? 'cat' : 'eve'));
    expect(second.rows.map((r) => [r.rank, r.player.username])).toEqual([[3, tie[0]], [4, tie[1]]]);
    const third = await getRatingBoard({ mode: 'battle', limit: 2, cursor: second.nextCursor!, now: T0 });
    expect(third.rows.map((r) => [r.rank, r.player.username])).toEqual([[5, 'fay']]);
    expect(third.nextCursor).toBeNull();
    expect((await getRatingBoard({ mode: 'battle', limit: 2, viewerId: ids.dan, now: T0 })).me).toMatchObject({ rank: null, provisional: true, placement: null });
    expect((await getRatingBoard({ mode: 'battle', limit: 2, viewerId: ids.gus, now: T0 })).me).toMatchObject({ rank: null, provisional: true, placement: { played: 9, of: 10 } });
    await expect(getRatingBoard({ mode: 'battle', limit: 2, cursor: first.nextCursor!.replace(/.$/, 'x') })).rejects.toThrow(InvalidCursorError);
    await expect(getRatingBoard({ mode: 'race30', limit: 2, cursor: first.nextCursor! })).rejects.toThrow(InvalidCursorError);
  });

  it('weekly wins board: most wins first, earlier last win on a tie, pages and pinned row', async () => {
    const db = await getDb();
    const names = ['ann', 'ben', 'cat', 'dan'];
    const ids = Object.fromEntries(await Promise.all(names.map(async (n) => [n, (await player(n)).userId!] as const)));
    const rows: Array<[string, number, number]> = [['ann', 3, 5], ['ben', 5, 9], ['cat', 3, 2], ['dan', 1, 1]];
    for (const [n, wins, at] of rows) await db.versusWeeklyWins.create({ data: { userId: ids[n]!, mode: 'battle', week: '2026-W47', wins, lastWinAt: minutes(at) } });
    await db.versusWeeklyWins.create({ data: { userId: ids.dan!, mode: 'battle', week: '2026-W46', wins: 50, lastWinAt: minutes(-10_000) } });
    const first = await getWeeklyWinsBoard({ mode: 'battle', limit: 3, viewerId: ids.ann, now: T0 });
    expect(first.week).toBe('2026-W47');
    expect(first.rows.map((r) => [r.rank, r.player.username, r.wins])).toEqual([[1, 'ben', 5], [2, 'cat', 3], [3, 'ann', 3]]);
    expect(first.me).toMatchObject({ rank: 3, wins: 3 }); // tied with cat, whose last win came first
    const second = await getWeeklyWinsBoard({ mode: 'battle', limit: 3, cursor: first.nextCursor!, now: T0 });
    expect(second.rows.map((r) => [r.rank, r.player.username])).toEqual([[4, 'dan']]);
    expect((await getWeeklyWinsBoard({ mode: 'battle', week: '2026-W46', limit: 3 })).rows.map((r) => r.wins)).toEqual([50]);
  });
});
