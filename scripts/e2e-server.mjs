#!/usr/bin/env node
// A server for Playwright: the production build (made by `npm test` beforehand) on a fresh
// database that is thrown away afterwards, so test runs never touch a developer's data.
//   E2E_DB=pglite   (default) embedded PGlite in a temporary directory
//   E2E_DB=postgres a new database on TEST_POSTGRES_URL's server, dropped on exit
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSql } from '../lib/db/connect.js';
import { E2E_AUTH_SECRET } from './e2e-secret.mjs';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

const port = process.env.PORT ?? '3100';
const dir = mkdtempSync(path.join(tmpdir(), 'linefall-e2e-'));
let databaseUrl = `pglite:${path.join(dir, 'pglite')}`;
let dropDatabase = async () => {};

if (process.env.E2E_DB === 'postgres') {
  const admin = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `linefall_e2e_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const sql = await openSql({ kind: 'postgres', url: admin });
  await sql.exec(`CREATE DATABASE "${name}"`);
  await sql.close();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  dropDatabase = async () => {
    const again = await openSql({ kind: 'postgres', url: admin });
    await again.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await again.close();
  };
}

const env = {
  ...process.env,
  NODE_ENV: 'production',
  NEXT_TELEMETRY_DISABLED: '1',
  DATABASE_URL: databaseUrl,
  AUTH_SECRET: E2E_AUTH_SECRET,
  NEXTAUTH_URL: `http://127.0.0.1:${port}`,
  PORT: port,
  HOST: '127.0.0.1',
  // Tests play many clients from one machine: each names its address in X-Forwarded-For, as a
  // reverse proxy would, so rate limits see separate clients (tests/e2e/fixtures.ts).
  TRUST_PROXY_HOPS: '1',
  // The tests' accounts are seconds old: ranked versus is open to them here (its refusal of new
  // accounts is tested on a server of its own, tests/e2e/accounts.spec.ts).
  RANKED_ACCOUNT_AGE: '0m',
};
const run = (args) => spawn(process.execPath, args, { env, stdio: 'inherit' });

async function finish(status) {
  rmSync(dir, { recursive: true, force: true });
  await dropDatabase().catch((error) => console.error('[e2e-server] could not drop the test database', error));
  process.exit(status ?? 0);
}

let child = run(['scripts/migrate.mjs']);
// Registered before anything starts, so a stop at any moment still cleans up.
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  if (code !== 0) return void finish(code ?? 1);
  child = run([...SERVER_NODE_FLAGS, 'scripts/serve.mjs']);
  child.on('exit', (status) => void finish(status === null ? 0 : status));
});
