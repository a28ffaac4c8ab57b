import { beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { BAND_RULES, queueStanding, readBandEdges } from '@/lib/server/versus/bands';
import { getRatingBoard, getVersusRating } from '@/lib/server/versus/boards';
import { RATING_TIME } from '@/lib/server/versus/rating';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf } from '@/lib/server/versus/verify';
import { BAND_IDS, BANDS, bandOf, type BandEdges, type BandId } from '@/lib/versus/bands';
import { resetDb } from '@/tests/data/db';
import { T0 } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

const days = (n: number) => new Date(T0.getTime() - n * RATING_TIME.dayMs);
type Row = { rating: number; rd?: number; matches?: number; ratedAt?: Date; banned?: boolean };

/** Players with ratings in battle, straight into the tables (no password hashing: populations are large). */
async function population(rows: Row[], prefix = 'p'): Promise<void> {
  const db = await getDb();
  const users = rows.map((r, i) => ({ id: `${prefix}${i}`, username: `${prefix}${i}`, usernameKey: `${prefix}${i}`, bannedAt: r.banned ? T0 : null }));
  await db.user.createMany({ data: users });
  await db.versusRating.createMany({
    data: rows.map((r, i) => ({
      userId: `${prefix}${i}`, mode: 'battle', rating: r.rating, rd: r.rd ?? 60, vol: 0.06, matches: r.matches ?? 30, wins: 10, updatedAt: r.ratedAt ?? T0, ratedAt: r.ratedAt ?? T0,
    })),
  });
}

/** The rule worked out apart from the query: a band's edge is the lowest rating whose count at or above it fits the band's share. */
function expectedEdges(ratings: number[]): BandEdges {
  const n = ratings.length;
  const edge = (band: BandId) => {
    const fits = ratings.filter((r) => ratings.filter((o) => o >= r).length <= Math.floor((BANDS[band].topPerMille * n) / 1000));
    return fits.length ? Math.min(...fits) : Infinity;
  };
  return Object.fromEntries(BAND_IDS.map((b, i) => [b, i === 0 ? -Infinity : edge(b)])) as Record<BandId, number>;
}

const membersOf = (ratings: number[], edges: BandEdges) => ratings.map((r) => bandOf(r, edges));

beforeEach(resetDb);

