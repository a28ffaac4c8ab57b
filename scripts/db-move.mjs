#!/usr/bin/env node
// `npm run db:move -- --to <postgresql://…|pglite:dir> [--from …] [--force]`: copies the site's
// database (DATABASE_URL, or --from) into another one: backup, restore, then a row count and
// checksum per table compared between the file, the target and (when no site holds it) the
// source. Embedded → PostgreSQL when a site outgrows one process; PostgreSQL → embedded for a
// local copy of production. Stop the site first for a complete move: writes after the backup
// began stay behind in the old database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serverHolds } from '../lib/db/backup/admin.js';
import { tableDigests } from '../lib/db/backup/catalog.js';
import { restoreInto } from '../lib/db/backup/load.js';
import { backupToFile } from '../lib/db/backup/take.js';
import { openSql } from '../lib/db/connect.js';
import { describeDbTarget, resolveDbTarget } from '../lib/db/target.js';
import { summary } from './db-summary.mjs';

const { values } = parseArgs({ options: { to: { type: 'string' }, from: { type: 'string' }, force: { type: 'boolean', default: false } } });
if (!values.to) {
  console.error('usage: npm run db:move -- --to <postgresql://…|pglite:<dir>> [--from <url>] [--force]');
  process.exit(1);
}
const fromUrl = values.from ?? process.env.DATABASE_URL;
const source = resolveDbTarget(fromUrl);
const target = resolveDbTarget(values.to);
const scratch = mkdtempSync(path.join(tmpdir(), 'linefall-move-'));
try {
  if (JSON.stringify(source) === JSON.stringify(target)) throw new Error('--to names the database being moved');
  const file = path.join(scratch, 'move.ndjson.gz');
  let started = Date.now();
  const backup = await backupToFile(source, file);
  console.log(`[move] backup of ${describeDbTarget(source)}: ${backup.bytes} bytes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  started = Date.now();
  const restored = await restoreInto(target, file, { force: values.force });
  console.log(`[move] restored into ${describeDbTarget(target)} in ${restored.seconds.toFixed(1)} s; rows and checksums match the backup:`);
  console.log(summary(restored.tables));
  const live = source.kind === 'pglite' && source.dataDir && (await serverHolds(source.dataDir));
  if (source.kind === 'postgres' || !live) {
    // The source as it is now: equal unless a site kept writing to it after the backup began.
    const sql = await openSql(source);
    const now = await tableDigests(sql).finally(() => sql.close());
    const moved = Object.keys(now).filter((t) => now[t]?.rows !== restored.tables[t]?.rows || now[t]?.sum !== restored.tables[t]?.sum);
    if (moved.length) console.warn(`[move] the source changed after the backup began (${moved.join(', ')}): stop the site and move again to take those writes along.`);
    else console.log('[move] the source still matches the copy table for table.');
  } else {
    console.warn('[move] a site is still running on the source: writes it accepts from now on are not in the copy. Stop it before switching.');
  }
  console.log(`\nNow start the site with:\n  DATABASE_URL=${values.to}\n`);
} catch (error) {
  console.error(`[move] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
