import { beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { getVersusBoard } from '@/lib/server/versus/boards';
import { getMatchHistory, getRatingHistory } from '@/lib/server/versus/history';
import { getStoredMatch } from '@/lib/server/versus/matches';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { historyCursorSchema } from '@/lib/validations/versus';
import { resetDb } from '@/tests/data/db';
import { minutes, player, T0 } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

function botMatch(seed: string): VersusMatchRecord {
  const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4 })]);
  return recordOf(match, seed, 'battle');
}
const rec = botMatch('records-1');

beforeEach(resetDb);

describe('versus records', () => {
  it('match history pages newest first, keyset by time and id: matches stored in the same millisecond are neither lost nor repeated', async () => {
    const [alice, bob] = [await player('alice'), await player('bob')];
    // Five matches, two pairs of them at the same instant.
    const times = [T0, minutes(1), minutes(1), minutes(2), minutes(2)];
    for (const [i, now] of times.entries()) await storeMatch({ matchId: `m${i}`, record: rec, seats: i % 2 ? [bob, alice] : [alice, bob], ranked: true, now });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const after = cursor ? historyCursorSchema.parse(cursor) : undefined;
      const page = await getMatchHistory({ userId: alice.userId!, limit: 2, after });
      seen.push(...page.entries.map((e) => e.matchId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['m4', 'm3', 'm2', 'm1', 'm0']);
    // Bob's history names Alice and the score from his seat.
    const bobs = await getMatchHistory({ userId: bob.userId!, limit: 1 });
    expect(bobs.entries[0]).toMatchObject({ matchId: 'm4', opponent: { username: 'alice' } });
    expect(bobs.entries[0]!.score.toReversed()).toEqual((await getMatchHistory({ userId: alice.userId!, limit: 1 })).entries[0]!.score);
  });

  it('rating history: ranked matches of one mode, oldest first, each before equal to the one before’s after', async () => {
    const [alice, bob] = [await player('alice'), await player('bob')];
    for (let i = 0; i < 4; i++) await storeMatch({ matchId: `r${i}`, record: rec, seats: [alice, bob], ranked: true, now: minutes(i) });
    await storeMatch({ matchId: 'u1', record: rec, seats: [alice, bob], ranked: false, now: minutes(9) });
    const points = await getRatingHistory({ userId: alice.userId!, mode: 'battle', limit: 10 });
    expect(points.map((p) => p.matchId)).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(points[0]!.before).toBe(1500);
    for (let i = 1; i < points.length; i++) expect(points[i]!.before).toBe(points[i - 1]!.after);
    expect((await getRatingHistory({ userId: alice.userId!, mode: 'battle', limit: 2 })).map((p) => p.matchId)).toEqual(['r2', 'r3']);
    expect(await getRatingHistory({ userId: alice.userId!, mode: 'race30', limit: 10 })).toEqual([]);
  });

  it('a stored match reads back with both seats, ratings and every game’s replays and end hashes', async () => {
    const [alice, bob] = [await player('alice'), await player('bob')];
    const stored = await storeMatch({ matchId: 'm1', record: rec, seats: [alice, bob], ranked: true, now: T0 });
    if (!stored.ok || !stored.ratings) throw new Error('not stored');
    const match = await getStoredMatch({ matchId: 'm1' });
    expect(match).toMatchObject({ id: 'm1', mode: 'battle', ranked: true, firstTo: 2, winnerSeat: rec.winnerSeat, playedAt: T0.toISOString() });
    expect(match!.seats.map((s) => s.player?.username)).toEqual(['alice', 'bob']);
    expect(match!.seats[0].rating).toEqual({ before: 1500, after: stored.ratings[0].after.rating, rdBefore: 350, rdAfter: stored.ratings[0].after.rd, matchesBefore: 0, matchesAfter: 1 });
    expect(match!.games.map((g) => g.replays)).toEqual(rec.games.map((g) => g.replays));
    expect(match!.games.every((g) => g.hashes.every((h) => h.length > 0))).toBe(true);
    expect(await getStoredMatch({ matchId: 'nope' })).toBeNull();
  });

  it('one call for either board of a mode', async () => {
    const [alice, bob] = [await player('alice'), await player('bob')];
    await storeMatch({ matchId: 'm1', record: rec, seats: [alice, bob], ranked: true, now: new Date() });
    const wins = await getVersusBoard({ mode: 'battle', board: 'wins', limit: 5, viewerId: alice.userId });
    expect(wins).toMatchObject({ board: 'wins', rows: [{ rank: 1, wins: 1 }] });
    // Both are provisional after one match: off the rating board, their own row says so.
    const rating = await getVersusBoard({ mode: 'battle', board: 'rating', limit: 5, viewerId: alice.userId });
    expect(rating).toMatchObject({ board: 'rating', rows: [], me: { rank: null, provisional: true } });
  });
});
