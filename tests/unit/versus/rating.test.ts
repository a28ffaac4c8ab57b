import { Glicko2 } from 'glicko2';
import { describe, expect, it } from 'vitest';
import { expectedScore, isProvisional, NEW_PLAYER_RATING, PLACEMENT_MATCHES, PROVISIONAL_RD, rateMatch, RATING_SETTINGS } from '@/lib/server/versus/rating';

describe('versus rating (Glicko-2 through the glicko2 package)', () => {
  it('the package reproduces the worked example of Glickman’s paper (1500/200 → 1464.06/151.52)', () => {
    const system = new Glicko2({ tau: 0.5, rating: 1500, rd: 200, vol: 0.06 });
    const me = system.makePlayer(1500, 200, 0.06);
    const a = system.makePlayer(1400, 30, 0.06);
    const b = system.makePlayer(1550, 100, 0.06);
    const c = system.makePlayer(1700, 300, 0.06);
    system.updateRatings([[me, a, 1], [me, b, 0], [me, c, 0]]);
    expect(me.getRating()).toBeCloseTo(1464.06, 1);
    expect(me.getRd()).toBeCloseTo(151.52, 1);
    expect(me.getVol()).toBeCloseTo(0.05999, 4);
  });

  it('a match is one rating period with the set winner scoring 1, exactly as the package computes it', () => {
    const winner = { rating: 1620, rd: 80, vol: 0.06 };
    const loser = { rating: 1580, rd: 140, vol: 0.061 };
    const system = new Glicko2(RATING_SETTINGS);
    const w = system.makePlayer(winner.rating, winner.rd, winner.vol);
    const l = system.makePlayer(loser.rating, loser.rd, loser.vol);
    system.updateRatings([[w, l, 1]]);
    const got = rateMatch(winner, loser);
    expect(got.winner).toEqual({ rating: w.getRating(), rd: w.getRd(), vol: w.getVol() });
    expect(got.loser).toEqual({ rating: l.getRating(), rd: l.getRd(), vol: l.getVol() });
    expect(got.winner.rating).toBeGreaterThan(winner.rating);
    expect(got.loser.rating).toBeLessThan(loser.rating);
  });

  it('new players start at 1500 and are provisional until both their placement matches are played and their deviation is at most 110', () => {
    expect(NEW_PLAYER_RATING).toEqual({ rating: 1500, rd: 350, vol: 0.06 });
    expect(isProvisional({ ...NEW_PLAYER_RATING, matches: 0 })).toBe(true);
    let a = { ...NEW_PLAYER_RATING };
    let b = { ...NEW_PLAYER_RATING };
    let matches = 0;
    // Two evenly matched newcomers who win in turn: each result tells the system a lot.
    for (; isProvisional({ rd: a.rd, matches }) && matches < 100; matches++) {
      // Placement over, the deviation not yet settled: still provisional.
      if (matches === PLACEMENT_MATCHES) expect(a.rd).toBeGreaterThan(PROVISIONAL_RD);
      const r = rateMatch(a, b);
      [a, b] = [r.loser, r.winner];
    }
    expect(matches).toBeGreaterThan(PLACEMENT_MATCHES);
    expect(matches).toBeLessThan(30);
    expect(a.rd).toBeLessThanOrEqual(PROVISIONAL_RD);
  });

  it('a draw between equals changes neither rating, and the favourite is expected to win', () => {
    const { winner, loser } = rateMatch(NEW_PLAYER_RATING, NEW_PLAYER_RATING, true);
    expect(winner.rating).toBeCloseTo(1500, 6);
    expect(loser.rating).toBeCloseTo(1500, 6);
    expect(expectedScore({ rating: 1800, rd: 60, vol: 0.06 }, { rating: 1500, rd: 60, vol: 0.06 })).toBeGreaterThan(0.8);
  });
});
