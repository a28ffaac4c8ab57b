// `npm run db:backup` and `db:move`: a backup file of the database at a target. PostgreSQL is
// read through its own snapshot beside the running site; an embedded directory held by a
// running site is dumped by that site (admin.js), and one that nobody holds is opened here.
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { closeTree, preparePgliteDir } from '../private-dir.js';
import { backupFromServer } from './admin.js';
import { writeBackup } from './dump.js';
import { inspectBackup } from './inspect.js';
import { withPgliteSnapshot, withPostgresSnapshot } from './snapshot.js';

/**
 * Writes the backup to `file` (first as `file.partial`, renamed once whole and checked).
 * @param {import('../target.js').DbTarget} target
 * @param {string} file
 * @returns {Promise<{ via: 'site' | 'direct'; bytes: number; tables: Record<string, import('./format.js').TableDigest> }>}
 */
export async function backupToFile(target, file) {
  const partial = `${file}.partial`;
  try {
    /** @type {'site' | 'direct'} */
    let via = 'direct';
    if (target.kind === 'postgres') {
      await withPostgresSnapshot(target.url, (sql) => writeBackup(sql, createWriteStream(partial, { mode: 0o600 })));
    } else if (!target.dataDir) {
      throw new Error('an in-memory database lives only inside its process: there is nothing on disk to back up');
    } else if (!existsSync(target.dataDir)) {
      throw new Error(`there is no embedded database at ${target.dataDir}`);
    } else if (await backupFromServer(target.dataDir, createWriteStream(partial, { mode: 0o600 }))) {
      via = 'site';
    } else {
      const { PGlite } = await import('@electric-sql/pglite');
      preparePgliteDir(target.dataDir);
      const pglite = new PGlite(target.dataDir);
      try {
        await withPgliteSnapshot(pglite, (sql) => writeBackup(sql, createWriteStream(partial, { mode: 0o600 })));
      } finally {
        await pglite.close();
        closeTree(target.dataDir);
      }
    }
    const { tables } = await inspectBackup(partial);
    await rename(partial, file);
    return { via, bytes: (await stat(file)).size, tables };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
