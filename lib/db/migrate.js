// Applies prisma/migrations/*/migration.sql in order, in-process, on PGlite or PostgreSQL.
// We do not run `prisma migrate deploy`: its JS schema engine needs workarounds on
// PostgreSQL (see docs/decisions/0001) and a second process cannot open a PGlite
// directory that the app holds. The bookkeeping table is Prisma's own, so
// `prisma migrate status/diff` keep understanding the database.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The two calls we need from either driver.
 * @typedef {{
 *   exec(sql: string): Promise<unknown>;
 *   query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
 * }} SqlRunner
 */

export const MIGRATIONS_DIR = path.join(process.cwd(), 'prisma', 'migrations');
// Any constant works; it only has to be the same for every Linefall process.
const LOCK_ID = 7_420_411;

/** Prisma's bookkeeping table, as `prisma migrate` creates it (also used by restores). */
export const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * @param {string} dir
 * @returns {Promise<{ name: string; sql: string; checksum: string }[]>}
 */
export async function readMigrations(dir = MIGRATIONS_DIR) {
  const entries = await readdir(/* turbopackIgnore: true */ dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/* turbopackIgnore: true */ path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies every migration not yet applied; refuses to run if an applied one was edited.
 * @param {SqlRunner} db
 * @param {{ dir?: string; log?: (line: string) => void }} [options]
 * @returns {Promise<string[]>} names of the migrations applied now
 */
export async function applyMigrations(db, options = {}) {
  const log = options.log ?? (() => {});
  const migrations = await readMigrations(options.dir);
  // Serialises concurrent starts of several app instances against one PostgreSQL.
  await db.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
  try {
    await db.exec(BOOKKEEPING);
    const done = await db.query(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const applied = new Map(done.rows.map((r) => [String(r.migration_name), String(r.checksum)]));
    const ran = [];
    for (const m of migrations) {
      const previous = applied.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) {
          throw new Error(`migration ${m.name} was edited after it was applied; add a new migration instead`);
        }
        continue;
      }
      log(`applying migration ${m.name}`);
      await db.exec('BEGIN');
      try {
        await db.exec(m.sql);
        await db.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)',
          [randomUUID(), m.checksum, m.name],
        );
        await db.exec('COMMIT');
      } catch (error) {
        await db.exec('ROLLBACK');
        throw error;
      }
      ran.push(m.name);
    }
    return ran;
  } finally {
    await db.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]);
  }
}
