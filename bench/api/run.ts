// `npm run bench:api`: the production server under load, on embedded PGlite and on PostgreSQL.
// For each database: seed ≥ 1,000,000 verified games, start `next start`, then measure with
// autocannon (a) ticket issue, (b) submissions of distinct valid replays (each re-simulated by
// the server), (c) board pages (first page, a deep page via cursor, the weekly board).
// Options: --db=pglite|postgres|both  --games=N  --submissions=N  --seconds=N
import autocannon from 'autocannon';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeReplay, type Replay } from '@/lib/engine';
import { openSql } from '@/lib/db/connect.js';
import { applyMigrations } from '@/lib/db/migrate.js';
import { createAppServer } from '@/tests/support/app-server';
import { hardDropGame } from '@/tests/support/replays';
import { Player } from '@/bench/load/client';
import { seedGames } from '@/bench/api/seed';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const GAMES = Number(arg('games', '1000000'));
const SUBMISSIONS = Number(arg('submissions', '3000'));
const SECONDS = Number(arg('seconds', '10'));
const CONNECTIONS = 8;
const PORT = 3200;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

type Row = { db: string; what: string; requests: number; rps: number; p50: number; p99: number; errors: number };
const rows: Row[] = [];

async function prepareDatabase(db: 'pglite' | 'postgres') {
  const sample = hardDropGame('marathon', 'bench-sample');
  if (db === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'linefall-bench-'));
    const target = { kind: 'pglite' as const, dataDir: path.join(dir, 'pglite') };
    const sql = await openSql(target);
    await applyMigrations(sql);
    await timed(`seed ${GAMES} games (PGlite)`, () => seedGames(sql, { games: GAMES, players: 20_000, replay: encodeReplay(sample.replay) }));
    await sql.close();
    return { url: `pglite:${target.dataDir}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `linefall_bench_${Date.now()}`;
  const admin = await openSql({ kind: 'postgres', url: ADMIN });
  await admin.exec(`CREATE DATABASE "${name}"`);
  const u = new URL(ADMIN);
  u.pathname = `/${name}`;
  const sql = await openSql({ kind: 'postgres', url: u.toString() });
  await applyMigrations(sql);
  await timed(`seed ${GAMES} games (PostgreSQL)`, () => seedGames(sql, { games: GAMES, players: 20_000, replay: encodeReplay(sample.replay) }));
  await sql.close();
  return {
    url: u.toString(),
    drop: async () => {
      await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    },
  };
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work();
  console.log(`  ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

async function signIn(): Promise<string> {
  const player = new Player(BASE, '127.0.0.1');
  await player.signUpAndIn(`bencher_${Date.now() % 1e6}`, 'bench-password-1');
  return player.cookieHeader();
}

function load(db: string, what: string, options: autocannon.Options): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, ...options }, (error, result) => {
      if (error) return reject(error);
      const errors = result.errors + result.non2xx;
      rows.push({ db, what, requests: result.requests.total, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors });
      resolve();
    });
  });
}

async function benchDatabase(db: 'pglite' | 'postgres') {
  console.log(`\n== ${db}`);
  const database = await prepareDatabase(db);
  // One signed-in client sends everything, so per-player limits are lifted: this measures capacity.
  const server = await createAppServer(database.url, { PORT: String(PORT), RATE_LIMIT_SCALE: '1000', LINEFALL_FAULT_INJECTION: '0' });
  await server.start();
  try {
    const cookie = await signIn();
    const headers = { 'content-type': 'application/json', cookie };

    // (a) tickets; kept for (b), since each submission needs its own ticket.
    const tickets: { gameId: string; seed: string }[] = [];
    await load(db, 'POST /api/games (ticket)', {
      url: `${BASE}/api/games`,
      amount: SUBMISSIONS,
      requests: [{ method: 'POST', headers, body: JSON.stringify({ mode: 'marathon' }), onResponse: (_s, body) => void tickets.push(JSON.parse(body)) }],
    });
    const bodies = tickets.map((t) => {
      const played = hardDropGame('marathon', t.seed);
      const claimed = { score: played.result.score, lines: played.result.lines, ticks: played.result.ticks };
      return { path: `/api/games/${t.gameId}/replay`, body: JSON.stringify({ replay: encodeReplay(played.replay as Replay), claimed }) };
    });
    await new Promise((r) => setTimeout(r, 1500)); // each game must fit in the time since its ticket

    // (b) distinct valid replays, each decoded, re-simulated, compared and stored.
    let next = 0;
    await load(db, 'POST /api/games/{id}/replay (verify+store)', {
      url: BASE,
      amount: bodies.length,
      requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, ...bodies[next++ % bodies.length] }) }],
    });

    // (c) boards over ≥ 1M games.
    const first = (await (await fetch(`${BASE}/api/leaderboards/sprint?limit=50`)).json()) as { nextCursor: string };
    let cursor = first.nextCursor;
    for (let i = 0; i < 100 && cursor; i++) {
      cursor = ((await (await fetch(`${BASE}/api/leaderboards/sprint?limit=50&cursor=${cursor}`)).json()) as { nextCursor: string }).nextCursor;
    }
    await load(db, 'GET board page 1 (all time, signed in)', { url: `${BASE}/api/leaderboards/sprint?period=all&limit=50`, headers: { cookie }, duration: SECONDS });
    await load(db, 'GET board page ~100 (cursor)', { url: `${BASE}/api/leaderboards/marathon?limit=50&cursor=${cursor}`, duration: SECONDS });
    await load(db, 'GET weekly board page 1', { url: `${BASE}/api/leaderboards/ultra?period=week&limit=50`, duration: SECONDS });
  } finally {
    await server.stop();
    await database.drop();
  }
}

if (!existsSync('.next/BUILD_ID')) {
  console.error('No production build: run `npm run build` first.');
  process.exit(1);
}
const which = arg('db', 'both');
for (const db of ['pglite', 'postgres'] as const) if (which === 'both' || which === db) await benchDatabase(db);

console.log(`\n${GAMES.toLocaleString('en-US')} seeded games, ${CONNECTIONS} connections, loopback, 2-core machine\n`);
console.log('| database | request | requests | req/s | p50 ms | p99 ms | errors |');
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.db} | ${r.what} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
