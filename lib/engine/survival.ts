import { collides } from './board';
import type { CoreState as Core } from './core-state';
import { END_GARBAGE_OUT } from './ends';
import { riseCheese } from './cheese';
import type { RiseRules } from './modes';

/**
 * Survival (README, "Survival"): garbage rows rise on the clock, not on locks. Rise k (0 for the
 * first) comes `interval(k)` ticks after rise k − 1 (after the start for the first), at the end of
 * the tick whose clock reaches it; the interval shortens by `step` every `every` rows, down to
 * `min`. The next rise's tick is a function of the rows risen only, so a game's state holds no
 * timer: a dealt game (deal.ts) runs no tick without a hole column in hand, as a Dig lock.
 */

/** Ticks between rise k − 1 and rise k. */
export function riseInterval(rules: RiseRules, k: number): number {
  return Math.max(rules.min, rules.start - rules.step * Math.floor(k / rules.every));
}

/** The tick number the clock reaches at the end of the tick of rise k. */
export function riseTick(rules: RiseRules, k: number): number {
  // Whole stages of `every` rows at one interval, then the part of the stage rise k is in.
  let t = 0;
  let done = 0;
  while (done + rules.every <= k) {
    const interval = riseInterval(rules, done);
    if (interval === rules.min) break;
    t += interval * rules.every;
    done += rules.every;
  }
  return t + riseInterval(rules, done) * (k - done + 1);
}

/**
 * After the clock of a tick advanced: the row due now rises under the stack. A piece the rise
 * would overlap goes up with the stack, one row (its lowest row with it, so no reset is won); a
 * piece that cannot, or a stack pushed past the top, is a game over (garbageOut).
 */
export function riseOnTime(c: Core, rules: RiseRules): void {
  if (c.ended || c.cheeseRisen >= c.cheese!.rows || c.tickNo !== riseTick(rules, c.cheeseRisen)) return;
  if (!riseCheese(c)) return;
  c.restingHint = -1;
  if (c.piece < 0 || !collides(c.board, c.slot, c.x, c.y)) return;
  if (collides(c.board, c.slot, c.x, c.y + 1)) {
    c.topOut(END_GARBAGE_OUT);
    return;
  }
  c.y++;
  c.lowestY++;
}

/** Ticks skipQuiet may pass from `tickNo` without reaching the next rise (it must be stepped). */
export function quietTicksBeforeRise(c: Core, rules: RiseRules): number {
  return riseTick(rules, c.cheeseRisen) - 1 - c.tickNo;
}
