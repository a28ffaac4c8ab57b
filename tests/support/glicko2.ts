import type { Rating } from '@/lib/server/versus/rating';

/**
 * Glicko-2 written out for the tests from Glickman's "Example of the Glicko-2 system" (steps 2–8, the
 * Illinois algorithm for σ'), sharing nothing with the package the site uses: the team update is
 * checked against an independent computation, not against itself.
 */
export function glicko2(me: Rating, games: ReadonlyArray<{ rating: number; rd: number; score: number }>, tau: number): Rating {
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
