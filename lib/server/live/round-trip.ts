import 'server-only';
import { randomBytes } from 'node:crypto';
import { PACING } from '@/lib/server/live/pacing';

/**
 * A connection's round trip as the server measures it, for the credit a wait for pieces earns
 * (pacing.ts starveCreditOf): a WebSocket ping, a control frame the browser answers by itself,
 * below the page's scripts, carrying a fresh random payload, timed to the pong that echoes it.
 * A client with its own socket can hold a pong back but cannot answer a ping before it has its
 * payload, so it can make its round trip look longer, never shorter; every sample is therefore
 * capped at PACING.starveCreditMaxMs (a ping unanswered that long counts as that much), and what
 * a client gains by stalling its pongs is at most the cap. The figure is the median of the last
 * few samples: one slow moment on an honest connection does not move it.
 */
export class RoundTrip {
  private outstanding: { payload: Buffer; at: number } | null = null;
  private lastProbe = -Infinity;
  private readonly samples: number[] = [];

  constructor(
    private readonly ping: (payload: Buffer) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Sends a ping unless one went less than PACING.roundTripProbeEveryMs ago and is still answerable. */
  probe(): void {
    const now = this.now();
    if (this.outstanding) {
      if (now - this.outstanding.at < PACING.starveCreditMaxMs) return;
      this.record(PACING.starveCreditMaxMs);
      this.outstanding = null;
    }
    if (now - this.lastProbe < PACING.roundTripProbeEveryMs) return;
    this.lastProbe = now;
    this.outstanding = { payload: randomBytes(8), at: now };
    this.ping(this.outstanding.payload);
  }

  /** A pong came: a sample if it echoes the ping still awaited (any other is ignored: late, unsolicited, or the heartbeat's). */
  pong(payload: Buffer): void {
    const o = this.outstanding;
    if (!o || !payload.equals(o.payload)) return;
    this.outstanding = null;
    this.record(Math.min(PACING.starveCreditMaxMs, this.now() - o.at));
  }

  /** The median of the recent samples in ms (capped), or null before the first. */
  get ms(): number | null {
    if (this.samples.length === 0) return null;
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[(sorted.length - 1) >> 1]!;
  }

  private record(ms: number): void {
    this.samples.push(ms);
    if (this.samples.length > PACING.roundTripSamples) this.samples.shift();
  }
}
