import 'server-only';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

const RESOLUTION_MS = 10;
/** The probe reports whole windows: no reader resets what another reads. */
const LOOP_DELAY_WINDOW_MS = 10_000;

export type LoopDelayWindow = { p99Ms: number; maxMs: number; from: number; to: number };

type Probe = { histogram: IntervalHistogram; from: number; last: LoopDelayWindow | null };

// On globalThis: one probe per process, however many bundles load this module.
const holder = globalThis as unknown as { __linefallLoopDelay?: Probe };

// The histogram holds the intervals between samples: the delay is what exceeds the resolution.
const delayMs = (ns: number) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 10) / 10);

/**
 * How long this process's event loop was held in the last whole window of LOOP_DELAY_WINDOW_MS
 * (what every request and live game on the instance waited on top of its own work), and when the
 * window now running started, and the window's length. Sampled every 10 ms from the first call on; null until a window ends.
 */
export function loopDelay(): { last: LoopDelayWindow | null; current: number; windowMs: number } {
  let probe = holder.__linefallLoopDelay;
  if (!probe) {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    const started: Probe = { histogram, from: Date.now(), last: null };
    probe = holder.__linefallLoopDelay = started;
    setInterval(() => {
      const to = Date.now();
      started.last = histogram.count === 0 ? null : { p99Ms: delayMs(histogram.percentile(99)), maxMs: delayMs(histogram.max), from: started.from, to };
      histogram.reset();
      started.from = to;
    }, LOOP_DELAY_WINDOW_MS).unref();
  }
  return { last: probe.last, current: probe.from, windowMs: LOOP_DELAY_WINDOW_MS };
}
