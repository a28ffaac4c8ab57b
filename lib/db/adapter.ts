import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { applyMigrations } from './migrate.js';
import type { DbTarget } from './target.js';

export type Db = PrismaClient;

/**
 * Opens a Prisma client on the target. An in-memory PGlite starts empty every time, so it
 * is migrated here; persistent databases are migrated by `npm run db:migrate` (run by
 * `npm start`) so that a web request never waits on a schema change.
 */
export async function openPrisma(target: DbTarget): Promise<Db> {
  if (target.kind === 'postgres') {
    return new PrismaClient({ adapter: new PrismaPg({ connectionString: target.url, max: 10 }) });
  }
  const pglite = target.dataDir ? new PGlite(target.dataDir) : new PGlite();
  await pglite.waitReady;
  if (!target.dataDir) {
    await applyMigrations({
      exec: (sql) => pglite.exec(sql),
      query: async (sql, params) => ({ rows: (await pglite.query<Record<string, unknown>>(sql, params)).rows }),
    });
  }
  return new PrismaClient({ adapter: new PrismaPGlite(pglite) });
}
