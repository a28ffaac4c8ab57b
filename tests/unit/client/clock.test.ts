import { describe, expect, it } from 'vitest';
import { TICK_MS, TickClock } from '@/lib/client/clock';

describe('TickClock', () => {
  it('runs one tick per 1/60 s, however the frames fall', () => {
    const c = new TickClock();
    c.start(1000);
    let total = 0;
    for (const t of [1010, 1016.6, 1016.7, 1050, 1100, 1166.7]) {
      const n = c.due(t);
      c.done += n;
      total += n;
    }
    expect(total).toBe(10); // 166.7 ms = 10 ticks
  });

  it('caps catch-up after a long stall and drops the backlog', () => {
    const c = new TickClock(10);
    c.start(0);
    expect(c.due(1000)).toBe(10);
    c.done += 10;
    // The dropped time is gone: the next frame continues from here.
    expect(c.due(1000 + TICK_MS)).toBe(1);
  });

  it('stamps an input with the tick running at its time, never an already simulated one', () => {
    const c = new TickClock();
    c.start(0);
    c.done += c.due(5 * TICK_MS); // ticks 0..4 done
    expect(c.tickAt(2 * TICK_MS)).toBe(5);
    expect(c.tickAt(5.5 * TICK_MS)).toBe(5);
    expect(c.tickAt(7.2 * TICK_MS)).toBe(7);
  });

  it('resumes after a pause as if no time had passed', () => {
    const c = new TickClock();
    c.start(0);
    c.done += c.due(10 * TICK_MS);
    c.resume(60_000);
    expect(c.due(60_000)).toBe(0);
    expect(c.due(60_000 + 3 * TICK_MS)).toBe(3);
    expect(c.tickAt(60_000 + 1.5 * TICK_MS)).toBe(11);
  });
});
