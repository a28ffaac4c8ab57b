import { describe, expect, it } from 'vitest';
import { NEW_PLAYER_RATING, RATING_SETTINGS, type Rating } from '@/lib/server/versus/rating';
import { compositeOf, rateTeams } from '@/lib/server/versus/team-rating';
import { glicko2 } from '@/tests/support/glicko2';

const close = (got: Rating, want: Rating) => {
  expect(got.rating).toBeCloseTo(want.rating, 2);
  expect(got.rd).toBeCloseTo(want.rd, 2);
  expect(got.vol).toBeCloseTo(want.vol, 5);
};

describe('team ratings (ranked 2v2: Glicko-2 against a composite opponent)', () => {
  it('the independent Glicko-2 here reproduces the worked example of Glickman’s paper', () => {
    const got = glicko2({ rating: 1500, rd: 200, vol: 0.06 }, [
      { rating: 1400, rd: 30, score: 1 },
      { rating: 1550, rd: 100, score: 0 },
      { rating: 1700, rd: 300, score: 0 },
    ], 0.5);
    expect(got.rating).toBeCloseTo(1464.06, 1);
    expect(got.rd).toBeCloseTo(151.52, 1);
    expect(got.vol).toBeCloseTo(0.05999, 4);
  });

  it('each player moves as their team (its teamRating) in one game against the other team’s, equal to the independent computation', () => {
    const a: Rating[] = [{ rating: 1650, rd: 60, vol: 0.06 }, { rating: 1400, rd: 250, vol: 0.059 }];
    const b: Rating[] = [{ rating: 1550, rd: 90, vol: 0.061 }, { rating: 1500, rd: 120, vol: 0.06 }];
    // a's 1400 is 250 below its partner: counted at 1450, as matching counts it.
    expect(compositeOf(a)).toEqual({ rating: 1550, rd: 155 });
    expect(compositeOf(b)).toEqual({ rating: 1525, rd: 105 });
    // Each moves by what its team's game does to a player of the team's rating and its own deviation.
    const moved = (p: Rating, team: number, opponent: { rating: number; rd: number; score: number }) => {
      const g = glicko2({ ...p, rating: team }, [opponent], RATING_SETTINGS.tau);
      return { ...g, rating: p.rating + g.rating - team };
    };
    const [ta, tb] = rateTeams([a, b], 1);
    a.forEach((p, i) => close(ta[i]!, moved(p, 1550, { rating: 1525, rd: 105, score: 0 })));
    b.forEach((p, i) => close(tb[i]!, moved(p, 1525, { rating: 1550, rd: 155, score: 1 })));
    // The newcomer on the losing side (wide deviation) loses far more than their settled partner.
    expect(a[1]!.rating - ta[1]!.rating).toBeGreaterThan(3 * (a[0]!.rating - ta[0]!.rating));
    expect(tb.every((p, i) => p.rating > b[i]!.rating)).toBe(true);
  });

  // Matching puts a 2200 with a 1000 partner against 2100 teams: rated as a 1600 team, its
  // opponents lost much and won little against it, and the carried partner won much and lost nothing.
  it('a lopsided pair is rated at the strength it is matched at: fair for its opponents and for its weaker player', () => {
    const at = (rating: number): Rating => ({ rating, rd: 80, vol: 0.06 });
    const pair = [at(2200), at(1000)];
    const even = [at(2100), at(2100)];
    const lossToPair = 2100 - rateTeams([pair, even], 0)[1][0]!.rating;
    const winOverEven = rateTeams([even, even], 1)[1][0]!.rating - 2100;
    expect(lossToPair).toBeGreaterThan(0);
    expect(Math.abs(lossToPair / winOverEven - 1)).toBeLessThan(0.1);
    const altWins = rateTeams([pair, even], 0)[0][1]!.rating - 1000;
    const altLoses = 1000 - rateTeams([pair, even], 1)[0][1]!.rating;
    expect(altLoses).toBeGreaterThan(0);
    expect(Math.abs(altWins / altLoses - 1)).toBeLessThan(0.1);
  });

  it('a draw between equal teams leaves every rating where it was; a team of one is the 1v1 update', () => {
    const [x, y] = rateTeams([[NEW_PLAYER_RATING, NEW_PLAYER_RATING], [NEW_PLAYER_RATING, NEW_PLAYER_RATING]], 'draw');
    for (const p of [...x, ...y]) expect(p.rating).toBeCloseTo(1500, 6);
    const me = { rating: 1580, rd: 140, vol: 0.061 };
    const [[won]] = rateTeams([[me], [{ rating: 1620, rd: 80, vol: 0.06 }]], 0);
    close(won!, glicko2(me, [{ rating: 1620, rd: 80, score: 1 }], RATING_SETTINGS.tau));
  });

  it('an empty team is refused', () => {
    expect(() => rateTeams([[], [NEW_PLAYER_RATING]], 0)).toThrow(RangeError);
  });
});
