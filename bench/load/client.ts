// A minimal HTTP player for the load test: its own cookie jar and its own client address (the
// server under test trusts one proxy hop, as behind a load balancer).

export type Timed = { status: number; ms: number; body: unknown; headers: Headers; attempts?: number };

/** Answers a client retries, as the site's own pages do: the proxy lost its instance, or a 503 with Retry-After. */
const RETRYABLE = new Set([502, 503, 504]);
/** The verification pool's full queue: the browser's offline queue keeps the game and sends it again (decision 0021). */
const isBusy = (r: Timed) => r.status === 503 && (r.body as { error?: { code?: string } } | null)?.error?.code === 'busy';

export class Player {
  private cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly address: string,
    /**
     * true: retry lost connections and 502/503/504 (several instances, one may be killed mid-load).
     * 'busy': retry only the pool's `503 busy`, after its Retry-After, as the browser does; any other
     * failure is the answer.
     */
    readonly retry: boolean | 'busy' = false,
  ) {}

  async request(path: string, init: { method?: string; json?: unknown; form?: Record<string, string> } = {}): Promise<Timed> {
    if (!this.retry) return this.once(path, init);
    if (this.retry === 'busy') return this.untilNotBusy(path, init);
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      const r = await this.once(path, init).catch(() => null);
      if ((r && !RETRYABLE.has(r.status)) || attempt === 30) {
        if (!r) throw new Error(`${path}: no answer after ${attempt} attempts`);
        return { ...r, ms: performance.now() - started, attempts: attempt };
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * attempt)));
    }
  }

  private async untilNotBusy(path: string, init: { method?: string; json?: unknown; form?: Record<string, string> }): Promise<Timed> {
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      const r = await this.once(path, init);
      if (!isBusy(r) || attempt === 30) return { ...r, ms: performance.now() - started, attempts: attempt };
      await new Promise((resolve) => setTimeout(resolve, 1_000 * Number(r.headers.get('retry-after') ?? 2)));
    }
  }

  private async once(path: string, init: { method?: string; json?: unknown; form?: Record<string, string> }): Promise<Timed> {
    const headers: Record<string, string> = { 'x-forwarded-for': this.address };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const started = performance.now();
    const response = await fetch(`${this.base}${path}`, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    const text = await response.text();
    const ms = performance.now() - started;
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text for the report
    }
    return { status: response.status, ms, body: parsed, headers: response.headers };
  }

  /** Puts a cookie in the jar, as if the server had set it (a session made outside the site). */
  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** The jar as a Cookie header, for tools that send requests themselves (autocannon). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async signUpAndIn(username: string, password: string): Promise<void> {
    const created = await this.request('/api/account', { json: { username, password } });
    if (created.status !== 201) throw new Error(`sign-up ${username}: ${created.status} ${JSON.stringify(created.body)}`);
    const { csrfToken } = (await this.request('/api/auth/csrf')).body as { csrfToken: string };
    const signedIn = await this.request('/api/auth/callback/credentials', { form: { csrfToken, username, password, json: 'true' } });
    if (signedIn.status !== 200) throw new Error(`sign-in ${username}: ${signedIn.status}`);
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
