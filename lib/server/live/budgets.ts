import 'server-only';

/**
 * So many events per window, counted in fixed windows (cheap: two numbers). A burst across a
 * window's edge may get up to twice the limit; every limit here is set far above what an honest
 * client does, so that slack costs nothing.
 */
export class WindowBudget {
  private start = -Infinity;
  private used = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Spends one if any is left in the current window. */
  take(now: number): boolean {
    if (now - this.start >= this.windowMs) {
      this.start = now;
      this.used = 0;
    }
    if (this.used >= this.limit) return false;
    this.used++;
    return true;
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
