import { describe, expect, it } from 'vitest';
import { bandWindowOf, MATCHMAKING, pairUp, windowOf, type Waiting } from '@/lib/server/versus/matchmaking';
import { BAND_IDS, type BandId } from '@/lib/versus/bands';

const w = (id: string, rating: number, since: number, who = id): Waiting => ({ id, who, rating, since });
const ids = (pairs: Array<[Waiting, Waiting]>) => pairs.map(([a, b]) => `${a.id}-${b.id}`);

describe('quick-match pairing', () => {
  it('pairs in arrival order while few are waiting, whatever the ratings', () => {
    expect(ids(pairUp([w('b', 2400, 2), w('a', 900, 1), w('c', 1500, 3)], 10))).toEqual(['a-b']);
    expect(pairUp([w('a', 1500, 0)], 10)).toEqual([]);
  });

  it('never pairs a player with their own second entry', () => {
    expect(ids(pairUp([w('a1', 1500, 0, 'p'), w('a2', 1500, 1, 'p'), w('b', 1500, 2)], 10))).toEqual(['a1-b']);
    expect(pairUp([w('a1', 1500, 0, 'p'), w('a2', 1500, 1, 'p')], 10)).toEqual([]);
  });

  it('ranked: never pairs entries from the same address or device, nor a player with one it must avoid', () => {
    const at = (x: Waiting, ...apart: string[]): Waiting => ({ ...x, apart });
    // Two accounts behind one address, a third elsewhere: the first meets the third.
    expect(ids(pairUp([at(w('a', 1500, 0), 'addr:1'), at(w('b', 1500, 1), 'addr:1'), at(w('c', 1500, 2), 'addr:2')], 10))).toEqual(['a-c']);
    expect(pairUp([at(w('a', 1500, 0), 'addr:1', 'dev:x'), at(w('b', 1500, 1), 'addr:2', 'dev:x')], 10)).toEqual([]);
    // Either side's avoid list is enough.
    expect(pairUp([{ ...w('a', 1500, 0), avoid: ['b'] }, w('b', 1500, 1)], 10)).toEqual([]);
    expect(pairUp([w('a', 1500, 0), { ...w('b', 1500, 1), avoid: ['a'] }], 10)).toEqual([]);
    expect(ids(pairUp([{ ...w('a', 1500, 0), avoid: ['b'] }, w('b', 1500, 1), w('c', 1500, 2)], 10))).toEqual(['a-c']);
    // Unranked entries carry neither: two guests behind one address still play.
    expect(ids(pairUp([w('g1', 1500, 0), w('g2', 1500, 1)], 10))).toEqual(['g1-g2']);
  });

  it('once enough are waiting, prefers the nearest rating within the window', () => {
    const q = [w('a', 1500, 0), w('b', 1900, 1), w('c', 1540, 2), w('d', 1880, 3)];
    expect(ids(pairUp(q, 100))).toEqual(['a-c', 'b-d']);
  });

  it('keeps apart ratings further than the window, and widens it while they wait', () => {
    const q = [w('a', 1500, 0), w('b', 1750, 0), w('c', 2200, 0), w('d', 2600, 0)];
    expect(pairUp(q, 1_000)).toEqual([]); // ±125 after 1 s
    const gap = 250;
    const after = ((gap - MATCHMAKING.windowStart) / MATCHMAKING.widenPerSecond) * 1000;
    expect(ids(pairUp(q, after))).toEqual(['a-b']);
    expect(windowOf(0, 1_000_000)).toBe(Infinity);
    expect(ids(pairUp(q, MATCHMAKING.anyoneAfterMs))).toEqual(['a-b', 'c-d']);
  });

  it('caps the window until anyone will do', () => {
    expect(windowOf(0, MATCHMAKING.anyoneAfterMs - 1)).toBe(MATCHMAKING.windowMax);
    expect(windowOf(5_000, 0)).toBe(MATCHMAKING.windowStart); // a clock behind the join counts as no wait
  });

  it('breaks equal gaps by arrival', () => {
    const q = [w('a', 1500, 0), w('late', 1550, 9), w('early', 1450, 1), w('z', 3000, 2)];
    expect(ids(pairUp(q, 100))[0]).toBe('a-early');
  });
});

