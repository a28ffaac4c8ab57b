// One PGlite to a data directory: two on the same files corrupt them. A new thread on a directory
// waits until the previous one's thread has exited, not only until it was told to close (a close
// can take seconds, and a thread that fails is replaced by the next request: lib/db/live.ts).
import { resolve } from 'node:path';

/** Who holds a directory: still open (`held`), and the promise of its thread's exit. */
export type DirHolder = { held: () => boolean; exited: Promise<unknown> };

// On globalThis: Next compiles the app and instrumentation as separate bundles, each with its own
// copy of this module, and both open the database through lib/db/live.ts.
const registry = globalThis as typeof globalThis & { __linefallPgliteDirs?: Map<string, DirHolder> };
const holders = (registry.__linefallPgliteDirs ??= new Map());

/**
 * Claims `dataDir` for `start`, once the previous holder's thread has exited; refuses while that
 * holder is still open (nothing would ever release it).
 */
export async function claimDir<T extends { closed: boolean; exited: Promise<unknown> }>(dataDir: string, start: () => Promise<T>): Promise<T> {
  const key = resolve(dataDir);
  const previous = holders.get(key);
  if (previous?.held()) throw new Error(`${key} is already open in this process (one PGlite to a directory)`);
  let thread: T | null = null;
  let failed = false;
  // Claimed before waiting: a third caller meanwhile is refused (this one holds it), never opened beside it.
  const started = Promise.resolve(previous?.exited).then(start);
  holders.set(key, { held: () => !failed && !(thread?.closed ?? false), exited: started.then((t) => t.exited, () => undefined) });
  try {
    thread = await started;
    return thread;
  } catch (error) {
    failed = true;
    throw error;
  }
}
