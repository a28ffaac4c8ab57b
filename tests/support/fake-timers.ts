import type { Timers } from '@/lib/server/live/match/match-host';

/**
 * A fake clock and the live hosts' timers on it: `timers.set` files a callback under the clock's
 * time plus its delay, and `fire()` runs every callback now due (in the order they were set).
 *
 *   const fake = fakeTimers();
 *   new MatchHost({ now: () => fake.clock.t, timers: fake.timers, ... });
 *   fake.clock.t += 100; fake.fire();
 */
export function fakeTimers(start = 1_000) {
  const clock = { t: start };
  const due: Array<{ at: number; fn: () => void }> = [];
  const timers: Timers = {
    set: (fn, ms) => {
      const entry = { at: clock.t + ms, fn };
      due.push(entry);
      return entry;
    },
    clear: (h) => {
      const i = due.indexOf(h as (typeof due)[number]);
      if (i >= 0) due.splice(i, 1);
    },
  };
  const fire = () => {
    for (const d of due.filter((x) => x.at <= clock.t)) {
      due.splice(due.indexOf(d), 1);
      d.fn();
    }
  };
  return { clock, due, timers, fire };
}
