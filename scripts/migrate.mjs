#!/usr/bin/env node
// `npm run db:migrate`: bring the configured database (DATABASE_URL, default: embedded
// PGlite in data/pglite) up to date. Also run by `npm start` before the server starts.
import { openSql } from '../lib/db/connect.js';
import { applyMigrations } from '../lib/db/migrate.js';
import { describeDbTarget, resolveDbTarget } from '../lib/db/target.js';

const target = resolveDbTarget(process.env.DATABASE_URL);
const started = Date.now();
const sql = await openSql(target);
try {
  const ran = await applyMigrations(sql, { log: (line) => console.log(`[db] ${line}`) });
  const what = ran.length ? `applied ${ran.length} migration(s)` : 'already up to date';
  console.log(`[db] ${describeDbTarget(target)}: ${what} in ${Date.now() - started} ms`);
} finally {
  await sql.close();
}
