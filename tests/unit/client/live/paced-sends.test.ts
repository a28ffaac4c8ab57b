import { describe, expect, it } from 'vitest';
import { PacedSends } from '@/lib/client/live/paced-sends';
import { PAGE_SENDS_PER_SECOND } from '@/lib/live/protocol';

describe('a page’s paced sends', () => {
  it('lets out PAGE_SENDS_PER_SECOND in a second counted from its first, the rest in order as seconds pass', () => {
    const paced = new PacedSends<number>();
    expect(paced.take(0)).toEqual([]);
    expect(paced.waitMs(0)).toBeNull();
    const all = Array.from({ length: 2 * PAGE_SENDS_PER_SECOND + 5 }, (_, i) => i);
    paced.push(...all.slice(0, 3));
    expect(paced.take(500)).toEqual([0, 1, 2]);
    paced.push(...all.slice(3));
    // The second began at 500 with three: the rest of its share, then nothing until 1500.
    expect(paced.take(900)).toEqual(all.slice(3, PAGE_SENDS_PER_SECOND));
    expect(paced.take(1_499)).toEqual([]);
    expect(paced.waitMs(1_200)).toBe(300);
    expect(paced.take(1_500)).toEqual(all.slice(PAGE_SENDS_PER_SECOND, 2 * PAGE_SENDS_PER_SECOND));
    expect(paced.take(2_600)).toEqual(all.slice(2 * PAGE_SENDS_PER_SECOND));
    expect(paced.waitMs(2_600)).toBeNull();
  });

  it('takes out what is picked, in order, and leaves the rest their turn', () => {
    const paced = new PacedSends<number>();
    paced.push(...Array.from({ length: PAGE_SENDS_PER_SECOND + 4 }, (_, i) => i));
    expect(paced.take(0)).toHaveLength(PAGE_SENDS_PER_SECOND);
    expect(paced.remove((n) => n % 2 === 0)).toEqual([PAGE_SENDS_PER_SECOND, PAGE_SENDS_PER_SECOND + 2]);
    expect(paced.take(1_000)).toEqual([PAGE_SENDS_PER_SECOND + 1, PAGE_SENDS_PER_SECOND + 3]);
  });

  it('forgets what waits when cleared', () => {
    const paced = new PacedSends<number>();
    paced.push(...Array.from({ length: PAGE_SENDS_PER_SECOND + 1 }, (_, i) => i));
    expect(paced.take(0)).toHaveLength(PAGE_SENDS_PER_SECOND);
    paced.clear();
    expect(paced.take(5_000)).toEqual([]);
    expect(paced.waitMs(5_000)).toBeNull();
  });
});
