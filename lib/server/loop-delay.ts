import 'server-only';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

const RESOLUTION_MS = 10;

// On globalThis: one histogram per process, however many bundles load this module.
const holder = globalThis as unknown as { __linefallLoopDelay?: { histogram: IntervalHistogram; since: number } };

/**
 * How long this process's event loop was held since the previous call (the health check's reader):
 * what every request and live game on the instance waited on top of its own work. Sampled every
 * 10 ms; the first call only starts the measuring.
 */
export function takeLoopDelay(): { p99Ms: number; maxMs: number; overMs: number } | null {
  const now = Date.now();
  const held = holder.__linefallLoopDelay;
  if (!held) {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    holder.__linefallLoopDelay = { histogram, since: now };
    return null;
  }
  const { histogram, since } = held;
  // The histogram holds the intervals between samples: the delay is what exceeds the resolution.
  const delay = (ns: number) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 10) / 10);
  const taken = histogram.count === 0 ? null : { p99Ms: delay(histogram.percentile(99)), maxMs: delay(histogram.max), overMs: now - since };
  histogram.reset();
  held.since = now;
  return taken;
}

