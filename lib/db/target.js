// Which database a DATABASE_URL means. Plain JS (typed with JSDoc) because the launcher
// scripts and next.config.js load it with no TypeScript step.
import path from 'node:path';

/** Where the embedded database lives when DATABASE_URL is unset. */
export const DEFAULT_PGLITE_DIR = 'data/pglite';

/**
 * @typedef {{ kind: 'pglite'; dataDir: string | null }} PgliteTarget dataDir null = in memory
 * @typedef {{ kind: 'postgres'; url: string }} PostgresTarget
 * @typedef {PgliteTarget | PostgresTarget} DbTarget
 */

/**
 * unset → embedded PGlite in data/pglite; `pglite:memory` → PGlite in memory (tests);
 * `pglite:<dir>` → PGlite in that directory; `postgres://` or `postgresql://` → PostgreSQL.
 * @param {string | undefined} url
 * @returns {DbTarget}
 */
export function resolveDbTarget(url) {
  if (url === undefined || url.trim() === '') {
    return { kind: 'pglite', dataDir: path.resolve(DEFAULT_PGLITE_DIR) };
  }
  if (url.startsWith('pglite:')) {
    const where = url.slice('pglite:'.length);
    if (where === 'memory' || where === ':memory:') return { kind: 'pglite', dataDir: null };
    if (where === '') throw new Error('DATABASE_URL "pglite:" needs a directory, e.g. pglite:data/pglite');
    return { kind: 'pglite', dataDir: path.resolve(where) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  throw new Error(
    'DATABASE_URL must be unset (embedded PGlite), pglite:<dir>, pglite:memory or a postgres:// URL',
  );
}

/**
 * A short description for logs, without the password.
 * @param {DbTarget} target
 */
export function describeDbTarget(target) {
  if (target.kind === 'pglite') return target.dataDir ? `PGlite at ${target.dataDir}` : 'PGlite in memory';
  const u = new URL(target.url);
  return `PostgreSQL at ${u.host}${u.pathname}`;
}
