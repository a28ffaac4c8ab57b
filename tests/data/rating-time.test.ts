import { beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { CONSOLE } from '@/lib/server/moderation/audit';
import { getRatingBoard, getVersusRating } from '@/lib/server/versus/boards';
import { getStoredMatch } from '@/lib/server/versus/matches';
import { isProvisional, rateMatch, ratingAt, RATING_TIME, storedRating, type Rating } from '@/lib/server/versus/rating';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf } from '@/lib/server/versus/verify';
import { voidMatch } from '@/lib/server/versus/void';
import { seasonAt } from '@/lib/versus/seasons';
import { resetDb } from '@/tests/data/db';
import { player, T0 } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

const days = (n: number, from = T0) => new Date(from.getTime() + n * RATING_TIME.dayMs);
const SCALE = 173.7178;

/** Seat 0 wins: a bot that makes fewer mistakes against a slower one. */
function botMatch(seed: string) {
  const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4 })]);
  return recordOf(match, seed, 'battle');
}
const record = botMatch('idle-1');

/**
 * The rows start in the season of these tests' latest match, so no season's end resets them on
 * the way (that is tests/data/seasons.test.ts): what moves here is time away alone.
 */
const SEASON = seasonAt(days(107)).number;

async function rated(name: string, r: Rating & { matches: number; ratedAt: Date }): Promise<string> {
  const userId = (await player(name)).userId!;
  await (await getDb()).versusRating.create({ data: { userId, mode: 'battle', ...r, wins: Math.floor(r.matches / 2), updatedAt: r.ratedAt, season: SEASON } });
  return userId;
}

beforeEach(resetDb);

