// `npm run bench:api`: the production server under load, on embedded PGlite and on PostgreSQL.
// For each database: seed ≥ 1,000,000 verified games, start the server, then measure with
// autocannon (h) the ceiling, `GET /api/health` (a SELECT 1), (a) ticket issue, (b) submissions of
// distinct valid replays (each re-simulated by the server), (c) board pages (first page, a deep
// page via cursor, the weekly board). The server's CPU (from /proc, its worker threads included)
// over (b) ÷ submissions is the CPU per verified game, and (b) ÷ (h) in req/s the route-ceiling ratio.
// Options: --db=pglite|postgres|both  --games=N  --submissions=N  --seconds=N  --boards=0 (skip (c))
//   --ab=<dir>: also serve the build of another checkout (the baseline) on the same database,
//   alternating with this one (A B, then B A, …) for --runs=N pairs, and print both side by side.
import autocannon from 'autocannon';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeReplay, type Replay } from '@/lib/engine';
import { openSql } from '@/lib/db/connect.js';
import { applyMigrations } from '@/lib/db/migrate.js';
import { createAppServer } from '@/tests/support/app-server';
import { queryPostgres, throwawayName } from '@/tests/support/postgres';
import { hardDropGame } from '@/tests/support/replays';
import { Player } from '@/bench/load/client';
import { seedGames } from '@/bench/api/seed';
import { cpuMs, mainThreadCpuMs } from '@/bench/support/proc';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const GAMES = Number(arg('games', '1000000'));
const SUBMISSIONS = Number(arg('submissions', '3000'));
const SECONDS = Number(arg('seconds', '10'));
const BOARDS = arg('boards', '1') !== '0';
const BASELINE = arg('ab', '');
const RUNS = Number(arg('runs', '1'));
/** Submitted before measuring: the pool's workers load the engine on their first jobs, and the JIT warms up. */
const WARM_UP = 100;
const CONNECTIONS = 8;
const PORT = 3200;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

type Row = { db: string; build: string; what: string; requests: number; rps: number; p50: number; p99: number; errors: number; cpuMs: number };
const rows: Row[] = [];
type Ratio = { db: string; build: string; ceiling: number; submissions: number; cpuMsEach: number; mainCpuMsEach: number; commitsEach: number };
const ratios: Ratio[] = [];

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
  const name = throwawayName('linefall_bench');
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

/** Runs a load; `pid` given, records the server's CPU over it too. */
function load(label: { db: string; build: string; what: string } | null, options: autocannon.Options, pid?: number): Promise<autocannon.Result> {
  const cpu0 = pid ? cpuMs(pid) : 0;
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, ...options }, (error, result) => {
      if (error) return reject(error);
      const errors = result.errors + result.non2xx;
      const cpu = pid ? (cpuMs(pid) - cpu0) / Math.max(1, result.requests.total) : NaN;
      if (label) rows.push({ ...label, requests: result.requests.total, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors, cpuMs: cpu });
      resolve(result);
    });
  });
}

/** Requests a second that got a 2xx (errors and refusals would flatter a rate). */
const okRate = (r: autocannon.Result) => (r.requests.total - r.non2xx - r.errors) / (r.duration || 1);

/** Fresh tickets, each from a new guest (a player has one open ticket per mode), and a valid replay for each. */
async function submissionsFor(db: string, build: string, count: number, pid: number | undefined) {
  const tickets: { gameId: string; seed: string; cookie: string }[] = [];
  const guestCookie = (set: string | string[] | undefined) => String(Array.isArray(set) ? set[0] : (set ?? '')).split(';')[0]!;
  await load(count > WARM_UP ? { db, build, what: 'POST /api/games (ticket)' } : null, {
    url: `${BASE}/api/games`,
    amount: count,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'marathon' }),
        onResponse: (status, body, _c, set) => void (status === 201 && tickets.push({ ...JSON.parse(body), cookie: guestCookie(set?.['set-cookie']) })),
      },
    ],
  }, pid);
  return tickets.map((t) => {
    const played = hardDropGame('marathon', t.seed);
    const claimed = { score: played.result.score, lines: played.result.lines, ticks: played.result.ticks };
    return {
      path: `/api/games/${t.gameId}/replay`,
      headers: { 'content-type': 'application/json', cookie: t.cookie },
      body: JSON.stringify({ replay: encodeReplay(played.replay as Replay), claimed }),
    };
  });
}

async function submit(label: { db: string; build: string; what: string } | null, bodies: Awaited<ReturnType<typeof submissionsFor>>, pid?: number) {
  let next = 0;
  return load(label, { url: BASE, amount: bodies.length, requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, ...bodies[next++ % bodies.length] }) }] }, pid);
}

/** Transactions committed in the database so far (PostgreSQL; each statement outside a transaction is one): NaN on PGlite. */
async function commits(db: 'pglite' | 'postgres', url: string): Promise<number> {
  if (db === 'pglite') return NaN;
  const [row] = await queryPostgres<{ n: string }>(url, `SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()`);
  return Number(row?.n);
}

