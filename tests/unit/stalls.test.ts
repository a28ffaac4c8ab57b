import { describe, expect, it } from 'vitest';
import { STALL_MS } from '@/lib/server/live/pacing';
import { StallClock } from '@/lib/server/live/stalls';

describe("the process's own stalls", () => {
  it('counts a probe that ran late by more than STALL_MS, and nothing under it', () => {
    const clock = { t: 0 };
    const stalls = new StallClock(() => clock.t);
    clock.t = 250 + STALL_MS;
    stalls.probe();
    expect(stalls.read()).toBe(0);
    clock.t += 250 + STALL_MS + 500;
    stalls.probe();
    expect(stalls.read()).toBe(STALL_MS + 500);
  });

  it('a read in the stall\'s own turn of the loop counts it before the probe runs, and the probe does not count it again', () => {
    const clock = { t: 0 };
    const stalls = new StallClock(() => clock.t);
    clock.t = 250 + 4_000;
    // A batch read right after the stall, before the probe's timer.
    expect(stalls.read()).toBe(4_000);
    clock.t += 10;
    stalls.probe();
    expect(stalls.read()).toBe(4_000);
    // And the next stall is counted from there.
    clock.t += 250 + 2_000;
    stalls.probe();
    expect(stalls.read()).toBe(6_000);
  });
});
