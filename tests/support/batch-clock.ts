/**
 * When a bot's next batch leaves: every 100 ms on a grid at the bot's own phase, as browsers on
 * separate machines send. A bot woken late sends at once but keeps its phase; woken a whole period
 * late, it skips to the latest slot rather than sending a burst of catch-ups.
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
  constructor(phaseMs = performance.now(), private readonly periodMs = 100) {
    const now = performance.now();
    this.wakeAt = phaseMs + Math.floor((now - phaseMs) / periodMs) * periodMs;
  }

  /** Milliseconds from now to this bot's next slot. */
  next(): number {
    const now = performance.now();
    this.wakeAt += this.periodMs;
    if (this.wakeAt < now) this.wakeAt += Math.floor((now - this.wakeAt) / this.periodMs) * this.periodMs;
    return Math.max(0, this.wakeAt - now);
  }
}
