// The process's one open database, shared by the app (lib/server/db.ts) and the backup service
// (instrumentation.ts), which Next compiles as separate bundles: hence globalThis, which also
// survives dev-mode hot reloads. PGlite allows only one open handle on a data directory.
import { openPrisma, type DbHandle } from '@/lib/db/adapter';
import { DbUnavailableError } from '@/lib/db/errors';
import { resolveDbTarget } from '@/lib/db/target.js';

export const liveHolder = globalThis as typeof globalThis & { __linefallDb?: Promise<DbHandle> };

/**
 * The open database, opened on first use. One that cannot be opened, or an embedded one that
 * died, is opened again by the next caller instead of failing every request until a restart.
 */
export async function liveDbHandle(databaseUrl: string | undefined): Promise<DbHandle> {
  // Callers that find the same dead handle must not each open another: the first to look again
  // replaces it, the others find the replacement on their next turn round the loop.
  for (let current = liveHolder.__linefallDb; current; current = liveHolder.__linefallDb) {
    const handle = await current.catch(() => null);
    if (handle && !handle.broken()) return handle;
    if (liveHolder.__linefallDb === current) liveHolder.__linefallDb = undefined;
  }
  const opening = openPrisma(resolveDbTarget(databaseUrl));
  liveHolder.__linefallDb = opening;
  try {
    return await opening;
  } catch (error) {
    if (liveHolder.__linefallDb === opening) liveHolder.__linefallDb = undefined;
    throw new DbUnavailableError(`The database could not be opened: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
