import { TICKS_PER_SECOND } from '@/lib/engine';

export const TICK_MS = 1000 / TICKS_PER_SECOND;
/** After a long frame (tab stall, GC) at most this many ticks are simulated at once; the rest is dropped. */
export const MAX_CATCH_UP_TICKS = 10;
// Guards floor() against 2.9999999 after float arithmetic on times.
const EPS = 1e-6;

/** A key event's time on performance.now()'s clock (they share one; odd values fall back to now). */
export function eventTime(e: { timeStamp: number }): number {
  const now = performance.now();
  return e.timeStamp > 0 && e.timeStamp <= now ? e.timeStamp : now;
}

/**
 * A fixed-timestep accumulator expressed as an origin: tick k covers [origin + k·T, origin + (k+1)·T)
 * and may run once that interval is over. Times are milliseconds on one clock (performance.now(),
 * event.timeStamp). Pure: no timers, so it is driven by rAF in the page and by numbers in tests.
 */
export class TickClock {
  private origin = 0;
  /** Ticks simulated so far (the next tick to run). */
  done = 0;
  /** Ticks of backlog the last due() dropped (0 when it kept up). */
  dropped = 0;

  constructor(private readonly maxCatchUp = MAX_CATCH_UP_TICKS) {}

  start(now: number): void {
    this.origin = now;
    this.done = 0;
  }

  /** After a pause: continue from `done` as if no time had passed. */
  resume(now: number): void {
    this.origin = now - this.done * TICK_MS;
  }

  /** How many ticks are due at `now`; beyond the cap, the backlog is dropped (origin moves up). */
  due(now: number): number {
    const n = Math.floor((now - this.origin) / TICK_MS + EPS) - this.done;
    this.dropped = 0;
    if (n <= 0) return 0;
    if (n > this.maxCatchUp) {
      this.origin = now - (this.done + this.maxCatchUp) * TICK_MS;
      this.dropped = n - this.maxCatchUp;
      return this.maxCatchUp;
    }
    return n;
  }

  /** The tick an input at time `t` applies to: the tick running then, never one already simulated. */
  tickAt(t: number): number {
    return Math.max(this.done, Math.floor((t - this.origin) / TICK_MS + EPS));
  }
}
