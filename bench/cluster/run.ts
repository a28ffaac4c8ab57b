// `npm run bench:cluster`: how the site scales out. On one PostgreSQL (seeded with 20,000 games)
// and one Redis, behind the reference nginx: verified submissions a second and board reads a
// second with 1 and with 2 instances, and the ceiling of one instance answering the cheapest
// database route (/api/health: SELECT 1) through the same nginx, all in one run, as ratios.
// The server CPU each verified submission costs (read from /proc) feeds docs/capacity.md.
// On a 2-core machine the load generator, nginx, PostgreSQL and the instances share the cores:
// two instances cannot double; the ratios show the shape, not a deployment's numbers.
// Then versus (bench/cluster/matches.ts): --matches=200 matches over 2 instances, once as they are and
// once with instance 1 killed mid-game: how many each hosts, matches lost, delivery p99.
// Options: --submissions=1500  --seconds=8  --connections=16  --runs=1 (medians)  --matches=200 (0: none)
//   --match-seconds=30  --only=matches (skips the HTTP rounds)  (`npm run build` first)
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { openSql } from '@/lib/db/connect.js';
import { applyMigrations } from '@/lib/db/migrate.js';
import { encodeReplay } from '@/lib/engine';
import { createCluster, type Cluster } from '@/tests/support/cluster';
import { queryPostgres, throwawayDatabase } from '@/tests/support/postgres';
import { hardDropGame } from '@/tests/support/replays';
import { seedGames } from '@/bench/api/seed';
import { cpuMs } from '@/bench/support/proc';
import { matchesAcrossInstances } from '@/bench/cluster/matches';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const SUBMISSIONS = Number(arg('submissions', '1500'));
const SECONDS = Number(arg('seconds', '8'));
const CONNECTIONS = Number(arg('connections', '16'));
const RUNS = Number(arg('runs', '1'));
const MATCHES = Number(arg('matches', '200'));
const MATCH_SECONDS = Number(arg('match-seconds', '30'));
const ONLY_MATCHES = arg('only', '') === 'matches';

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const serverCpu = (c: Cluster) => c.instances.reduce((sum, s) => sum + cpuMs(s.pid()!), 0);

function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon({ connections: CONNECTIONS, ...options }, (e, r) => (e ? reject(e) : resolve(r))));
}

/** Requests a second that got a 2xx (errors and refusals would flatter a ceiling). */
const okRate = (r: autocannon.Result) => (r.requests.total - r.non2xx - r.errors) / (r.duration || 1);

async function verifiedSubmissions(c: Cluster): Promise<{ rate: number; cpuMsEach: number; failed: number }> {
  // Each game needs its own ticket, from a new guest (one open ticket per player and mode).
  const tickets: Array<{ gameId: string; seed: string; cookie: string }> = [];
  const cookieOf = (set: string | string[] | undefined) => String(Array.isArray(set) ? set[0] : (set ?? '')).split(';')[0]!;
  await load({
    url: `${c.url}/api/games`, amount: SUBMISSIONS,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'marathon' }),
      onResponse: (status, body, _c, headers) => void (status === 201 && tickets.push({ ...JSON.parse(body), cookie: cookieOf(headers?.['set-cookie']) })) }],
  });
  const bodies = tickets.map((t) => {
    const played = hardDropGame('marathon', t.seed);
    const claimed = { score: played.result.score, lines: played.result.lines, ticks: played.result.ticks };
    return { path: `/api/games/${t.gameId}/replay`, headers: { 'content-type': 'application/json', cookie: t.cookie }, body: JSON.stringify({ replay: encodeReplay(played.replay), claimed }) };
  });
  await new Promise((r) => setTimeout(r, 1_500)); // each game must fit in the time since its ticket
  let next = 0;
  const cpu0 = serverCpu(c);
  const r = await load({ url: c.url, amount: bodies.length, requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, ...bodies[next++ % bodies.length] }) }] });
  return { rate: okRate(r), cpuMsEach: (serverCpu(c) - cpu0) / Math.max(1, r.requests.total), failed: r.non2xx + r.errors };
}

