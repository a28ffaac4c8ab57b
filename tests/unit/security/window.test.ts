import { describe, expect, it } from 'vitest';
import { estimate, waitMs } from '@/lib/server/limits/window';

const W = 60_000;

describe('sliding-window estimate', () => {
  it('weights the previous window by how much of it still overlaps', () => {
    expect(estimate(W, { previous: 10, current: 3, elapsedMs: 0 })).toBe(13);
    expect(estimate(W, { previous: 10, current: 3, elapsedMs: W / 2 })).toBe(8);
    expect(estimate(W, { previous: 10, current: 3, elapsedMs: W })).toBe(3);
  });
});

describe('waitMs: when one more event fits', () => {
  it('is 0 while there is room', () => {
    expect(waitMs(5, W, { previous: 0, current: 4, elapsedMs: 1000 })).toBe(0);
  });

  it('waits for the previous window to slide out when this one has room', () => {
    // limit 10, previous 10, current 5: need 10*(W-e-t)/W + 6 <= 10, i.e. t >= W*0.6 - e.
    const wait = waitMs(10, W, { previous: 10, current: 5, elapsedMs: 6_000 });
    expect(wait).toBe(30_000);
    expect(estimate(W, { previous: 10, current: 5, elapsedMs: 6_000 + wait }) + 1).toBeLessThanOrEqual(10);
    expect(estimate(W, { previous: 10, current: 5, elapsedMs: 6_000 + wait - 1_000 }) + 1).toBeGreaterThan(10);
  });

  it('waits into the next window when this one is full, counting refused events too', () => {
    // limit 5, current 10 (5 refused): next window, need 10*(W-e')/W + 1 <= 5, e' >= 0.6W.
    expect(waitMs(5, W, { previous: 0, current: 10, elapsedMs: 20_000 })).toBe(40_000 + 36_000);
    // limit 1: only once this window has entirely slid out.
    expect(waitMs(1, W, { previous: 0, current: 1, elapsedMs: 0 })).toBe(2 * W);
  });
});
