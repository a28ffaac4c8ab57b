import 'server-only';
import { openPrisma, type Db, type DbHandle } from '@/lib/db/adapter';
import { DbUnavailableError } from '@/lib/db/errors';
import { resolveDbTarget } from '@/lib/db/target.js';
import { env } from '@/lib/server/env';

export type { Db };

// One client per process. Kept on globalThis so that dev-mode hot reloads, which re-run
// this module, reuse it: PGlite allows only one open handle on a data directory.
const holder = globalThis as typeof globalThis & { __linefallDb?: Promise<DbHandle>; __linefallDbDown?: boolean; __linefallFaults?: boolean };

/**
 * The process's Prisma client, opened on first use (never at import: `next build` imports this).
 * A database that cannot be opened, or an embedded one that died, is opened again by the next
 * request instead of failing every request until a restart.
 */
export async function getDb(): Promise<Db> {
  if (holder.__linefallDbDown) throw new DbUnavailableError('The database was taken away (fault injection).');
  // Requests that find the same dead handle must not each open another: the first to look again
  // replaces it, the others find the replacement on their next turn round the loop.
  for (let current = holder.__linefallDb; current; current = holder.__linefallDb) {
    const handle = await current.catch(() => null);
    if (handle && !handle.broken()) return handle.db;
    if (holder.__linefallDb === current) holder.__linefallDb = undefined;
  }
  const opening = openPrisma(resolveDbTarget(env.DATABASE_URL));
  holder.__linefallDb = opening;
  try {
    return (await opening).db;
  } catch (error) {
    if (holder.__linefallDb === opening) holder.__linefallDb = undefined;
    throw new DbUnavailableError(`The database could not be opened: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * Fault injection for the resilience tests (LINEFALL_FAULT_INJECTION=1 only): SIGUSR2 takes the
 * database away (an embedded one is closed under running queries, as if it crashed) and the
 * next SIGUSR2 gives it back, to be reopened by the next request.
 */
// Registered once per process even when bundling gives this module several instances.
if (env.LINEFALL_FAULT_INJECTION && !holder.__linefallFaults) {
  holder.__linefallFaults = true;
  process.on('SIGUSR2', () => {
    holder.__linefallDbDown = !holder.__linefallDbDown;
    console.log(`[db] fault injection: database ${holder.__linefallDbDown ? 'down' : 'back'}`);
    if (!holder.__linefallDbDown) return;
    const current = holder.__linefallDb;
    holder.__linefallDb = undefined;
    void current?.then((handle) => handle.close()).catch(() => {});
  });
}
