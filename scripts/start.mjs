#!/usr/bin/env node
// `npm start`: the one command that brings Linefall up on a machine with nothing but Node.
// It keeps a generated auth secret in data/ (a deployment sets AUTH_SECRET instead), migrates
// the database (embedded PGlite in data/pglite unless DATABASE_URL says otherwise), builds
// if the build is missing or older than the sources, and serves on http://localhost:3000.
// `npm run dev` does the same with the development server.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ensureLocalSecret } from '../lib/env.js';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

const dev = process.argv.includes('--dev');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
if (!env.AUTH_SECRET) {
  env.AUTH_SECRET = ensureLocalSecret();
  console.log('[start] using the local auth secret in data/auth-secret (set AUTH_SECRET for a deployment)');
}
const port = env.PORT ?? '3000';
const next = 'node_modules/next/dist/bin/next';

function run(args) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Newest modification time among the files (and folders' files) the build depends on. */
function newestSource(dirs) {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'generated') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const entry of dirs) {
    if (!existsSync(entry)) continue;
    if (statSync(entry).isDirectory()) walk(entry);
    else newest = Math.max(newest, statSync(entry).mtimeMs);
  }
  return newest;
}

/**
 * Runs the server in the foreground: stopping this script stops it (it holds the port and PGlite's
 * directory). The server has a process group of its own and is told once: a Ctrl-C reaches every
 * process in the terminal's group (npm forwards it again), and serve.mjs takes a second signal as
 * "stop now", skipping the handover of live games.
 */
function serve(args, childEnv) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...args], { stdio: 'inherit', env: childEnv, detached: true });
  let told = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (!told) child.kill(signal);
      told = true;
    });
  }
  child.on('exit', (code) => process.exit(code ?? 0));
}

run(['scripts/migrate.mjs']);
if (dev) {
  // The development server runs behind scripts/serve.mjs too, so it decides client addresses
  // (and so rate limits) the same way as production.
  serve(['scripts/serve.mjs'], { ...env, PORT: port, LINEFALL_DEV: '1' });
} else {
  const buildId = '.next/BUILD_ID';
  const sources = ['app', 'components', 'lib', 'prisma', 'package-lock.json', 'package.json', 'next.config.js', 'tsconfig.json', 'postcss.config.mjs'];
  const stale = !existsSync(buildId) || statSync(buildId).mtimeMs < newestSource(sources);
  if (stale) {
    console.log('[start] building the site (first start, or sources changed) …');
    run(['node_modules/prisma/build/index.js', 'generate']);
    run([next, 'build']);
  }
  console.log(`[start] Linefall on http://localhost:${port}`);
  serve(['scripts/serve.mjs'], { ...env, PORT: port, NODE_ENV: 'production' });
}