async function benchBuild(db: 'pglite' | 'postgres', url: string, build: string, dir: string | undefined) {
  // One signed-in client sends everything, so per-player limits are lifted: this measures capacity.
  const server = await createAppServer(url, { PORT: String(PORT), RATE_LIMIT_SCALE: '1000', LINEFALL_FAULT_INJECTION: '0' }, { dir });
  await server.start();
  try {
    const pid = server.pid();
    const cookie = await signIn();
    const warmUp = await submissionsFor(db, build, WARM_UP, undefined);
    await new Promise((r) => setTimeout(r, 1500)); // each game must fit in the time since its ticket
    await submit(null, warmUp);

    // (h) the ceiling: the cheapest route that reaches the database.
    const health = await load({ db, build, what: 'GET /api/health (ceiling)' }, { url: `${BASE}/api/health`, duration: SECONDS }, pid);

    // (a) tickets, kept for (b); (b) distinct valid replays, each decoded, re-simulated, compared and stored.
    const bodies = await submissionsFor(db, build, SUBMISSIONS, pid);
    await new Promise((r) => setTimeout(r, 1500)); // each game must fit in the time since its ticket
    const [cpu0, main0, commits0] = [cpuMs(pid!), mainThreadCpuMs(pid!), await commits(db, url)];
    const submitted = await submit({ db, build, what: 'POST /api/games/{id}/replay (verify+store)' }, bodies, pid);
    const cpuMsEach = (cpuMs(pid!) - cpu0) / Math.max(1, submitted.requests.total);
    // The event loop's share of it: what the main thread spent, worker threads left out.
    const mainCpuMsEach = (mainThreadCpuMs(pid!) - main0) / Math.max(1, submitted.requests.total);
    // An idle connection reports its statistics up to 10 s late (PostgreSQL 15+); the first read is a commit of its own.
    if (db === 'postgres') await new Promise((r) => setTimeout(r, 11_000));
    const commitsEach = ((await commits(db, url)) - commits0 - 1) / Math.max(1, submitted.requests.total);
    ratios.push({ db, build, ceiling: okRate(health), submissions: okRate(submitted), cpuMsEach, mainCpuMsEach, commitsEach });
    console.log(`  ${build}: ${okRate(submitted).toFixed(0)} submissions/s, ${cpuMsEach.toFixed(2)} ms server CPU each (main thread ${mainCpuMsEach.toFixed(2)}), ${commitsEach.toFixed(2)} database commits each; ceiling ${okRate(health).toFixed(0)}/s; ratio ${(okRate(submitted) / okRate(health)).toFixed(2)}`);
    if (!BOARDS) return;

    // (c) boards over ≥ 1M games.
    const first = (await (await fetch(`${BASE}/api/leaderboards/sprint?limit=50`)).json()) as { nextCursor: string };
    let cursor = first.nextCursor;
    for (let i = 0; i < 100 && cursor; i++) {
      cursor = ((await (await fetch(`${BASE}/api/leaderboards/sprint?limit=50&cursor=${cursor}`)).json()) as { nextCursor: string }).nextCursor;
    }
    await load({ db, build, what: 'GET board page 1 (all time, signed in)' }, { url: `${BASE}/api/leaderboards/sprint?period=all&limit=50`, headers: { cookie }, duration: SECONDS }, pid);
    await load({ db, build, what: 'GET board page ~100 (cursor)' }, { url: `${BASE}/api/leaderboards/sprint?limit=50&cursor=${cursor}`, duration: SECONDS }, pid);
    await load({ db, build, what: 'GET weekly board page 1' }, { url: `${BASE}/api/leaderboards/ultra?period=week&limit=50`, duration: SECONDS }, pid);
  } finally {
    await server.stop();
  }
}

async function benchDatabase(db: 'pglite' | 'postgres') {
  console.log(`\n== ${db}`);
  const database = await prepareDatabase(db);
  try {
    const builds: Array<[string, string | undefined]> = BASELINE ? [['baseline', BASELINE], ['this', undefined]] : [['this', undefined]];
    for (let run = 0; run < RUNS; run++) {
      // Alternate the order, so a machine that gets busier (or a database that grows) hits both alike.
      for (const [build, dir] of run % 2 ? builds.slice().reverse() : builds) await benchBuild(db, database.url, build, dir);
    }
  } finally {
    await database.drop();
  }
}

for (const dir of ['.', BASELINE].filter(Boolean)) {
  if (!existsSync(path.join(dir, '.next/BUILD_ID'))) {
    console.error(`No production build in ${dir}: run \`npm run build\` there first.`);
    process.exit(1);
  }
}
const which = arg('db', 'both');
for (const db of ['pglite', 'postgres'] as const) if (which === 'both' || which === db) await benchDatabase(db);

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
console.log(`\n${GAMES.toLocaleString('en-US')} seeded games, ${CONNECTIONS} connections, loopback, 2-core machine${BASELINE ? `; baseline: ${BASELINE}` : ''}, ${RUNS} run(s)\n`);
console.log('| database | build | request | requests | req/s | p50 ms | p99 ms | errors | server CPU ms each |');
console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.db} | ${r.build} | ${r.what} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.cpuMs.toFixed(2)} |`);
console.log('\nRoute-ceiling ratio: verified submissions a second ÷ GET /api/health a second, in the same server; medians over runs\n');
console.log('| database | build | submissions/s | health/s | ratio | server CPU per verified game | of it, main thread | database commits per game |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const db of new Set(ratios.map((r) => r.db))) {
  for (const build of new Set(ratios.map((r) => r.build))) {
    const mine = ratios.filter((r) => r.db === db && r.build === build);
    if (mine.length === 0) continue;
    const m = (pick: (r: Ratio) => number) => median(mine.map(pick));
    console.log(`| ${db} | ${build} | ${m((r) => r.submissions).toFixed(0)} | ${m((r) => r.ceiling).toFixed(0)} | ${m((r) => r.submissions / r.ceiling).toFixed(2)} | ${m((r) => r.cpuMsEach).toFixed(2)} ms | ${m((r) => r.mainCpuMsEach).toFixed(2)} ms | ${m((r) => r.commitsEach).toFixed(2)} |`);
  }
}
