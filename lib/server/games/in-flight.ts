import 'server-only';
import { PoolBusyError } from '@/lib/server/verify-pool/pool';
import { VERIFY_POOL } from '@/lib/server/verify-pool';

/**
 * How many clients' submissions are past the gate at once (decision 0021, "Submissions in flight").
 * Past it a submission waits its turn before its first statement. A burst of submissions let in
 * together puts all of its statements ahead of every board read at the database (PGlite has one
 * connection, and its queries run on the event loop): a read then waits for the whole burst.
 * Two keep the one verification worker busy (one verifies while the other stores).
 */
export const IN_FLIGHT = {
  width: 2,
  /** Waiting submissions at most, as the pool's queue; one more is answered 503 busy. */
  maxWaiting: VERIFY_POOL.maxQueue,
  /** One client's submissions past the gate or waiting at it, as the pool's share. */
  perClient: VERIFY_POOL.perClient,
};

type Limits = typeof IN_FLIGHT;

/** A counting gate, first come first served, with a bounded queue and a bounded share per client. */
export class InFlightLimit {
  private inside = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly perClient = new Map<string, number>();
  constructor(private readonly limits: Limits) {}

  /** Runs `work` once a place is free; PoolBusyError at once (nothing done) if the queue or the client's share is full. */
  async run<T>(client: string, work: () => Promise<T>): Promise<T> {
    const mine = this.perClient.get(client) ?? 0;
    if (mine >= this.limits.perClient) throw new PoolBusyError(`this client already has ${mine} submissions in flight`);
    if (this.inside >= this.limits.width && this.waiting.length >= this.limits.maxWaiting) throw new PoolBusyError('the submission queue is full');
    this.perClient.set(client, mine + 1);
    try {
      if (this.inside >= this.limits.width) await new Promise<void>((enter) => this.waiting.push(enter));
      else this.inside++;
      try {
        return await work();
      } finally {
        // The place passes straight to the next in line, so nobody arriving meanwhile jumps the queue.
        const next = this.waiting.shift();
        if (next) next();
        else this.inside--;
      }
    } finally {
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left === 0) this.perClient.delete(client);
      else this.perClient.set(client, left);
    }
  }

  /** Submissions past the gate, and waiting at it (tests, logs). */
  get load(): { inside: number; waiting: number } {
    return { inside: this.inside, waiting: this.waiting.length };
  }
}

// On globalThis: Next may load this module once per bundle, and one process must have one gate.
const holder = globalThis as unknown as { __linefallSubmissionsInFlight?: InFlightLimit };

export function submissionsInFlight(): InFlightLimit {
  holder.__linefallSubmissionsInFlight ??= new InFlightLimit(IN_FLIGHT);
  return holder.__linefallSubmissionsInFlight;
}
