import { collides, dropDistance } from './board';
import { queueGarbage } from './garbage';
import { ONE_ROW } from './gravity';
import { lockPiece } from './lock';
import { K_SOFT } from './keys';
import { autoShift, keyEdge } from './moves';
import { LOCK_DELAY, MAX_LOCK_RESETS } from './timing';
import { SOFT_DROP_POINTS_PER_ROW } from './scoring';
import { quietTicksBeforeRise, riseOnTime } from './survival';
import { END_TIME_UP } from './ends';
import { CoreState } from './core-state';

// Hot-path imports re-bound locally: under tsx / vite-node an imported binding is a getter call.
const hits = collides;
const dropBy = dropDistance;
const lock = lockPiece;
const ONE: number = ONE_ROW;
const SOFT_BIT: number = 1 << K_SOFT;
const DELAY: number = LOCK_DELAY;
const RESETS: number = MAX_LOCK_RESETS;
const shiftRepeat = autoShift;
const edge = keyEdge;

export { K_LEFT, K_RIGHT, K_SOFT, K_HARD, K_CW, K_CCW, K_180, K_HOLD, K_ROW_DOWN } from './keys';
export { LOCK_DELAY, MAX_LOCK_RESETS } from './timing';
export type { CoreSettings } from './core-state';

/** The game state (CoreState) plus the hot per-tick logic: inputs, garbage, fall, lock delay, clock. */
export class Core extends CoreState {
  /** Step 1 of a tick: one key edge (see moves.ts). */
  input(key: number, down: boolean): void {
    this.restingHint = -1;
    edge(this, key, down);
  }

  /**
   * Versus step of a tick, before its inputs: one garbage message joins the queue, its hole in
   * `column` when given (a dealt game is told it), else drawn. Returns the column; -1 (ignored)
   * once over or in a solo mode.
   */
  receive(size: number, column = -1): number {
    if (this.ended || !this.mode.garbage) return -1;
    return queueGarbage(this, size, column);
  }

  /** Steps 2–5 of a tick (see README): auto-shift, fall, lock delay, clock. */
  step(): void {
    this.restingHint = -1;
    if (!this.ended) {
      if (this.dir !== 0) shiftRepeat(this);
      if (!this.ended) this.fall();
      if (!this.ended) {
        const resting = hits(this.board, this.slot, this.x, this.y - 1);
        if (resting && this.lockOnRest && (this.resets >= RESETS || ++this.lockTimer >= DELAY)) lock(this);
        else this.restingHint = resting ? 1 : 0;
      }
    }
    this.tickNo++;
    // Survival: a row may rise on the clock (survival.ts).
    const rise = this.cheese?.rise;
    if (rise !== undefined) riseOnTime(this, rise);
    const limit = this.mode.timeLimitTicks;
    if (limit !== 0 && !this.ended && this.tickNo >= limit) this.finish(END_TIME_UP);
  }

  /**
   * Fast-forwards up to `until` (exclusive tick number) through ticks that cannot change anything
   * but counters: no direction or soft drop held, no row to fall yet, no lock due, no time limit
   * hit. Produces exactly the state per-tick stepping would; simulateReplay uses it between inputs.
   */
  skipQuiet(until: number): void {
    if (this.ended || this.dir !== 0 || (this.held & SOFT_BIT) !== 0) return;
    let m = until - this.tickNo;
    const limit = this.mode.timeLimitTicks;
    if (limit !== 0 && limit - 1 - this.tickNo < m) m = limit - 1 - this.tickNo;
    const rise = this.cheese?.rise;
    if (rise !== undefined) m = Math.min(m, quietTicksBeforeRise(this, rise));
    const g = this.gravity;
    const toFall = ((ONE - 1 - this.gravAcc) / g) | 0;
    if (toFall < m) m = toFall;
    const grounded = this.restingHint >= 0 ? this.restingHint === 1 : hits(this.board, this.slot, this.x, this.y - 1);
    // Without lock on rest (a drill) a grounded piece's timer stands still, as in step().
    const timed = grounded && this.lockOnRest;
    if (timed) {
      if (this.resets >= RESETS) return;
      if (DELAY - 1 - this.lockTimer < m) m = DELAY - 1 - this.lockTimer;
    }
    if (m <= 0) return;
    this.restingHint = grounded ? 1 : 0;
    this.gravAcc += g * m;
    this.tickNo += m;
    if (timed) this.lockTimer += m;
  }

  private fall(): void {
    const soft = (this.held & SOFT_BIT) !== 0;
    if (soft && this.sdf === 0) {
      const n = dropBy(this.board, this.slot, this.x, this.y);
      if (n > 0) this.fell(n, true);
      return;
    }
    this.gravAcc += soft && this.softSpeed > this.gravity ? this.softSpeed : this.gravity;
    if (this.gravAcc < ONE) return;
    let n = this.gravAcc >>> 16;
    this.gravAcc &= ONE - 1;
    let moved = 0;
    while (n > 0 && !hits(this.board, this.slot, this.x, this.y - moved - 1)) {
      moved++;
      n--;
    }
    if (n > 0) this.gravAcc = 0;
    if (moved > 0) this.fell(moved, soft);
  }

  private fell(rows: number, soft: boolean): void {
    this.y -= rows;
    this.lastRotated = false;
    if (this.y < this.lowestY) {
      this.lowestY = this.y;
      this.resets = 0;
      this.lockTimer = 0;
    }
    if (soft) this.score += rows * SOFT_DROP_POINTS_PER_ROW;
    if (this.emit) this.push(soft ? { type: 'softDrop', rows } : { type: 'move', dx: 0, dy: -rows, source: 'gravity' });
  }

}
