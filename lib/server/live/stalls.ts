import 'server-only';
import { lateBy } from '@/lib/server/live/pacing';

/** How often the probe looks: a stall is found within a probe of its end. */
export const PROBE_MS = 250;

/**
 * This process's own stalls, summed (pacing.ts lateBy): a probe on a timer adds how late it ran,
 * and a read adds the stall going on now, so a batch read right after one (in the same turn of the
 * loop, before the probe's timer has run) is excused it too. The one account of our stalls: a solo
 * game reads it at each batch, a match at each lag check, a room at each beat, a socket's message
 * budget at each message.
 */
export class StallClock {
  private total = 0;
  private due: number;

  constructor(private readonly now: () => number) {
    this.due = now() + PROBE_MS;
  }

  /** Milliseconds this process stood still so far, as of now. */
  read(): number {
    const now = this.now();
    const late = lateBy(this.due, now);
    if (late > 0) {
      this.total += late;
      // Counted up to now: the probe adds only what comes after.
      this.due = now;
    }
    return this.total;
  }

  /** The probe's turn: what it ran late is added, and it looks again in PROBE_MS. */
  probe(): void {
    this.read();
    this.due = this.now() + PROBE_MS;
  }
}

// On globalThis: one probe per process, however many bundles load this module.
const holder = globalThis as unknown as { __linefallStalls?: StallClock };

/** The process's stalls so far (ms), its probe started on the first read. */
export function processStalls(): number {
  let clock = holder.__linefallStalls;
  if (!clock) {
    const started = new StallClock(() => performance.now());
    clock = holder.__linefallStalls = started;
    setInterval(() => started.probe(), PROBE_MS).unref();
  }
  return clock.read();
}
