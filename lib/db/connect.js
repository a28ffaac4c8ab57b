// Raw SQL connections for the migrator and the test harness (the app itself talks
// through Prisma: lib/server/db.ts).
import { closeTree, preparePgliteDir } from './private-dir.js';

/**
 * @typedef {import('./migrate.js').SqlRunner & { close(): Promise<void> }} SqlConnection
 */

/**
 * @param {import('./target.js').DbTarget} target
 * @returns {Promise<SqlConnection>}
 */
export async function openSql(target) {
  if (target.kind === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    if (target.dataDir) preparePgliteDir(target.dataDir);
    const db = target.dataDir ? new PGlite(target.dataDir) : new PGlite();
    await db.waitReady;
    if (target.dataDir) closeTree(target.dataDir);
    return {
      exec: (sql) => db.exec(sql),
      query: async (sql, params) => ({ rows: (await db.query(sql, params)).rows }),
      close: () => db.close(),
    };
  }
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  return {
    exec: (sql) => client.query(sql),
    query: async (sql, params) => ({ rows: (await client.query(sql, params)).rows }),
    close: () => client.end(),
  };
}
