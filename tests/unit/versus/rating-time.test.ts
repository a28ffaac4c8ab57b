import { Glicko2 } from 'glicko2';
import { describe, expect, it } from 'vitest';
import { idlePeriods, isProvisional, NEW_PLAYER_RATING, placementOf, rateMatch, RATING_SETTINGS, RATING_TIME, ratingAt } from '@/lib/server/versus/rating';

const T0 = new Date('2026-03-01T12:00:00Z');
const days = (n: number, from = T0) => new Date(from.getTime() + n * RATING_TIME.dayMs);

/**
 * An independent computation of the same thing: the package's own rating period for a player who
 * did not compete (its step 6, φ* = √(φ² + σ²)), run once per idle period.
 */
function packageIdle(r: { rating: number; rd: number; vol: number }, periods: number): number {
  const system = new Glicko2(RATING_SETTINGS);
  const p = system.makePlayer(r.rating, r.rd, r.vol);
  for (let i = 0; i < periods; i++) system.updateRatings([]);
  return p.getRd();
}

describe('time away grows the deviation (Glicko-2 pre-rating-period step, one per idle day past a week)', () => {
  const settled = { rating: 1712.5, rd: 50, vol: 0.06 };

  it('30 days idle from RD 50, σ 0.06: 23 periods, RD 70.7017 as worked by hand from the paper', () => {
    // φ = 50 / 173.7178 = 0.287823; φ² = 0.082842; 23 σ² = 23 × 0.0036 = 0.0828;
    // √(0.082842 + 0.0828) = 0.406991; × 173.7178 = 70.7017.
    expect(idlePeriods(T0, days(30))).toBe(23);
    const now = ratingAt(settled, T0, days(30));
    expect(now.rd).toBeCloseTo(70.7017, 4);
    expect(now.rating).toBe(settled.rating);
    expect(now.vol).toBe(settled.vol);
  });

  it('120 periods from RD 50 give 124.6469, the figure computed for the paper’s formula elsewhere', () => {
    expect(ratingAt(settled, T0, days(127)).rd).toBeCloseTo(124.6469, 4);
  });

  it('agrees with the package’s own idle periods after 0, 7, 8, 30 and 365 days', () => {
    for (const [idle, periods] of [[0, 0], [7, 0], [8, 1], [30, 23], [365, 358]] as const) {
      expect(idlePeriods(T0, days(idle))).toBe(periods);
      expect(ratingAt(settled, T0, days(idle)).rd).toBeCloseTo(packageIdle(settled, periods), 9);
    }
  });

  it('no growth inside the grace week, up to its last millisecond; whole days only after it', () => {
    expect(ratingAt(settled, T0, days(7))).toEqual(settled);
    expect(ratingAt(settled, T0, new Date(days(8).getTime() - 1))).toEqual(settled);
    // A clock that reads earlier than the last match (two servers) grows nothing either.
    expect(ratingAt(settled, T0, days(-3))).toEqual(settled);
    const oneDay = ratingAt(settled, T0, days(8)).rd;
    expect(oneDay).toBeCloseTo(Math.sqrt((50 / 173.7178) ** 2 + 0.06 ** 2) * 173.7178, 9);
    expect(ratingAt(settled, T0, new Date(days(9).getTime() - 1)).rd).toBe(oneDay);
  });

  it('never grows past a new player’s deviation, 350', () => {
    expect(ratingAt({ rating: 1500, rd: 300, vol: 0.09 }, T0, days(3 * 365)).rd).toBe(RATING_SETTINGS.rd);
    expect(ratingAt(NEW_PLAYER_RATING, T0, days(400))).toEqual(NEW_PLAYER_RATING);
  });

  it('a match started after time away is rated from the grown deviation, so it moves the rating more', () => {
    const opponent = { rating: 1700, rd: 60, vol: 0.06 };
    const fresh = rateMatch(settled, opponent).winner;
    const back = rateMatch(ratingAt(settled, T0, days(200)), opponent).winner;
    expect(back.rating - settled.rating).toBeGreaterThan(fresh.rating - settled.rating);
  });
});

describe('provisional: the placement matches, and a settled deviation', () => {
  it('provisional until 10 rated matches and RD at most 110, both', () => {
    expect(isProvisional({ rd: 80, matches: 9 })).toBe(true);
    expect(isProvisional({ rd: 80, matches: 10 })).toBe(false);
    expect(isProvisional({ rd: 110, matches: 10 })).toBe(false);
    expect(isProvisional({ rd: 110.01, matches: 40 })).toBe(true);
  });

  it('placement counts the rated matches played, then ends', () => {
    expect(placementOf(0)).toEqual({ played: 0, of: 10 });
    expect(placementOf(3)).toEqual({ played: 3, of: 10 });
    expect(placementOf(10)).toBeNull();
  });

  it('a settled player away long enough is provisional again: RD 80 crosses 110 after 53 idle periods', () => {
    const r = { rating: 1600, rd: 80, vol: 0.06 };
    expect(isProvisional({ rd: ratingAt(r, T0, days(7 + 52)).rd, matches: 30 })).toBe(false);
    expect(isProvisional({ rd: ratingAt(r, T0, days(7 + 53)).rd, matches: 30 })).toBe(true);
  });
});
