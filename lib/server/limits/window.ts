/**
 * The sliding-window estimate behind every rate limit: the current fixed window's count plus the
 * previous window's count weighted by how much of it still overlaps the last `windowMs`. Two
 * counters per key instead of a log of timestamps, and no burst of 2× at window edges.
 */
export type WindowCounts = { previous: number; current: number; elapsedMs: number };

export function estimate(windowMs: number, { previous, current, elapsedMs }: WindowCounts): number {
  return (previous * (windowMs - elapsedMs)) / windowMs + current;
}

/**
 * How long until one more event would be allowed, assuming none arrive meanwhile; 0 if it is
 * allowed now. `current` includes the events already counted (also refused ones: a client that
 * ignores Retry-After keeps itself limited).
 */
export function waitMs(limit: number, windowMs: number, counts: WindowCounts): number {
  const { previous, current, elapsedMs } = counts;
  if (estimate(windowMs, counts) + 1 <= limit) return 0;
  const rest = windowMs - elapsedMs;
  if (current + 1 <= limit && previous > 0) {
    // Within this window: wait until enough of the previous window has slid out.
    return Math.max(0, Math.ceil(rest - (windowMs * (limit - current - 1)) / previous));
  }
  // Only in a later window: this window's count becomes the previous one and slides out.
  if (limit <= 1) return rest + windowMs;
  return rest + Math.ceil(windowMs * Math.max(0, 1 - (limit - 1) / current));
}
