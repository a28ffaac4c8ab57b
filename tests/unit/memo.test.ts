import { describe, expect, it } from 'vitest';
import { memoize } from '@/lib/server/memo';

describe('memoize (profile reads)', () => {
  it('answers repeats from memory for the TTL, then loads again; keeps at most `max` keys', async () => {
    const loads: string[] = [];
    const get = memoize({ ttlMs: 1000, max: 2 }, async (key) => (loads.push(key), `${key}:${loads.length}`));
    expect(await get('a', 0)).toBe('a:1');
    expect(await get('a', 999)).toBe('a:1');
    expect(await get('a', 1000)).toBe('a:2');
    await get('b', 1000);
    await get('c', 1000); // evicts a, the oldest
    expect(await get('a', 1001)).toBe('a:5');
    expect(loads).toEqual(['a', 'a', 'b', 'c', 'a']);
  });

  it('does not keep a failed load', async () => {
    let fail = true;
    const get = memoize({ ttlMs: 1000, max: 10 }, async () => {
      if (fail) throw new Error('database away');
      return 'ok';
    });
    await expect(get('k', 0)).rejects.toThrow('database away');
    fail = false;
    expect(await get('k', 1)).toBe('ok');
  });
});