describe('time away on the stored ratings', () => {
  it('a player idle for 100 days is read with the grown RD everywhere, and enters the next match with it', async () => {
    const ann = await rated('ann', { rating: 1720, rd: 60, vol: 0.06, matches: 30, ratedAt: T0 });
    const ben = await rated('ben', { rating: 1650, rd: 70, vol: 0.06, matches: 30, ratedAt: days(99) });
    const now = days(100);
    expect(record.winnerSeat).toBe(0);
    // 100 days idle, the first 7 free: 93 periods, each φ² + σ², worked out here from the paper:
    // (60 / 173.7178)² = 0.119294, 93 × 0.06² = 0.3348, √0.454094 = 0.673865, × 173.7178 = 117.06.
    const grown = Math.sqrt((60 / SCALE) ** 2 + 93 * 0.06 ** 2) * SCALE;
    expect(grown).toBeCloseTo(117.06, 2);

    // A day after her last match Ann leads the board; at 100 days her RD is past 110 again.
    expect((await getRatingBoard({ mode: 'battle', limit: 10, now: days(1) })).rows.map((r) => [r.player.username, r.rd])).toEqual([['ann', 60], ['ben', 70]]);
    const profile = await getVersusRating({ userId: ann, mode: 'battle', now });
    expect(profile).toMatchObject({ rating: 1720, matches: 30, provisional: true, placement: null });
    expect(profile.rd).toBeCloseTo(grown, 9);
    const board = await getRatingBoard({ mode: 'battle', limit: 10, viewerId: ann, now });
    expect(board.rows.map((r) => [r.rank, r.player.username])).toEqual([[1, 'ben']]);
    expect(board.me).toMatchObject({ rank: null, provisional: true, rating: 1720 });
    expect(board.me!.rd).toBe(profile.rd);
    // Ben played the day before: nothing grew.
    expect((await getVersusRating({ userId: ben, mode: 'battle', now })).rd).toBe(70);

    const out = await storeMatch({ matchId: 'back', record, seats: [{ userId: ann, guestId: null }, { userId: ben, guestId: null }], ranked: true, now });
    expect(out.ok && out.ratings?.[0].before).toEqual(storedRating({ rating: 1720, rd: profile.rd, vol: 0.06 }));
    const seat = (await getStoredMatch({ matchId: 'back' }))!.seats[0].rating!;
    expect(seat.rdBefore).toBe(storedRating({ ...profile, vol: 0.06 }).rd);
    expect(seat).toMatchObject({ before: 1720, matchesBefore: 30, matchesAfter: 31 });
    // Rated from the grown deviation, exactly as the package rates it.
    const expected = storedRating(rateMatch({ rating: 1720, rd: seat.rdBefore, vol: 0.06 }, { rating: 1650, rd: 70, vol: 0.06 }).winner);
    expect(seat.after).toBe(expected.rating);
    // The match restarts the idle clock: read just after, nothing has grown.
    const after = await getVersusRating({ userId: ann, mode: 'battle', now: days(107) });
    expect(after).toMatchObject({ rating: expected.rating, rd: expected.rd, matches: 31 });
  });

  it('a void takes the match back but not the idle clock: the rating it restores is as of that match', async () => {
    const ann = await rated('ann', { rating: 1720, rd: 60, vol: 0.06, matches: 30, ratedAt: T0 });
    const ben = await rated('ben', { rating: 1650, rd: 70, vol: 0.06, matches: 30, ratedAt: T0 });
    await storeMatch({ matchId: 'm', record, seats: [{ userId: ann, guestId: null }, { userId: ben, guestId: null }], ranked: true, now: days(40) });
    const seat = (await getStoredMatch({ matchId: 'm' }))!.seats[0].rating!;
    expect(await voidMatch({ matchId: 'm', reason: 'test', actor: CONSOLE, now: days(45) })).toEqual({ ok: true, changed: true });
    const row = await (await getDb()).versusRating.findUniqueOrThrow({ where: { userId_mode: { userId: ann, mode: 'battle' } } });
    expect(row).toMatchObject({ matches: 30, ratedAt: days(40), updatedAt: days(45) });
    expect(row.rd).toBeCloseTo(seat.rdBefore, 9);
    expect((await getVersusRating({ userId: ann, mode: 'battle', now: days(45) })).rd).toBeCloseTo(seat.rdBefore, 9);
  });

  it('the board’s filter and rank agree with the profile’s rule, row by row, near the line too', async () => {
    // A seeded spread of deviations, volatilities and idle times around RD 110, some within a
    // millisecond of the day a row crosses it.
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const now = days(300);
    const rows: Array<{ name: string; id: string; r: Rating; matches: number; ratedAt: Date }> = [];
    for (let i = 0; i < 36; i++) {
      const r = { rating: 1400 + Math.round(random() * 6000) / 10, rd: 60 + Math.round(random() * 5000) / 100, vol: 0.04 + Math.round(random() * 500) / 10_000 };
      const matches = i % 5 === 4 ? 9 : 10 + Math.floor(random() * 3);
      // Days to the first period past 110, from the same sum as ratingAt: the crossing day itself or one either side.
      const periods = Math.ceil(((110 / SCALE) ** 2 - (r.rd / SCALE) ** 2) / r.vol ** 2);
      const idleDays = i % 3 === 0 ? Math.floor(random() * 200) : RATING_TIME.idleGraceDays + periods + (i % 3) - 2;
      const ratedAt = new Date(now.getTime() - idleDays * RATING_TIME.dayMs - (i % 2 === 0 ? 0 : RATING_TIME.dayMs - 1));
      rows.push({ name: `p${i}`, id: await rated(`p${i}`, { ...r, matches, ratedAt }), r, matches, ratedAt });
    }
    const established = rows
      .filter((x) => !isProvisional({ rd: ratingAt(x.r, x.ratedAt, now).rd, matches: x.matches }))
      .sort((a, b) => b.r.rating - a.r.rating || (a.id < b.id ? -1 : 1));
    expect(established.length).toBeGreaterThan(5);
    expect(established.length).toBeLessThan(rows.length - 5);
    const board = await getRatingBoard({ mode: 'battle', limit: 100, now });
    expect(board.rows.map((r) => r.player.username)).toEqual(established.map((x) => x.name));
    for (const line of board.rows) {
      const x = rows.find((y) => y.name === line.player.username)!;
      expect(line.rd).toBe(ratingAt(x.r, x.ratedAt, now).rd);
    }
    for (const x of rows.slice(0, 8)) {
      const me = (await getRatingBoard({ mode: 'battle', limit: 1, viewerId: x.id, now })).me!;
      const rank = established.findIndex((y) => y.id === x.id);
      expect([x.name, me.rank]).toEqual([x.name, rank === -1 ? null : rank + 1]);
      expect(me.rd).toBe((await getVersusRating({ userId: x.id, mode: 'battle', now })).rd);
    }
  });
});
