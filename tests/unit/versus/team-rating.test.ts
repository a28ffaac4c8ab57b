import { describe, expect, it } from 'vitest';
import { NEW_PLAYER_RATING, RATING_SETTINGS, type Rating } from '@/lib/server/versus/rating';
import { compositeOf, rateTeams } from '@/lib/server/versus/team-rating';

/**
 * Glicko-2 written out here from Glickman's "Example of the Glicko-2 system" (steps 2–8, the
 * Illinois algorithm for σ'), sharing nothing with the package the site uses: the team update is
 * checked against an independent computation, not against itself.
 */
function glicko2(me: Rating, games: ReadonlyArray<{ rating: number; rd: number; score: number }>, tau: number): Rating {
  const S = 173.7178;
  const mu = (me.rating - 1500) / S;
  const phi = me.rd / S;
  const g = (p: number) => 1 / Math.sqrt(1 + (3 * p * p) / (Math.PI * Math.PI));
  const parts = games.map((o) => {
    const muj = (o.rating - 1500) / S;
    const gj = g(o.rd / S);
    const e = 1 / (1 + Math.exp(-gj * (mu - muj)));
    return { gj, e, s: o.score };
  });
  const v = 1 / parts.reduce((sum, p) => sum + p.gj * p.gj * p.e * (1 - p.e), 0);
  const sumGS = parts.reduce((sum, p) => sum + p.gj * (p.s - p.e), 0);
  const delta = v * sumGS;
  const a = Math.log(me.vol * me.vol);
  const f = (x: number) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  const vol = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sumGS;
  return { rating: muNew * S + 1500, rd: phiNew * S, vol };
}

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

  it('each player moves as one game against the other team’s mean rating and mean deviation, equal to the independent computation', () => {
    const a: Rating[] = [{ rating: 1650, rd: 60, vol: 0.06 }, { rating: 1400, rd: 250, vol: 0.059 }];
    const b: Rating[] = [{ rating: 1550, rd: 90, vol: 0.061 }, { rating: 1500, rd: 120, vol: 0.06 }];
    expect(compositeOf(b)).toEqual({ rating: 1525, rd: 105 });
    const [ta, tb] = rateTeams([a, b], 1);
    a.forEach((p, i) => close(ta[i]!, glicko2(p, [{ rating: 1525, rd: 105, score: 0 }], RATING_SETTINGS.tau)));
    b.forEach((p, i) => close(tb[i]!, glicko2(p, [{ rating: 1525, rd: 155, score: 1 }], RATING_SETTINGS.tau)));
    // The newcomer on the losing side (wide deviation) loses far more than their settled partner.
    expect(a[1]!.rating - ta[1]!.rating).toBeGreaterThan(3 * (a[0]!.rating - ta[0]!.rating));
    expect(tb.every((p, i) => p.rating > b[i]!.rating)).toBe(true);
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
