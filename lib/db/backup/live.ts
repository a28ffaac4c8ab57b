// Backups taken by the running site itself: of the embedded database it holds (the only
// process that may open it), or of its PostgreSQL through a snapshot on a connection of its own.
import { Transform, type Writable } from 'node:stream';
import { liveDbHandle } from '@/lib/db/live';
import { resolveDbTarget } from '@/lib/db/target.js';
import { writeBackup } from '@/lib/db/backup/dump.js';
import { withPgliteSnapshot, withPostgresSnapshot } from '@/lib/db/backup/snapshot.js';
import { backupStatus } from '@/lib/db/backup/status';

/** Streams a backup of the site's database into `output`, and records it for /api/health. */
export async function backupLive(databaseUrl: string | undefined, output: Writable): Promise<{ bytes: number }> {
  const started = Date.now();
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  counter.pipe(output);
  const finished = new Promise<void>((resolve, reject) => {
    output.on('finish', resolve);
    output.on('close', resolve);
    output.on('error', reject);
  });
  const target = resolveDbTarget(databaseUrl);
  try {
    if (target.kind === 'postgres') {
      await withPostgresSnapshot(target.url, (sql) => writeBackup(sql, counter));
    } else {
      const { pglite } = await liveDbHandle(databaseUrl);
      if (!pglite) throw new Error('the embedded database is not open');
      await withPgliteSnapshot(pglite, (sql) => writeBackup(sql, counter));
    }
    await finished;
  } catch (error) {
    backupStatus().lastError = { at: new Date().toISOString(), message: error instanceof Error ? error.message : String(error) };
    throw error;
  }
  backupStatus().last = { at: new Date(started).toISOString(), bytes, seconds: (Date.now() - started) / 1000 };
  backupStatus().lastError = null;
  return { bytes };
}
