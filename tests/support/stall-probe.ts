import type { Timers } from '@/lib/server/live/match/match-host';
import { PROBE_MS, StallClock } from '@/lib/server/live/stalls';

/**
 * The process's stall probe (stalls.ts) on a test's clock and timers, for a host's `stalls`: a
 * stall of the test's clock (its timers then run late) is found as the real probe finds ours.
 */
export function stallProbe(now: () => number, timers: Timers): () => number {
  const clock = new StallClock(now);
  const probe = () => {
    clock.probe();
    timers.set(probe, PROBE_MS);
  };
  timers.set(probe, PROBE_MS);
  return () => clock.read();
}
