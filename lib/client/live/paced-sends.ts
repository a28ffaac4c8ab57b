import { PAGE_SENDS_PER_SECOND } from '@/lib/live/protocol';

/**
 * Messages that must reach the server in order, let out at most PAGE_SENDS_PER_SECOND in each
 * second (counted from the first of the second, as the server counts its budget); the rest wait
 * their turn. Pure: no socket, no clock.
 *
 *   paced.push(...batches);
 *   for (const m of paced.take(now)) socket.send(m);
 *   paced.waitMs(now); // when to take again, or null
 */
export class PacedSends<M> {
  private queue: M[] = [];
  private windowStart = Number.NEGATIVE_INFINITY;
  private inWindow = 0;

  push(...messages: M[]): void {
    this.queue.push(...messages);
  }

  /** What may go at `now` (ms), in order. */
  take(now: number): M[] {
    if (this.queue.length === 0) return [];
    if (now - this.windowStart >= 1_000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    const n = Math.min(this.queue.length, PAGE_SENDS_PER_SECOND - this.inWindow);
    this.inWindow += n;
    return this.queue.splice(0, n);
  }

  /** How long until the messages still waiting may go (ms), or null when none waits. */
  waitMs(now: number): number | null {
    return this.queue.length === 0 ? null : Math.max(0, this.windowStart + 1_000 - now);
  }

  /** Forgets what waits (the link dropped: what the server lacks is worked out again). */
  clear(): void {
    this.queue = [];
  }

  /** Takes out what waits and `which` picks, and returns it in order. */
  remove(which: (m: M) => boolean): M[] {
    const out = this.queue.filter(which);
    this.queue = this.queue.filter((m) => !which(m));
    return out;
  }
}
