import 'server-only';
import { PACING } from '@/lib/server/live/pacing';

/** What one batch is to a taken-up game's catch-up (CatchUp.batch). */
export type CatchUpStep = {
  /**
   * `resent`: history on its way to the declared tick (checked only for running ahead);
   * `reached`: the batch that gets there (the gap is excused once, the catch-up's time is time
   * away); `held`: play held back past the declared tick, sent at once just after (the excuse is
   * taken back down to what it shows); `none`: a batch like any other.
   */
  kind: 'resent' | 'reached' | 'held' | 'none';
  /** The game's excuse from the pace after this batch (ms). */
  excusedMs: number;
  /** The time away this batch adds: the catch-up's own time, when it reaches the declared tick. */
  awayMs: number;
};

/**
 * A game taken up from its ticket or a hand-over (adopt.ts): the browser resends its log up to the
 * tick its resume declared, late by however long the game was hosted nowhere. That gap is excused
 * once, at the batch that reaches the declared tick, if no batch of it came more than
 * PACING.catchUpWindowMs after the take-up or the one before (a long game's log is hundreds of
 * batches, paced by the page), and all within PACING.maxAwayMs; a catch-up slower than that is
 * excused nothing. The time it took is time away
 * (counted against PACING.maxAwayMs, as a dropped socket's is), so a tick declared above where the
 * browser was, reached slowly, is no free slow motion at each take-up. For a moment after it, play
 * the browser had made past the tick it declared, held back and sent at once, takes the excuse back
 * down to what it shows, never below what it was before: declared low buys nothing either.
 */
export class CatchUp {
  /** The declared tick still to reach; -1 when none is under way (not taken up, reached, or past its window). */
  private to: number;
  /**
   * When the catch-up stops being one if no batch of it comes first: each batch that moves it on
   * moves this on, and a drop within it (charged as time away) moves it on by its length.
   */
  private until: number;
  /** The highest tick a resent batch reached: one that does not pass it keeps nothing open. */
  private resentTo = -1;
  /** Time away counted during the catch-up (a drop within it): counted once, not again as the catch-up's time. */
  private awayWithin = 0;
  private takeBackUntil = Number.NEGATIVE_INFINITY;
  private excuseFloorMs = 0;

  /** `to`: the declared tick, or -1 (a game dealt here); `takenUpAt`: when (the host's monotonic ms). */
  constructor(
    to: number,
    private readonly takenUpAt: number,
  ) {
    this.to = to;
    this.until = takenUpAt + PACING.catchUpWindowMs;
  }

  /** A drop's time, charged as time away: within a catch-up under way, not charged again as its time, nor run off its window. */
  away(ms: number): void {
    if (this.to < 0) return;
    this.awayWithin += ms;
    this.until += ms;
  }

  /**
   * The time of a catch-up not finished, as of `at`: what a game handed over or checkpointed now
   * carries as time away, or an unfinished one would dodge its charge at every hop. One let go
   * quiet is charged up to its deadline (its next batch here would be excused nothing).
   */
  underWay(at: number): number {
    return this.to >= 0 ? this.time(Math.min(at, this.until)) : 0;
  }

  /** A batch reaching `tick` at `now`, `owedMs` behind the clock (less the lag the game came with), the game excused `excusedMs`. */
  batch(tick: number, now: number, owedMs: number, excusedMs: number): CatchUpStep {
    if (this.to >= 0) {
      if (now > this.until) {
        this.to = -1;
        return { kind: 'none', excusedMs, awayMs: 0 };
      }
      if (tick < this.to) {
        // Never longer in all than time away may be: what it takes is charged as that.
        if (tick > this.resentTo) this.until = Math.min(now + PACING.catchUpWindowMs, this.takenUpAt + this.awayWithin + PACING.maxAwayMs);
        this.resentTo = Math.max(this.resentTo, tick);
        return { kind: 'resent', excusedMs, awayMs: 0 };
      }
      this.to = -1;
      this.excuseFloorMs = excusedMs;
      this.takeBackUntil = now + PACING.catchUpWindowMs;
      return { kind: 'reached', excusedMs: Math.max(excusedMs, owedMs), awayMs: this.time(now) };
    }
    if (now <= this.takeBackUntil && owedMs < excusedMs) return { kind: 'held', excusedMs: Math.max(this.excuseFloorMs, owedMs), awayMs: 0 };
    return { kind: 'none', excusedMs, awayMs: 0 };
  }

  private time(at: number): number {
    return Math.max(0, at - this.takenUpAt - this.awayWithin);
  }
}
