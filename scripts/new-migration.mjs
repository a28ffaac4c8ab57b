#!/usr/bin/env node
// `npm run db:new-migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// with the SQL that turns the committed schema (git HEAD) into the working-tree schema.
// Works offline: `prisma migrate diff` runs on the WebAssembly schema engine (prisma.config.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:new-migration -- <snake_case_name>');
  process.exit(1);
}
const previous = path.join(mkdtempSync(path.join(tmpdir(), 'linefall-schema-')), 'schema.prisma');
let from = ['--from-empty'];
try {
  writeFileSync(previous, execFileSync('git', ['show', 'HEAD:prisma/schema.prisma']));
  from = ['--from-schema-datamodel', previous];
} catch {
  console.log('no committed schema yet: diffing from an empty database');
}
const sql = execFileSync(
  process.execPath,
  ['node_modules/prisma/build/index.js', 'migrate', 'diff', ...from, '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = path.join('prisma', 'migrations', `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'migration.sql'), sql.replace(/^Loaded Prisma config.*\n/m, '').trimStart());
console.log(`wrote ${dir}/migration.sql — review it, then \`npm run db:migrate\``);
