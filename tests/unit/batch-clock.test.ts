import { describe, expect, it } from 'vitest';
import { BatchClock } from '@/tests/support/batch-clock';

describe("the bench bots' batch clock", () => {
  it('keeps a bot on its own phase of the 100 ms, however late it was woken, and never sends two at once', () => {
    let now = 1_234;
    const clock = new BatchClock(30, 100, () => now);
    expect(clock.next()).toBe(96); // the first slot at phase 30 after 1,234: 1,330
    now = 1_330;
    expect(clock.next()).toBe(100);
    now = 1_437; // woken 7 ms late: the next slot stays at 1,530
    expect(clock.next()).toBe(93);
    now = 1_780; // woken 250 ms late, after a long task: the next slot after now, not one already past
    expect(clock.next()).toBe(50);
    now = 1_830; // exactly on a slot: the one after it
    expect(clock.next()).toBe(100);
  });

  it('starts its phase at its own start when none is given', () => {
    let now = 500;
    const clock = new BatchClock(undefined, 100, () => now);
    expect(clock.next()).toBe(100);
    now = 640;
    expect(clock.next()).toBe(60);
  });
});
