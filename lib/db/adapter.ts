import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { applyMigrations } from '@/lib/db/migrate.js';
import { closeTree, preparePgliteDir } from '@/lib/db/private-dir.js';
import type { DbTarget } from '@/lib/db/target.js';

export type Db = PrismaClient;

/** An open database: the client, whether it died under us, how to let it go, and the embedded engine (backups). */
export type DbHandle = { db: Db; broken: () => boolean; close: () => Promise<void>; pglite: PGlite | null };

/**
 * Opens a Prisma client on the target. An in-memory PGlite starts empty every time, so it
 * is migrated here; persistent databases are migrated by `npm run db:migrate` (run by
 * `npm start`) so that a web request never waits on a schema change.
 */
/** Connections per instance to PostgreSQL. */
export const POOL_SIZE = 10;
/**
 * How long a query waits for a free connection before the API answers 503: a transaction waits as
 * long (Prisma's own default is 2 s), so a burst that holds every connection for a moment slows
 * sign-ups down instead of failing them.
 */
const POOL_WAIT_MS = 5_000;

export async function openPrisma(target: DbTarget): Promise<DbHandle> {
  if (target.kind === 'postgres') {
    // A PostgreSQL pool heals itself: broken connections are dropped and new ones opened.
    const db = new PrismaClient({
      adapter: new PrismaPg({ connectionString: target.url, max: POOL_SIZE, connectionTimeoutMillis: POOL_WAIT_MS }),
      transactionOptions: { maxWait: POOL_WAIT_MS },
    });
    return { db, broken: () => false, close: () => db.$disconnect(), pglite: null };
  }
  if (target.dataDir) preparePgliteDir(target.dataDir);
  const pglite = target.dataDir ? new PGlite(target.dataDir) : new PGlite();
  await pglite.waitReady;
  if (target.dataDir) closeTree(target.dataDir);
  if (!target.dataDir) {
    await applyMigrations({
      exec: (sql) => pglite.exec(sql),
      query: async (sql, params) => ({ rows: (await pglite.query<Record<string, unknown>>(sql, params)).rows }),
    });
  }
  const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  // An embedded database that closed (or crashed) stays closed: the caller must open it again.
  return { db, broken: () => pglite.closed, close: async () => void (await pglite.close()), pglite };
}
