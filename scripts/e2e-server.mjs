#!/usr/bin/env node
// The server Playwright tests run against: the production build (made by `npm test`
// beforehand) on a fresh embedded database in a temporary directory, so e2e runs never
// touch a developer's data.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(tmpdir(), 'linefall-e2e-'));
const port = process.env.PORT ?? '3100';
const env = {
  ...process.env,
  NODE_ENV: 'production',
  NEXT_TELEMETRY_DISABLED: '1',
  DATABASE_URL: process.env.E2E_DATABASE_URL ?? `pglite:${path.join(dir, 'pglite')}`,
  AUTH_SECRET: process.env.AUTH_SECRET ?? 'e2e-secret-e2e-secret-e2e-secret-e2e',
  NEXTAUTH_URL: `http://127.0.0.1:${port}`,
};

const run = (cmd, args) => spawn(cmd, args, { env, stdio: 'inherit' });

const migrate = run(process.execPath, ['scripts/migrate.mjs']);
migrate.on('exit', (code) => {
  if (code !== 0) process.exit(code ?? 1);
  const server = run(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', port, '-H', '127.0.0.1']);
  const stop = () => server.kill('SIGTERM');
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  server.on('exit', (status) => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(status ?? 0);
  });
});
