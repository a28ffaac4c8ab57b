#!/usr/bin/env node
// `npm run cluster`: Linefall as a deployment runs it, on this machine: N app instances
// (scripts/serve.mjs) on one PostgreSQL and one Redis, behind nginx (the reference config in
// scripts/cluster/nginx.mjs). Everything from Debian's packages: postgresql, redis-server, nginx
// (nginx runs as an ordinary process under .cluster/nginx, not as the system service).
//   --instances=N (2)  --port=P (3000: nginx; the instances take P+1 … P+N)
//   --print-nginx: print the nginx config for these ports and exit (a starting point for a server)
//   DATABASE_URL (postgresql://postgres@127.0.0.1:5432/linefall, created if missing),
//   REDIS_URL (redis://127.0.0.1:6379), AUTH_SECRET (the local one in data/auth-secret)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { ensureLocalSecret } from '../lib/env.js';
import { nginxConfig, startNginx } from './cluster/nginx.mjs';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const count = Number(arg('instances', '2'));
const port = Number(arg('port', '3000'));
const ports = Array.from({ length: count }, (_, i) => port + 1 + i);
const prefix = path.resolve('.cluster/nginx');
const listen = `0.0.0.0:${port}`;
const upstreams = ports.map((p) => `127.0.0.1:${p}`);

if (process.argv.includes('--print-nginx')) {
  process.stdout.write(nginxConfig({ listen, upstreams, prefix }));
  process.exit(0);
}

const env = {
  ...process.env,
  NODE_ENV: 'production',
  NEXT_TELEMETRY_DISABLED: '1',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/linefall',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  // One secret for every instance: sessions, guest cookies and live resume tokens are HMACs of it.
  AUTH_SECRET: process.env.AUTH_SECRET ?? ensureLocalSecret(),
  NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
  TRUST_PROXY_HOPS: '1',
  HOST: '127.0.0.1',
};

/** @param {string} host @param {number} p */
const reachable = (host, p) =>
  new Promise((resolve) => {
    const s = net.connect({ host, port: p }, () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });

const redis = new URL(env.REDIS_URL);
if (!(await reachable(redis.hostname, Number(redis.port || 6379)))) {
  console.error(`[cluster] no Redis at ${env.REDIS_URL}: apt-get install -y redis-server, then redis-server --save '' --daemonize yes`);
  process.exit(1);
}
if (!existsSync('/usr/sbin/nginx') && !process.env.NGINX_PATH) {
  console.error('[cluster] nginx is missing: apt-get install -y nginx (bash .ci/run installs it)');
  process.exit(1);
}
// The database named in DATABASE_URL, created on first use.
const db = new URL(env.DATABASE_URL);
const name = db.pathname.slice(1);
const admin = new pg.Client({ connectionString: Object.assign(new URL(db), { pathname: '/postgres' }).toString() });
await admin.connect().catch((error) => {
  console.error(`[cluster] no PostgreSQL at ${db.host}: ${error.message} (pg_ctlcluster 15 main start)`);
  process.exit(1);
});
const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
if (rowCount === 0) await admin.query(`CREATE DATABASE "${name.replaceAll('"', '')}"`);
await admin.end();

const run = (args) => {
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (!existsSync('.next/BUILD_ID')) run(['node_modules/next/dist/bin/next', 'build']);
run(['scripts/migrate.mjs']); // once, before any instance serves

const children = ports.map((p) => spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/serve.mjs'], { stdio: 'inherit', env: { ...env, PORT: String(p) } }));
for (const p of ports) while (!(await reachable('127.0.0.1', p))) await new Promise((r) => setTimeout(r, 200));
const nginx = await startNginx({ listen, upstreams, prefix });
console.log(`[cluster] ${count} instances (${ports.join(', ')}) behind nginx on http://localhost:${port}; Ctrl-C stops everything`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    await nginx.stop();
    await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : (c.once('exit', resolve), c.kill('SIGTERM'))))));
    process.exit(0);
  });
}
