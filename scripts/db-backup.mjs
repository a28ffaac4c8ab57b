#!/usr/bin/env node
// `npm run db:backup [-- file|dir]`: a compressed logical backup of the database DATABASE_URL
// names, taken while the site runs (docs/decisions/0009-backups.md). Default file:
// $BACKUP_DIR (or ./backups)/linefall-<time>.ndjson.gz. Restore with `npm run db:restore -- file`.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backupFileName } from '../lib/db/backup/format.js';
import { backupToFile } from '../lib/db/backup/take.js';
import { describeDbTarget, resolveDbTarget } from '../lib/db/target.js';
import { summary } from './db-summary.mjs';

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const target = resolveDbTarget(process.env.DATABASE_URL);
let file = positionals[0] ?? path.join(process.env.BACKUP_DIR?.trim() || 'backups', backupFileName());
if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, backupFileName());
if (existsSync(file)) {
  console.error(`[backup] ${file} exists already; choose another name.`);
  process.exit(1);
}
mkdirSync(path.dirname(path.resolve(file)), { recursive: true });

const started = Date.now();
try {
  const { via, bytes, tables } = await backupToFile(target, file);
  const how = via === 'site' ? ' (taken by the running site)' : '';
  console.log(`[backup] ${describeDbTarget(target)}${how} → ${file}: ${bytes} bytes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(summary(tables));
} catch (error) {
  console.error(`[backup] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
