/** A watch the server refused for now (a crowd arriving at one game, match or room: LIVE_LIMITS) is asked again after this long, and up to as long again. */
const RETRY_WATCH_MS = 2_000;

/**
 * A spectator page's one pending "ask again": the server holds a crowd arriving at one game,
 * match or room to so many catch-ups a second and refuses the rest (`rate_limited`, naming it), so
 * the page asks again a little later, spread so the crowd does not come back at once.
 */
export class WatchRetry {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private again: (() => void) | null = null;

  /** Calls `again` once, later; a call while one is pending replaces it (the latest refusal is the one to answer). `again` decides then whether the watch is still wanted. */
  later(again: () => void): void {
    this.again = again;
    this.timer ??= setTimeout(() => {
      const call = this.again;
      this.timer = null;
      this.again = null;
      call?.();
    }, RETRY_WATCH_MS * (1 + Math.random()));
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.again = null;
  }
}
