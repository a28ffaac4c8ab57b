// A consistent view of a live database to dump from. Everything committed before the snapshot
// is in it, nothing committed after, and nothing half-written (each write is one transaction).

/** @typedef {import('../migrate.js').SqlRunner} SqlRunner */

/**
 * PostgreSQL: a read-only REPEATABLE READ transaction on its own connection. The site keeps
 * reading and writing beside it; the dump sees the database as it was when it began.
 * @template T
 * @param {string} url
 * @param {(sql: SqlRunner) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withPostgresSnapshot(url, fn) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET LOCAL TIME ZONE 'UTC'`);
    /** @type {SqlRunner} */
    const sql = { exec: (text) => client.query(text), query: async (text, params) => ({ rows: (await client.query(text, params)).rows }) };
    const result = await fn(sql);
    await client.query('COMMIT');
    return result;
  } finally {
    await client.end();
  }
}

/**
 * PGlite: one transaction holding its only session. PGlite has a single backend, so no second
 * snapshot can be read beside the site's queries: they wait until the dump ends (see the
 * decision note for how long that is).
 * @template T
 * @param {{ transaction<R>(fn: (tx: { exec(sql: string): Promise<unknown>; query(sql: string, params?: unknown[]): Promise<{ rows: any[] }> }) => Promise<R>): Promise<R> }} pglite
 *   PGlite itself (take.js) or the server's embedded database on its thread (lib/db/pglite-client.ts)
 * @param {(sql: SqlRunner) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withPgliteSnapshot(pglite, fn) {
  return pglite.transaction(async (tx) => {
    await tx.exec(`SET LOCAL TIME ZONE 'UTC'`);
    return fn({ exec: (text) => tx.exec(text), query: async (text, params) => ({ rows: (await tx.query(text, params)).rows }) });
  });
}
