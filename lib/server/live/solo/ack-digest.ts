import 'server-only';
import { createHash, type Hash } from 'node:crypto';
import type { ReplayEvent } from '@/lib/engine';

/**
 * How far a host had acknowledged a live game's input: the tick its copy reached, how many inputs
 * it held, and the sha256 of those inputs in order. Persisted as the game is played (store.ts)
 * and passed on with a handover (lease.ts), so a host taking the game up can tell whether a
 * resent log continues the one acknowledged before or was replaced with hindsight.
 */
export type AckCheckpoint = { tick: number; inputs: number; digest: string };

/** The digest of a game's inputs so far, kept as they arrive: the same however they were batched. */
export class InputDigest {
  private readonly hash: Hash = createHash('sha256');
  private n = 0;

  add(events: readonly ReplayEvent[]): void {
    // One update per batch, not per input: the same sha256 (it hashes the concatenation), and a
    // call per input was about a tenth of the server's handling of a batch.
    if (events.length === 0) return;
    let words = '';
    for (const e of events) words += wordOf(e);
    this.hash.update(words);
    this.n += events.length;
  }

  get inputs(): number {
    return this.n;
  }

  /** The digest so far; the running hash goes on. */
  digest(): string {
    return this.hash.copy().digest('base64url');
  }
}

/**
 * Whether `events`, the log of a game whose copy has run to `tick`, begins exactly as the
 * checkpoint says. Decided only once the log has reached the checkpoint's tick (every input
 * before it is then in): 'pending' until then.
 */
export function checkLog(events: readonly ReplayEvent[], tick: number, ended: boolean, c: AckCheckpoint): 'pending' | 'continues' | 'differs' {
  if (tick < c.tick) return ended ? 'differs' : 'pending';
  if (events.length < c.inputs) return 'differs';
  const next = events[c.inputs];
  if (next && next.tick < c.tick) return 'differs';
  const d = new InputDigest();
  d.add(events.slice(0, c.inputs));
  return d.digest() === c.digest ? 'continues' : 'differs';
}

/** The later of two checkpoints (a handover's carry may be older than the ticket's row). */
export function laterCheckpoint(a: AckCheckpoint | null | undefined, b: AckCheckpoint | null | undefined): AckCheckpoint | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return b.tick > a.tick ? b : a;
}

function wordOf(e: ReplayEvent): string {
  return `${e.tick}:${e.key}:${e.down ? 1 : 0};`;
}
