/**
 * When a bot's next batch leaves: every 100 ms on a grid at the bot's own phase, as browsers on
 * separate machines send. A bot woken late sends then (its batch carries the ticks it missed), and
 * its next batch waits for its next slot after that: it keeps its phase and never sends two at once.
 *
 * Why a grid: a thousand bots share one process, and a wake-up time counted from the last (late)
 * wake-up lets one long task put every late bot on the same moment, where they then stay, all
 * sending together. Those bursts were the load generator's own latency, measured as the server's.
 *
 *   const clock = new BatchClock(phaseMs);
 *   for (;;) { await sleep(clock.next()); sendBatch(); }
 */
export class BatchClock {
  private wakeAt: number;

  /** `phaseMs`: where in the period this bot's slots fall (default: now). */
  constructor(
    phaseMs?: number,
    private readonly periodMs = 100,
    private readonly clock: () => number = () => performance.now(),
  ) {
    const now = clock();
    const phase = phaseMs ?? now;
    this.wakeAt = phase + Math.floor((now - phase) / periodMs) * periodMs;
  }

  /** Milliseconds from now to this bot's first slot after now. */
  next(): number {
    const now = this.clock();
    this.wakeAt += this.periodMs;
    if (this.wakeAt <= now) this.wakeAt += (Math.floor((now - this.wakeAt) / this.periodMs) + 1) * this.periodMs;
    return this.wakeAt - now;
  }
}
