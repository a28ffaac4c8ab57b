import 'server-only';

/**
 * So many events per window, counted in fixed windows (cheap: two numbers). A burst across a
 * window's edge may get up to twice the limit; every limit here is set far above what an honest
 * client does, so that slack costs nothing.
 */
export class WindowBudget {
  private start = -Infinity;
  private used = 0;
  private refused = false;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Spends one if any is left in the current window: 'ok'. Past the limit, 'refuse' the first time
   * in the window (the client is told) and 'quiet' after: a client told once that keeps asking is
   * answered nothing, or its refusals would be work and output of their own.
   */
  take(now: number): 'ok' | 'refuse' | 'quiet' {
    if (now - this.start >= this.windowMs) {
      this.start = now;
      this.used = 0;
      this.refused = false;
    }
    if (this.used < this.limit) {
      this.used++;
      return 'ok';
    }
    if (this.refused) return 'quiet';
    this.refused = true;
    return 'refuse';
  }
}

/**
 * One WindowBudget per id (a game, a match). Ids whose window is over are forgotten once there
 * are many, so ids nobody asks for again do not pile up.
 */
export class BudgetsById {
  private readonly byId = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Whether `take` would let one more through now, spending nothing. */
  left(id: string, now: number): boolean {
    const b = this.byId.get(id);
    return !b || now - b.start >= this.windowMs || b.used < this.limit;
  }

  take(id: string, now: number): boolean {
    let b = this.byId.get(id);
    if (!b || now - b.start >= this.windowMs) {
      if (!b && this.byId.size >= 4_096) this.forgetOld(now);
      b = { start: now, used: 0 };
      this.byId.set(id, b);
    }
    if (b.used >= this.limit) return false;
    b.used++;
    return true;
  }

  private forgetOld(now: number): void {
    for (const [id, b] of this.byId) if (now - b.start >= this.windowMs) this.byId.delete(id);
  }
}

/**
 * A token bucket per key: `burst` at once, refilled at `perSecond`. Keys whose bucket is full again
 * are forgotten once there are many: a full bucket is what a new key gets anyway.
 */
export class Buckets {
  private readonly byKey = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
  ) {}

  take(key: string, now: number): boolean {
    const b = this.byKey.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) * this.perSecond) / 1000);
    b.at = now;
    if (b.tokens < 1) return false;
    b.tokens--;
    if (!this.byKey.has(key) && this.byKey.size >= 4_096) this.forgetFull(now);
    this.byKey.set(key, b);
    return true;
  }

  private forgetFull(now: number): void {
    for (const [key, b] of this.byKey) if (b.tokens + ((now - b.at) * this.perSecond) / 1000 >= this.burst) this.byKey.delete(key);
  }
}