async function boardReads(c: Cluster): Promise<{ rate: number; cpuMsEach: number }> {
  const cpu0 = serverCpu(c);
  const modes = ['sprint', 'marathon', 'ultra'];
  let i = 0;
  const r = await load({ url: c.url, duration: SECONDS, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/leaderboards/${modes[i++ % 3]}?period=all&limit=50` }) }] });
  return { rate: okRate(r), cpuMsEach: (serverCpu(c) - cpu0) / Math.max(1, r.requests.total) };
}

type Round = { ceiling: number; submit: number[]; read: number[]; submitCpu: number[]; readCpu: number[] };

async function round(url: string): Promise<Round> {
  const out: Round = { ceiling: 0, submit: [], read: [], submitCpu: [], readCpu: [] };
  for (const n of [1, 2]) {
    // Limits lifted: a few load-generator addresses stand for many players; this measures capacity.
    const c = await createCluster({ databaseUrl: url, instances: n, env: { RATE_LIMIT_SCALE: '100000' } });
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      if (n === 1) out.ceiling = okRate(await load({ url: `${c.url}/api/health`, duration: SECONDS }));
      const read = await boardReads(c);
      const submit = await verifiedSubmissions(c);
      if (submit.failed > 0) console.log(`  ! ${submit.failed} submissions failed with ${n} instance(s)`);
      out.read.push(read.rate);
      out.readCpu.push(read.cpuMsEach);
      out.submit.push(submit.rate);
      out.submitCpu.push(submit.cpuMsEach);
      console.log(`  ${n} instance(s): ${submit.rate.toFixed(0)} verified submissions/s (${submit.cpuMsEach.toFixed(2)} ms server CPU each), ${read.rate.toFixed(0)} board reads/s (${read.cpuMsEach.toFixed(2)} ms each)`);
    } finally {
      await c.stop();
    }
  }
  return out;
}

if (!existsSync('.next/BUILD_ID')) {
  console.error('No production build: run `npm run build` first.');
  process.exit(1);
}

async function httpRounds(db: { url: string }): Promise<void> {
  const rounds: Round[] = [];
  for (let r = 0; r < RUNS; r++) {
    console.log(`run ${r + 1}/${RUNS}`);
    rounds.push(await round(db.url));
  }
  const m = (pick: (x: Round) => number) => median(rounds.map(pick));
  const ceiling = m((x) => x.ceiling);
  const rows = [
    ['verified submissions/s', m((x) => x.submit[0]!), m((x) => x.submit[1]!)],
    ['board reads/s (page 1, all time)', m((x) => x.read[0]!), m((x) => x.read[1]!)],
  ] as const;
  console.log(`\n${CONNECTIONS} connections through nginx, PostgreSQL + Redis, 2-core machine shared by everything; ${RUNS} run(s), medians`);
  console.log(`single-instance ceiling (GET /api/health = SELECT 1, through nginx): ${ceiling.toFixed(0)} req/s\n`);
  console.log('| request | 1 instance /s | 2 instances /s | 2 ÷ 1 | 1 ÷ ceiling | 2 ÷ ceiling |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [what, one, two] of rows) {
    console.log(`| ${what} | ${one.toFixed(0)} | ${two.toFixed(0)} | ${(two / one).toFixed(2)} | ${(one / ceiling).toFixed(2)} | ${(two / ceiling).toFixed(2)} |`);
  }
  // What each stored game costs the database, indexes included (the seeded replay is 52 characters:
  // add a real game's replay length, about 45 characters a second of play for the bot).
  const sizes = await queryPostgres<{ table: string; rows: number; bytes: number }>(db.url, `
    SELECT t AS "table", (xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c FROM %I', t), false, true, '')))[1]::text::int AS rows,
           pg_total_relation_size(format('%I', t)) AS bytes
    FROM unnest(ARRAY['Game', 'GameTicket', 'PersonalBest', 'RateLimit']) AS t`);
  for (const t of sizes) console.log(`${t.table}: ${t.rows} rows, ${(Number(t.bytes) / Math.max(1, t.rows)).toFixed(0)} bytes a row with its indexes`);
  console.log(`\nserver CPU per verified submission: ${m((x) => x.submitCpu[0]!).toFixed(2)} ms (1 instance), ${m((x) => x.submitCpu[1]!).toFixed(2)} ms (2); per board read: ${m((x) => x.readCpu[0]!).toFixed(2)} ms`);
}

const db = await throwawayDatabase('linefall_cluster_bench');
try {
  const sql = await openSql({ kind: 'postgres', url: db.url });
  await applyMigrations(sql);
  if (!ONLY_MATCHES) await seedGames(sql, { games: 20_000, players: 2_000, replay: encodeReplay(hardDropGame('marathon', 'seed').replay) });
  await sql.close();
  if (!ONLY_MATCHES) await httpRounds(db);
  for (const kill of MATCHES > 0 ? [false, true] : []) {
    // One secret for both: a guest's cookie from the killed instance must be read by the other when it resumes.
    const c = await createCluster({ databaseUrl: db.url, instances: 2, env: { RATE_LIMIT_SCALE: '100000', AUTH_SECRET: `cluster-${randomBytes(16).toString('hex')}` } });
    try {
      console.log(`\nversus: ${MATCHES} matches over 2 instances${kill ? ', instance 1 killed mid-game' : ''} (2-core machine shared by everything)`);
      const r = await matchesAcrossInstances(c, { matches: MATCHES, kill, seconds: MATCH_SECONDS, databaseUrl: db.url });
      for (const line of r.lines) console.log(`  ${line}`);
      if (r.lost > 0) process.exitCode = 1;
    } finally {
      await c.stop();
    }
  }
} finally {
  await db.drop();
}
