#!/usr/bin/env node
// `npm run db:restore -- <file> [--force]`: loads a backup into the database DATABASE_URL names
// (an empty or new embedded directory, or an empty PostgreSQL database). The backup's migration
// history must be one this version knows; a target with data is refused unless --force, which
// replaces it. One transaction: it commits only once every table matches the file.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { restoreInto } from '../lib/db/backup/load.js';
import { describeDbTarget, resolveDbTarget } from '../lib/db/target.js';
import { summary } from './db-summary.mjs';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
const file = positionals[0];
if (!file || !existsSync(file)) {
  console.error(file ? `[restore] no such file: ${file}` : 'usage: npm run db:restore -- <backup file> [--force]');
  process.exit(1);
}
const target = resolveDbTarget(process.env.DATABASE_URL);
try {
  const result = await restoreInto(target, file, { force: values.force, log: (line) => console.log(`[restore] ${line}`) });
  console.log(`[restore] ${file} → ${describeDbTarget(target)}: verified, ${result.seconds.toFixed(1)} s`);
  console.log(summary(result.tables));
} catch (error) {
  console.error(`[restore] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