describe('rank bands by percentile of the active established players', () => {
  it('places the edges of a synthetic population at each band’s share, and counts nobody else', async () => {
    // 300 active players, ratings spread unevenly with runs of ties.
    const active = Array.from({ length: 300 }, (_, i) => 1000 + ((i * 7919) % 97) * 10 + (i % 7 === 0 ? 0 : 0.25));
    // Each of these would top the mode if counted.
    const outside: Row[] = [
      ...Array.from({ length: 20 }, () => ({ rating: 3000, matches: 9 })), // placement not played
      ...Array.from({ length: 10 }, () => ({ rating: 3000, rd: 200 })), // deviation not settled
      ...Array.from({ length: 15 }, () => ({ rating: 3000, rd: 60, ratedAt: days(BAND_RULES.activeDays + 1) })), // established, not active
      ...Array.from({ length: 5 }, () => ({ rating: 3000, banned: true })),
    ];
    await population(active.map((rating, i) => ({ rating, ratedAt: days(i % BAND_RULES.activeDays) })));
    await population(outside, 'x');
    const edges = await readBandEdges({ mode: 'battle', now: T0 });
    expect(edges).toEqual(expectedEdges(active));
    // Each band holds at most its share; together the bands hold everyone.
    const bands = membersOf(active, edges);
    BAND_IDS.forEach((band, i) => {
      const atOrAbove = bands.filter((b) => BAND_IDS.indexOf(b) >= i).length;
      expect(atOrAbove).toBeLessThanOrEqual(Math.floor((BANDS[band].topPerMille * 300) / 1000));
    });
    expect(bands.filter((b) => b === 'grandmaster')).toHaveLength(3);
    // The other mode has nobody: every band above the lowest is out of reach.
    const race = await readBandEdges({ mode: 'race30', now: T0 });
    expect(BAND_IDS.map((b) => race[b])).toEqual([-Infinity, ...BAND_IDS.slice(1).map(() => Infinity)]);
  });

  it('players on one rating share a band: a tie across an edge drops the whole tie below it', async () => {
    const ratings = [2000, 1900, 1900, 1800, 1700, 1700, 1700, 1600, 1500, 1400];
    await population(ratings.map((rating) => ({ rating })));
    const edges = await readBandEdges({ mode: 'battle', now: T0 });
    // Of 10: Diamond (15 %) fits 1, Platinum (35 %) 3, Gold (60 %) 6 (but 7 are at 1700 or more), Silver (85 %) 8.
    expect(membersOf(ratings, edges)).toEqual(['diamond', 'platinum', 'platinum', 'gold', 'silver', 'silver', 'silver', 'silver', 'bronze', 'bronze']);
    expect([edges.grandmaster, edges.master, edges.diamond, edges.platinum, edges.gold, edges.silver]).toEqual([Infinity, Infinity, 2000, 1900, 1800, 1600]);
  });

  it('a tiny population fills only the bands it is large enough for', async () => {
    await population([{ rating: 1800 }]);
    const one = await readBandEdges({ mode: 'battle', now: T0 });
    // One player is not the top 1 %, nor the top 85 %: the lowest band.
    expect(bandOf(1800, one)).toBe('bronze');
    await resetDb();
    await population([1800, 1700, 1600, 1500, 1400, 1300, 1200].map((rating) => ({ rating })));
    // Seven: the first where the top 15 % is a whole player.
    expect(membersOf([1800, 1700, 1600, 1500, 1400, 1300, 1200], await readBandEdges({ mode: 'battle', now: T0 }))).toEqual([
      'diamond', 'platinum', 'gold', 'gold', 'silver', 'bronze', 'bronze',
    ]);
  });

  it('an established player who is not active still has a band, read against the active players’ edges', async () => {
    await population([{ rating: 1600 }, { rating: 1500 }, { rating: 2400, ratedAt: days(20) }]);
    const edges = await readBandEdges({ mode: 'battle', now: T0 });
    expect(edges).toEqual(expectedEdges([1600, 1500]));
    expect(bandOf(2400, edges)).toBe('gold');
  });

  it('the rating board and the profile show each established player’s band, a provisional one none', async () => {
    const ratings = [2000, 1900, 1900, 1800, 1700, 1700, 1700, 1600, 1500, 1400];
    await population([...ratings.map((rating) => ({ rating })), { rating: 2500, matches: 4 }]);
    const board = await getRatingBoard({ mode: 'battle', limit: 4, viewerId: 'p10', now: T0 });
    expect(board.rows.map((r) => [r.rating, r.band])).toEqual([[2000, 'diamond'], [1900, 'platinum'], [1900, 'platinum'], [1800, 'gold']]);
    expect(board.me).toMatchObject({ rank: null, provisional: true, band: null, placement: { played: 4, of: 10 } });
    const next = await getRatingBoard({ mode: 'battle', limit: 10, cursor: board.nextCursor!, viewerId: 'p9', now: T0 });
    expect(next.rows.map((r) => r.band)).toEqual(['silver', 'silver', 'silver', 'silver', 'bronze', 'bronze']);
    expect(next.me).toMatchObject({ rank: 10, band: 'bronze' });
    expect(await getVersusRating({ userId: 'p3', mode: 'battle', now: T0 })).toMatchObject({ rating: 1800, provisional: false, band: 'gold' });
    expect(await getVersusRating({ userId: 'p10', mode: 'battle', now: T0 })).toMatchObject({ provisional: true, band: null });
    // No rating yet in a mode: provisional, no band.
    expect(await getVersusRating({ userId: 'p0', mode: 'race30', now: T0 })).toMatchObject({ matches: 0, band: null });
  });

  it('a stored ranked match says each seat’s band before and after, none while provisional', async () => {
    const match = new VersusMatch({ mode: 'battle', seed: 'bands-1', handling: [HANDLING, HANDLING] });
    playMatch(match, [new VersusBot({ seed: 'bands-1/a', mistakes: 0.1 }), new VersusBot({ seed: 'bands-1/b', mistakes: 0.2, pace: 4 })]);
    const record = recordOf(match, 'bands-1', 'battle');
    expect(record.winnerSeat).toBe(0);
    await population([2000, 1900, 1900, 1800, 1700, 1700, 1700, 1600, 1500, 1400].map((rating) => ({ rating })));
    // Ann a point below Gold's edge (1800 of 11 active players); Ben in placement.
    await population([{ rating: 1799 }], 'ann');
    await population([{ rating: 1500, rd: 250, matches: 3 }], 'ben');
    const out = await storeMatch({ matchId: 'b1', record, seats: [{ userId: 'ann0', guestId: null }, { userId: 'ben0', guestId: null }], ranked: true, now: T0 });
    if (!out.ok || !out.ratings) throw new Error('not rated');
    expect(out.ratings[0].after.rating).toBeGreaterThan(1800);
    expect(out.ratings[0].bands).toEqual({ before: 'silver', after: 'gold' });
    expect(out.ratings[1].bands).toEqual({ before: null, after: null });
    expect(out.ratings[1].matches).toEqual({ before: 3, after: 4 });
  });

  it('the queue places every ranked player by the band their rating stands in, provisional ones too', async () => {
    await population([2000, 1900, 1900, 1800, 1700, 1700, 1700, 1600, 1500, 1400].map((rating) => ({ rating })));
    await population([{ rating: 1950, matches: 2 }], 'new');
    expect(await queueStanding({ userId: 'new0', mode: 'battle', now: T0 })).toEqual({ rating: 1950, band: 'platinum' });
    expect(await queueStanding({ userId: 'p3', mode: 'battle', now: T0 })).toEqual({ rating: 1800, band: 'gold' });
    // No rating yet in the mode: a new player's, in whatever band that stands.
    expect(await queueStanding({ userId: 'p3', mode: 'race30', now: T0 })).toEqual({ rating: 1500, band: 'bronze' });
  });
});