describe('ranked pairing by band', () => {
  // A player in a band, rated mid-band unless told (ratings far apart: only bands decide here).
  const b = (id: string, band: BandId, since: number, rating = 1000 + BAND_IDS.indexOf(band) * 150): Waiting => ({ id, who: id, rating, since, band });
  const [five, fifteen, anyone] = [MATCHMAKING.bandWindowAfterMs[1], MATCHMAKING.bandWindowAfterMs[2], MATCHMAKING.anyoneAfterMs];

  it('the same band at once, however few are waiting and however far apart the ratings', () => {
    expect(ids(pairUp([b('a', 'gold', 0, 1400), b('c', 'gold', 0, 1590)], 0))).toEqual(['a-c']);
  });

  it('widens a band at a time as the oldest waits: one band after 5 s, two after 15 s', () => {
    const q = [b('g', 'gold', 0), b('d', 'diamond', 2_000)];
    for (const t of [0, five, fifteen - 1]) expect(pairUp(q, t)).toEqual([]);
    expect(ids(pairUp(q, fifteen))).toEqual(['g-d']);
    const p = [b('g', 'gold', 0), b('p', 'platinum', 4_000)];
    expect(pairUp(p, five - 1)).toEqual([]);
    expect(ids(pairUp(p, five))).toEqual(['g-p']);
    expect([0, five - 1, five, fifteen, anyone - 1, anyone].map((t) => bandWindowOf(0, t))).toEqual([0, 0, 1, 2, 2, Infinity]);
    expect(bandWindowOf(5_000, 0)).toBe(0); // a clock behind the join counts as no wait
  });

  it('takes the nearest band before the nearest arrival, then the nearest rating', () => {
    const q = [b('g', 'gold', 0, 1400), b('d', 'diamond', 1), b('s', 'silver', 2, 1300), b('p', 'platinum', 3, 1450)];
    // At 15 s gold accepts all three; silver and platinum are one band off, platinum the nearer rating.
    expect(ids(pairUp(q, fifteen))[0]).toBe('g-p');
  });

  it('past two bands only after the longest wait, and never while either player has someone of a nearer band waiting', () => {
    const q = [b('bronze', 'bronze', 0), b('diamond', 'diamond', 0)];
    expect(pairUp(q, anyone - 1)).toEqual([]);
    expect(ids(pairUp(q, anyone))).toEqual(['bronze-diamond']);
    // A platinum player joins: the diamond has someone a band away, so bronze waits on.
    expect(ids(pairUp([...q, b('plat', 'platinum', anyone)], anyone))).toEqual(['diamond-plat']);
    // A silver one too: bronze meets silver, diamond meets platinum, nobody three bands apart.
    expect(ids(pairUp([...q, b('plat', 'platinum', anyone), b('silver', 'silver', anyone)], anyone))).toEqual(['bronze-silver', 'diamond-plat']);
    // Someone nearer who may not meet them (the same address) does not hold them back: platinum
    // cannot meet diamond, so bronze takes platinum, the nearer of the two.
    const apart = (x: Waiting): Waiting => ({ ...x, apart: ['addr:1'] });
    expect(ids(pairUp([q[0]!, apart(q[1]!), apart(b('plat', 'platinum', anyone))], anyone))).toEqual(['bronze-plat']);
  });

  it('holds nobody back for good: past farAfterMs of waiting, the nearer-band rule gives way', () => {
    // Grandmaster may not meet silver; bronze and silver keep re-queueing (their waits stay short,
    // so they never widen to each other), and bronze always has silver near it.
    const gm: Waiting = { ...b('gm', 'grandmaster', 0), avoid: ['silver'] };
    const at = (t: number) => [gm, b('bronze', 'bronze', t - 1_000), b('silver', 'silver', t - 1_000)];
    for (const t of [MATCHMAKING.anyoneAfterMs, MATCHMAKING.farAfterMs - 1]) expect(pairUp(at(t), t)).toEqual([]);
    expect(ids(pairUp(at(MATCHMAKING.farAfterMs), MATCHMAKING.farAfterMs))).toEqual(['gm-bronze']);
  });

  it('costs a pass quadratic work in the pool, not cubic, however the pool is made to block', () => {
    // Long-waiting masters who may not meet each other, and fresh bronze and silver entries of two
    // accounts (one socket each, many sockets): every master looks at every bronze, and every
    // bronze has silver near it, so no pair forms and the far-band check runs for each candidate.
    // Each read of `avoid` is one comparison.
    let reads = 0;
    const counted = (e: Waiting): Waiting => Object.defineProperty({ ...e }, 'avoid', { get: () => (reads++, undefined), enumerable: true });
    const t = MATCHMAKING.anyoneAfterMs + 1_000;
    const pool = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        i % 3 === 0 ? counted({ ...b(`m${i}`, 'master', i), apart: ['addr:masters'] })
        : counted({ ...b(`x${i}`, i % 3 === 1 ? 'bronze' : 'silver', t - 100), who: i % 3 === 1 ? 'x' : 'y' }));
    const cost = (n: number) => {
      reads = 0;
      expect(pairUp(pool(n), t)).toEqual([]);
      return reads;
    };
    const [small, large] = [cost(90), cost(180)];
    expect(large / small).toBeLessThan(5); // quadratic: ×4 for twice the pool (cubic was ×8)
  });

  it('a pool where any band is unknown pairs by rating, as unranked does', () => {
    const q = [b('a', 'bronze', 0, 900), { ...w('x', 2400, 1) }];
    expect(ids(pairUp(q, 0))).toEqual(['a-x']); // few waiting: arrival order
  });
});

