import { describe, expect, it } from 'vitest';
import { MATCHMAKING, pairUp, windowOf, type Waiting } from '@/lib/server/versus/matchmaking';

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
