import 'server-only';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Jobs } from '@/lib/server/verify-pool/jobs';
import { poolFailure, WorkerPool, type PoolLoad } from '@/lib/server/verify-pool/pool';

export { poolFailure };

/**
 * The instance's verification pool (decision 0021). One worker per core but one, so the event loop
 * keeps a core; at least one. A burst beyond the workers waits in a queue; past it, 503 busy.
 */
export const VERIFY_POOL = {
  size: Math.max(1, availableParallelism() - 1),
  /** At 40–85 ms for the longest replay, a full queue is cleared in a few seconds on one worker. */
  maxQueue: 64,
  /**
   * A player's games being verified at once: a retry storm or a script fills only its own share.
   * A browser sends its queued games one at a time, beside the game just played (and other tabs').
   */
  perClient: 4,
  /** Far above the longest job (a first-to-7 match of hour-long games is about a second). */
  jobTimeoutMs: 60_000,
  /** What a busy answer asks the client to wait. */
  retryAfterSeconds: 2,
};

/**
 * The worker's modules, from the checkout the server runs in (as scripts/serve.mjs loads lib/*.js):
 * bundled server code has no file of its own to resolve them from.
 */
export function verifyPoolFiles(root = process.cwd()): { boot: URL; entry: URL } {
  const dir = join(root, 'lib', 'server', 'verify-pool');
  return { boot: pathToFileURL(join(dir, 'boot.mjs')), entry: pathToFileURL(join(dir, 'worker.ts')) };
}

// On globalThis: Next may load this module once per bundle (routes, instrumentation), and one
// process must have one pool.
const holder = globalThis as unknown as { __linefallVerifyPool?: WorkerPool<Jobs> };

export function verifyPool(): WorkerPool<Jobs> {
  holder.__linefallVerifyPool ??= new WorkerPool<Jobs>({ ...verifyPoolFiles(), ...VERIFY_POOL });
  return holder.__linefallVerifyPool;
}

/** The pool's load for monitoring, or null before it exists (the server starts it at boot; looking does not). */
export function verifyPoolLoad(): PoolLoad | null {
  return holder.__linefallVerifyPool?.load ?? null;
}

/**
 * A job of the server's own (a match to store, a stream nobody stored, a moderator's look): never
 * refused, served before clients' jobs, and tried once more when the worker running it is lost, so
 * a finished match is not lost to a crash elsewhere.
 */
export async function verifyOwn<K extends keyof Jobs>(name: K, input: Parameters<Jobs[K]>[0]): Promise<ReturnType<Jobs[K]>> {
  try {
    return await verifyPool().run(name, input, { own: true });
  } catch (error) {
    if (poolFailure(error) !== 'crashed') throw error;
    return verifyPool().run(name, input, { own: true });
  }
}
