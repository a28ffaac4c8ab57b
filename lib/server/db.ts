import 'server-only';
import type { Db, RawSql } from '@/lib/db/adapter';
import { DbUnavailableError } from '@/lib/db/errors';
import { liveDbHandle, liveHolder } from '@/lib/db/live';
import { env } from '@/lib/server/env';

export type { Db, RawSql };

// The handle lives in lib/db/live.ts, shared with the backup service (instrumentation.ts).
const holder = liveHolder as typeof liveHolder & { __linefallDbDown?: boolean; __linefallFaults?: boolean };

/**
 * The process's Prisma client, opened on first use (never at import: `next build` imports this).
 * A database that cannot be opened, or an embedded one that died, is opened again by the next
 * request instead of failing every request until a restart.
 */
export async function getDb(): Promise<Db> {
  if (holder.__linefallDbDown) throw new DbUnavailableError('The database was taken away (fault injection).');
  return (await liveDbHandle(env.DATABASE_URL)).db;
}

/** The same database's driver, for the hot statements that skip Prisma's query compiler (adapter.ts). */
export async function getSql(): Promise<RawSql> {
  if (holder.__linefallDbDown) throw new DbUnavailableError('The database was taken away (fault injection).');
  return (await liveDbHandle(env.DATABASE_URL)).sql;
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
