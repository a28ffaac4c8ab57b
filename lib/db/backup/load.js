// A restore into a target named like DATABASE_URL, for db:restore and db:move: refuses an
// in-memory target (lost at exit) and an embedded directory a running site holds.
import { createReadStream } from 'node:fs';
import { openSql } from '../connect.js';
import { serverHolds } from './admin.js';
import { restoreBackup } from './restore.js';

/**
 * @param {import('../target.js').DbTarget} target
 * @param {string} file
 * @param {{ force?: boolean; log?: (line: string) => void }} [options]
 */
export async function restoreInto(target, file, options = {}) {
  if (target.kind === 'pglite') {
    if (!target.dataDir) throw new Error('an in-memory database would be lost when this command exits: restore into a directory (pglite:<dir>) or PostgreSQL');
    if (await serverHolds(target.dataDir)) throw new Error(`a running site holds ${target.dataDir}: stop it first (only one process may open an embedded database)`);
  }
  const started = Date.now();
  const sql = await openSql(target);
  try {
    const { tables } = await restoreBackup(sql, createReadStream(file), options);
    return { tables, seconds: (Date.now() - started) / 1000 };
  } finally {
    await sql.close();
  }
}
