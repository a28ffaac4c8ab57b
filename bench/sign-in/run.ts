// `npm run bench:sign-in`: does one address hammering an account change how its owner signs in?
// The production server at the real limits (RATE_LIMIT_SCALE=1). The owner signs in from fresh
// browsers (no device cookie) on another address, first alone, then while the attacker sends wrong
// passwords for the account as fast as its connections allow.
// Options: --db=pglite|postgres  --signins=30  --attackers=8  (`npm run build` first)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAppServer } from '@/tests/support/app-server';
import { throwawayDatabase } from '@/tests/support/postgres';
import { percentile, Player, type Timed } from '@/bench/load/client';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const DB = arg('db', 'pglite');
const SIGNINS = Number(arg('signins', '30'));
const ATTACKERS = Number(arg('attackers', '8'));
const PASSWORD = 'owner-password-123';

async function signIn(base: string, address: string, username: string, password: string): Promise<Timed> {
  const browser = new Player(base, address);
  const { csrfToken } = (await browser.request('/api/auth/csrf')).body as { csrfToken: string };
  return browser.request('/api/auth/callback/credentials', { form: { csrfToken, username, password, json: 'true' } });
}

/** The owner's sign-ins, one after another, each from a fresh browser (20 addresses, so the owner's own address limit is not the subject). */
async function ownerSignIns(base: string, username: string): Promise<Timed[]> {
  const results: Timed[] = [];
  for (let i = 0; i < SIGNINS; i++) results.push(await signIn(base, `198.51.100.${(i % 20) + 1}`, username, PASSWORD));
  return results;
}

const row = (what: string, r: Timed[]) => {
  const ms = r.map((x) => x.ms).sort((a, b) => a - b);
  const statuses = Object.entries(r.reduce<Record<number, number>>((acc, x) => ((acc[x.status] = (acc[x.status] ?? 0) + 1), acc), {}))
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return `| ${DB} | ${what} | ${r.length} | ${percentile(ms, 50).toFixed(0)} | ${percentile(ms, 99).toFixed(0)} | ${statuses} |`;
};

if (!existsSync('.next/BUILD_ID')) {
  console.error('No production build: run `npm run build` first.');
  process.exit(1);
}
const dir = mkdtempSync(path.join(tmpdir(), 'linefall-signin-'));
const store = DB === 'postgres' ? await throwawayDatabase('linefall_signin') : { url: `pglite:${path.join(dir, 'pglite')}`, drop: async () => {} };
const server = await createAppServer(store.url, { RATE_LIMIT_SCALE: '1', LINEFALL_FAULT_INJECTION: '0' });
await server.start();
const rows: string[] = [];
try {
  const username = `owner_${Date.now().toString(36)}`;
  const created = await new Player(server.url, '192.0.2.200').request('/api/account', { json: { username, password: PASSWORD } });
  if (created.status !== 201) throw new Error(`sign-up: ${created.status}`);
  rows.push(row('owner signs in, alone', await ownerSignIns(server.url, username)));

  let attacking = true;
  const attacks: Timed[] = [];
  const attackers = Array.from({ length: ATTACKERS }, async (_, i) => {
    while (attacking) attacks.push(await signIn(server.url, '203.0.113.66', username, `wrong-guess-${i}-${attacks.length}`));
  });
  await new Promise((r) => setTimeout(r, 2000)); // past the attacker's own limits first
  rows.push(row(`owner signs in, while one address hammers the account (${ATTACKERS} connections)`, await ownerSignIns(server.url, username)));
  attacking = false;
  await Promise.all(attackers);
  rows.push(row('the attacker, meanwhile', attacks));
} finally {
  await server.stop();
  await store.drop();
  rmSync(dir, { recursive: true, force: true });
}
console.log('\n| database | sign-ins | n | p50 ms | p99 ms | statuses |\n|---|---|---:|---:|---:|---|');
for (const r of rows) console.log(r);
