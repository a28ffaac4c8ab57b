// `npm run loadtest`: 1,000 players at once against the production server, on embedded PGlite
// and on PostgreSQL. Every player signs up, takes a ticket and plays a real (short) game; then
// all submit at the same moment while as many board reads arrive. Some submissions are forged
// (a claimed score the replay does not reach) and some are sent twice at once. Afterwards the
// database itself is checked: every accepted game stored exactly once, every refusal recorded
// with its reason, nothing else written. With --backup, a backup taken a third of the way
// through (npm run db:backup) must restore with every game accepted before it began and
// nothing half-written. Exits non-zero if anything was lost or duplicated.
// Options: --db=pglite|postgres|both  --players=N  --backup   (needs `npm run build` first)
//   --cluster=N: on PostgreSQL only, N instances on one Redis behind the reference nginx
//   (scripts/cluster/nginx.mjs), the players' requests through nginx; with it a signed-in player's
//   live game is hosted by instance 1 and watched from instance 2 (bench/load/live.ts), and the
//   boards are read from every instance directly and must be identical. --kill: instance 1 is
//   killed (SIGKILL) a third of the way through the answers, in the middle of the live game, and
//   started again at once; clients retry through nginx, the live game is taken up by another
//   instance, the restarted one rejoins while the load goes on, without the others restarting.
//   After the load, versus across instances (bench/load/versus.ts): a room whose players are on
//   instances 1 and 2 with a spectator through nginx, and a quick match queued on both; with --kill,
//   a match's host, a sparring match's, and the versus home holding a room set are each killed mid-game.
//   --http-sign-ups=N: how many players sign up and in through the site (50); the others are
//   written straight into the database, signed in with a session cookie made with the server's
//   secret, as next-auth makes it. Argon2 is deliberately slow: 1,000 sign-ups and sign-ins took
//   60–95 s of every run, and are not what this test measures (tests/api and tests/e2e cover them).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeReplay, isRankable, RANKED_MODE_NAMES, type Mode } from '@/lib/engine';
import { createAppServer, type AppServer } from '@/tests/support/app-server';
import { createCluster, type Cluster } from '@/tests/support/cluster';
import { startCrossInstanceGame } from '@/bench/load/live';
import { versusAcrossInstances } from '@/bench/load/versus';
import { sparringHostKilled, versusHostKilled } from '@/bench/load/versus-kill';
import { roomHomeKilled } from '@/bench/load/room-kill';
import { queryPglite, queryPostgres, throwawayDatabase } from '@/tests/support/postgres';
import { claimOf, hardDropGame } from '@/tests/support/replays';
import { checkBackup, runBackup } from '@/bench/load/backup';
import { percentile, Player, type Timed } from '@/bench/load/client';
import { hash } from '@node-rs/argon2';
import { encode } from 'next-auth/jwt';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const PLAYERS = Number(arg('players', '1000'));
// --backup: an operator runs `npm run db:backup` a third of the way through the answers.
const BACKUP = process.argv.includes('--backup');
const HTTP_SIGN_UPS = Math.min(PLAYERS, Number(arg('http-sign-ups', '50')));
const CLUSTER = Number(arg('cluster', '0'));
const KILL = process.argv.includes('--kill');
const AUTH_SECRET = `load-${randomBytes(16).toString('hex')}`;
// Modes with tickets and boards (Zen is practice only).
const MODES = RANKED_MODE_NAMES;
/** What a valid HTTP-ticket submission is answered: stored, held off the boards as unpaced. */
const STORED = 202;

type Plan = { player: Player; gameId: string; body: unknown; forged: boolean; twice: boolean; mode: Mode };
type Summary = { db: string; what: string; n: number; seconds: number; p50: number; p95: number; p99: number; max: number; statuses: string };
const summaries: Summary[] = [];
let failures = 0;

function summarize(db: string, what: string, results: Timed[], seconds: number) {
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses = Object.entries(results.reduce<Record<number, number>>((acc, r) => ((acc[r.status] = (acc[r.status] ?? 0) + 1), acc), {}))
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  summaries.push({ db, what, n: results.length, seconds, p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99), max: ms.at(-1) ?? 0, statuses });
}

const failed: string[] = [];
function check(condition: boolean, message: string) {
  if (condition) return;
  failures++;
  failed.push(message);
  console.error(`  ✗ ${message}`);
}

async function database(db: 'pglite' | 'postgres') {
  if (db === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'linefall-load-'));
    const dataDir = path.join(dir, 'pglite');
    return { url: `pglite:${dataDir}`, query: <T>(sql: string) => queryPglite<T>(dataDir, sql), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const { url, drop } = await throwawayDatabase('linefall_load');
  return { url, query: <T>(sql: string) => queryPostgres<T>(url, sql), drop };
}

/**
 * Accounts written straight into the database, each signed in with the session cookie next-auth
 * would set (the same JWE, made with the server's secret): players for the burst, without an
 * argon2 sign-up and sign-in each. Their password is one shared, real argon2id hash.
 */
async function directPlayers(query: <T>(sql: string) => Promise<T[]>, players: Player[], runId: string, from: number): Promise<number> {
  if (players.length === 0) return 0;
  const passwordHash = await hash('load-password-shared', { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  const rows = players.map((player, j) => {
    const i = from + j;
    return { player, id: `c${runId}${randomBytes(8).toString('hex')}`.slice(0, 25), username: `load_${runId}_${i}` };
  });
  const values = rows.map((r) => `('${r.id}', '${r.username}', '${r.username.toLowerCase()}', '${passwordHash}', now(), now())`).join(',');
  await query(`INSERT INTO "User" ("id", "username", "usernameKey", "passwordHash", "createdAt", "updatedAt") VALUES ${values}`);
  for (const r of rows) r.player.setCookie('next-auth.session-token', await encode({ token: { uid: r.id, name: r.username }, secret: AUTH_SECRET }));
  return rows.length;
}

/** Runs `work` for every item with at most `width` in flight (setup only; the measured phase is all at once). */
async function inBatches<T>(items: T[], width: number, work: (item: T, i: number) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map((item, j) => work(item, i + j)));
}

async function run(db: 'pglite' | 'postgres') {
  const label = CLUSTER > 0 ? `${db}, ${CLUSTER} instances behind nginx${KILL ? ', one killed' : ''}` : db;
  console.log(`\n== ${label}: ${PLAYERS} players`);
  const store = await database(db);
  // Behind nginx the players' X-Forwarded-For is their own proxy's: two hops are trusted, so each
  // player keeps its own address (a deployment with nginx alone in front sets 1).
  const cluster: Cluster | null = CLUSTER > 0 ? await createCluster({ databaseUrl: store.url, instances: CLUSTER, env: { AUTH_SECRET, TRUST_PROXY_HOPS: '2' } }) : null;
  const server: AppServer | Cluster = cluster ?? (await createAppServer(store.url, { LINEFALL_FAULT_INJECTION: '0', AUTH_SECRET }));
  const backupFile = path.join(tmpdir(), `linefall-load-${db}-${Date.now()}.ndjson.gz`);
  try {
    const runId = Date.now().toString(36);
    const players = Array.from({ length: PLAYERS }, (_, i) => new Player(server.url, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, cluster !== null || 'busy'));
    const livePlayer = new Player(server.url, '10.250.0.1');
    // Written while no server holds the database (PGlite allows one process per directory).
    let started = performance.now();
    const direct = await directPlayers(store.query, players.slice(HTTP_SIGN_UPS), runId, HTTP_SIGN_UPS);
    if (cluster) await directPlayers(store.query, [livePlayer], runId, PLAYERS);
    if (!cluster) await (server as AppServer).start();
    await inBatches(players.slice(0, HTTP_SIGN_UPS), 25, (p, i) => p.signUpAndIn(`load_${runId}_${i}`, `load-password-${i}-x`));
    console.log(`  ${HTTP_SIGN_UPS} sign-ups + sign-ins through the site, ${direct} players written directly: ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // Tickets, then a real game on each seed. Every 10th claim is forged; every 10th (other) is sent twice.
    // These are HTTP-ticket games, so each valid one is stored and held off the boards as unpaced
    // (202, docs/decisions/0010-live-protocol.md): the burst proves storage, refusals and that the
    // hold lets no best through. Live games under load are measured by `npm run bench:live`.
    const plans: Plan[] = [];
    started = performance.now();
    await inBatches(players, 50, async (player, i) => {
      const mode = MODES[i % MODES.length]!;
      const ticket = await player.request('/api/games', { json: { mode } });
      if (ticket.status !== 201) throw new Error(`ticket: ${ticket.status} ${JSON.stringify(ticket.body)}`);
      const { gameId, seed } = ticket.body as { gameId: string; seed: string };
      const played = hardDropGame(mode, seed);
      const forged = i % 10 === 3;
      const claimed = forged ? { ...claimOf(played.result), score: played.result.score + 100 } : claimOf(played.result);
      plans.push({ player, gameId, mode, forged, twice: i % 10 === 7, body: { replay: encodeReplay(played.replay), claimed } });
    });
    console.log(`  ${PLAYERS} tickets + games: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // each game must fit in the time since its ticket
    const live = cluster
      ? await startCrossInstanceGame({ host: cluster.instances[0]!.url, other: cluster.instances[1]!.url, proxy: cluster.url, cookie: livePlayer.cookieHeader() })
      : null;
    if (live) console.log(`  live game ${live.gameId} on instance 1, watched from instance 2: ${JSON.stringify(live.seen)}`);
    const liveDone = live?.finish();

    // The measured moment: every submission (and the doubles) plus as many board reads, at once.
    const submit = (plan: Plan) => plan.player.request(`/api/games/${plan.gameId}/replay`, { json: plan.body });
    const reads = players.map((player, i) => () =>
      player.request(`/api/leaderboards/${MODES[i % MODES.length]}?period=${i % 2 ? 'week' : 'all'}&limit=50`),
    );
    started = performance.now();
    // Half-way through the answers, an operator takes a backup (checked after the load).
    const acceptedSoFar: string[] = [];
    let acceptedBefore: string[] = [];
    let backup: Promise<{ code: number | null; out: string }> = new Promise(() => {});
    let startBackup = () => {};
    const halfway = new Promise<void>((resolve) => (startBackup = resolve)).then(() => {
      acceptedBefore = [...acceptedSoFar];
      backup = runBackup(store.url, backupFile);
      return backup;
    });
    let killed: Promise<void> | null = null;
    const submissions = plans.flatMap((plan) => (plan.twice ? [submit(plan), submit(plan)] : [submit(plan)]).map((p) => p.then((r) => {
      if (r.status === STORED) acceptedSoFar.push(plan.gameId);
      if (BACKUP && acceptedSoFar.length === Math.floor(plans.length / 3)) startBackup();
      // Killed, then started again at once: it rejoins while the others carry the load, none restarted.
      if (KILL && cluster && acceptedSoFar.length === Math.floor(plans.length / 3)) {
        killed ??= cluster.kill(0).then(async () => {
          console.log(`  instance 1 killed after ${((performance.now() - started) / 1000).toFixed(1)} s`);
          await cluster.instances[0]!.start();
          console.log(`  instance 1 started again and serving after ${((performance.now() - started) / 1000).toFixed(1)} s`);
        });
      }
      return { plan, r };
    })));
    const boardReads = reads.map((read) => read());
    const [sent, read] = await Promise.all([Promise.all(submissions), Promise.all(boardReads)]);
    if (BACKUP) {
      startBackup(); // in case fewer were accepted than planned: the check below then says so
      await halfway;
    }
    const seconds = (performance.now() - started) / 1000;
    summarize(label, `submissions (${plans.filter((p) => p.forged).length} forged, ${plans.filter((p) => p.twice).length} sent twice)`, sent.map((s) => s.r), seconds);
    summarize(label, 'board reads, concurrently', read, seconds);
    console.log(`  ${sent.length} submissions + ${read.length} board reads in ${seconds.toFixed(1)} s → ${((sent.length + read.length) / seconds).toFixed(0)} req/s`);

    // Every answer is final and the right one. A 503 busy (the verification pool's queue full, as a
    // burst of 1,000 on one worker can fill it) is sent again after its Retry-After, as the browser's
    // offline queue does; any other 503 is a failure here (behind nginx the client retries those too;
    // an attempt the killed instance had stored is answered as a repeat).
    const codeOf = (r: Timed) => (r.body as { error?: { code?: string } }).error?.code;
    for (const { plan, r } of sent) {
      const retried = (r.attempts ?? 1) > 1;
      if (plan.forged) check((r.status === 422 && codeOf(r) === 'result_mismatch') || (retried && r.status === 409 && codeOf(r) === 'ticket_used'), `forged ${plan.gameId}: ${r.status}`);
      else {
        check(r.status === STORED || ((plan.twice || retried) && r.status === 200), `valid ${plan.gameId}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        check((r.body as { review?: { status?: string } }).review?.status === 'unpaced', `valid ${plan.gameId} not held as unpaced: ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    }
    for (const plan of plans.filter((p) => p.twice)) {
      const both = sent.filter((s) => s.plan === plan).map((s) => s.r.status).sort();
      // A held game's repeat is answered like the first (202 again); stored once is checked below.
      check(both.length === 2 && both.includes(STORED) && both.every((s) => s === STORED || s === 200), `double submission ${plan.gameId} answered ${both.join('+')}`);
    }
    check(read.every((r) => r.status === 200), `board reads failed: ${read.filter((r) => r.status !== 200).length}`);
    const retries = [...sent.map((s) => s.r), ...read].filter((r) => (r.attempts ?? 1) > 1).length;
    console.log(`  ${retries} requests retried by their client${cluster ? '' : ' (503 busy only: the verification queue was full)'}`);

    if (cluster && live && liveDone) {
      await killed;
      const outcome = await liveDone;
      console.log(`  live game: POST ${outcome.status}, ranked ${outcome.ranked}, ${outcome.reconnects} reconnect(s) through nginx`);
      console.log(`    ${outcome.timeline.join('\n    ')}`);
      check(live.seen.watching && live.seen.frames > 0, `the spectator on the other instance got no catch-up or no frames: ${JSON.stringify(live.seen)}`);
      check(live.seen.playerSawSpectator && live.seen.listedElsewhere, `the spectator was not counted or the game not listed elsewhere: ${JSON.stringify(live.seen)}`);
      // 201, or 200 when the host had already stored the stream itself (its POST came after the finalize wait).
      check((outcome.status === 201 || outcome.status === 200) && outcome.ranked, `live game: POST answered ${outcome.status}, ranked ${outcome.ranked}`);
      const [stored] = await store.query<{ n: number; held: string | null }>(`SELECT count(*)::int AS n, max("reviewReason") AS held FROM "Game" WHERE "ticketId" = '${live.gameId}'`);
      check(stored?.n === 1 && stored.held === null, `live game stored ${stored?.n} time(s), held as ${stored?.held}`);
      if (KILL) check(outcome.reconnects >= 1, 'the live game never had to reconnect: the kill came too late');
      // Its spectator on the other instance watched on where the game was taken up: caught up there, then its frames.
      console.log(`  the live game's spectator: ${live.followed.catchUps} catch-up(s), ${live.followed.framesSinceLast} frame(s) since the last${live.followed.errors.length ? `, errors: ${live.followed.errors.join('; ')}` : ''}`);
      if (KILL && outcome.reconnects >= 1)
        check(live.followed.catchUps >= 2 && live.followed.framesSinceLast > 0 && live.followed.errors.length === 0, `the live game's spectator did not watch on after its host was killed: ${JSON.stringify(live.followed)}`);
      // Every instance draws the same boards from the one database.
      for (const mode of MODES) {
        const bodies = await Promise.all(cluster.instances.map((s, i) => new Player(s.url, `10.251.0.${i}`).request(`/api/leaderboards/${mode}?period=all&limit=50`)));
        const texts = bodies.map((b) => JSON.stringify(b.body));
        check(bodies.every((b) => b.status === 200) && texts.every((t) => t === texts[0]), `${mode} boards differ between instances: ${texts.map((t) => t.slice(0, 120)).join(' | ')}`);
      }
    }

    // Versus across the instances: a room and a quick match whose players are on different ones.
    if (cluster) {
      const versus = await versusAcrossInstances({ instances: [cluster.instances[0]!.url, cluster.instances[1]!.url], proxy: cluster.url });
      for (const line of versus.lines) console.log(`  ${line}`);
      for (const problem of versus.problems) check(false, problem);
      // The instance hosting a match killed mid-game: the match goes on on the other, stored once.
      if (KILL) {
        // A quick match, then one against the sparring bot.
        for (const kill of [versusHostKilled, sparringHostKilled]) {
          const killed = await kill(cluster);
          for (const line of killed.lines) console.log(`  ${line}`);
          for (const problem of killed.problems) check(false, problem);
          const [rows] = killed.matchId ? await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM "VersusMatch" WHERE "id" = '${killed.matchId}'`) : [{ n: 0 }];
          check(rows?.n === 1, `the match ${killed.matchId} whose host was killed is stored ${rows?.n} time(s)`);
        }
        // A room set at the versus home, the home killed: the next home takes it up.
        const room = await roomHomeKilled(cluster);
        for (const line of room.lines) console.log(`  ${line}`);
        for (const problem of room.problems) check(false, problem);
        const [rows] = room.matchId ? await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM "RoomMatch" WHERE "id" = '${room.matchId}'`) : [{ n: 0 }];
        check(rows?.n === 1, `the room set ${room.matchId} whose home was killed is stored ${rows?.n} time(s)`);
      }
    }

    // The database, read directly: exactly what was accepted, once; every refusal with its reason.
    await server.stop();
    const accepted = [...plans.filter((p) => !p.forged).map((p) => p.gameId), ...(live ? [live.gameId] : [])].map((id) => `'${id}'`).join(',');
    const forged = plans.filter((p) => p.forged).map((p) => `'${p.gameId}'`).join(',');
    const [counts] = await store.query<Record<string, number>>(`
      SELECT (SELECT count(*)::int FROM "Game") AS "games",
             (SELECT count(DISTINCT "ticketId")::int FROM "Game" WHERE "ticketId" IN (${accepted})) AS "acceptedStored",
             (SELECT count(*)::int FROM "Game" WHERE "ticketId" IN (${forged})) AS "forgedStored",
             (SELECT count(*)::int FROM "RejectedSubmission" WHERE "ticketId" IN (${forged}) AND "code" = 'result_mismatch') AS "forgedRecorded",
             (SELECT count(*)::int FROM "RejectedSubmission" WHERE "ticketId" IN (${accepted})) AS "acceptedRefused",
             (SELECT count(*)::int FROM "PersonalBest" WHERE "period" = 'all') AS "bests",
             (SELECT count(*)::int FROM "GameTicket" t WHERE t."usedAt" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "Game" g WHERE g."ticketId" = t."id")
                AND NOT EXISTS (SELECT 1 FROM "RejectedSubmission" r WHERE r."ticketId" = t."id")) AS "spentUnexplained"`);
    const valid = plans.filter((p) => !p.forged).length + (live ? 1 : 0);
    console.log(`  database: ${JSON.stringify(counts)}`);
    check(counts!.games === valid && counts!.acceptedStored === valid, `stored ${counts!.games} games for ${valid} accepted submissions`);
    check(counts!.forgedStored === 0, `${counts!.forgedStored} forged games stored`);
    const forgedCount = plans.filter((p) => p.forged).length;
    check(counts!.forgedRecorded === forgedCount, `${counts!.forgedRecorded} of ${forgedCount} refusals recorded with their reason`);
    check(counts!.acceptedRefused === 0, `${counts!.acceptedRefused} refusals recorded for accepted games`);
    // Unpaced games are on no board: not one best, however many rankable games were stored.
    const rankable = plans.filter((p) => !p.forged && isRankable(p.mode, { finished: false })).length;
    // The live game (cluster runs) is paced and ranked: its one best is the only one.
    const liveBests = live ? 1 : 0;
    check(rankable > 0 && counts!.bests === liveBests, `${counts!.bests} all-time bests from ${rankable} rankable but unpaced games (want ${liveBests})`);
    check(counts!.spentUnexplained === 0, `${counts!.spentUnexplained} tickets spent with neither a game nor a recorded refusal`);

    const { code, out } = BACKUP ? await backup : { code: null, out: '' };
    if (BACKUP) check(code === 0, `backup during the load failed: ${out}`);
    if (BACKUP && code === 0) {
      const held = await checkBackup({ kind: db, file: backupFile, acceptedBefore, live: store.query });
      for (const problem of held.problems) check(false, problem);
      console.log(`  backup taken during the load: ${acceptedBefore.length} games accepted before it began, ${held.games} of ${held.of} in it, ${held.problems.length ? 'NOT ' : ''}all whole`);
    }
  } finally {
    await server.stop();
    await store.drop();
    rmSync(backupFile, { force: true });
  }
}

if (!existsSync('.next/BUILD_ID')) {
  console.error('No production build: run `npm run build` first.');
  process.exit(1);
}
const which = CLUSTER > 0 ? 'postgres' : arg('db', 'both');
for (const db of ['pglite', 'postgres'] as const) if (which === 'both' || which === db) await run(db);

console.log(`\n${PLAYERS} players at once, loopback, 2-core machine (server and load generator share it)\n`);
console.log('| database | requests | n | wall s | p50 ms | p95 ms | p99 ms | max ms | statuses |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
for (const s of summaries) {
  console.log(`| ${s.db} | ${s.what} | ${s.n} | ${s.seconds.toFixed(1)} | ${s.p50.toFixed(0)} | ${s.p95.toFixed(0)} | ${s.p99.toFixed(0)} | ${s.max.toFixed(0)} | ${s.statuses} |`);
}
// The failures again, last: a CI log is often read from its tail.
console.log(failures === 0 ? '\nIntegrity: every accepted game stored once, every refusal recorded. OK' : `\n${failures} integrity failure(s):\n${failed.map((f) => `  ✗ ${f}`).join('\n')}`);
process.exit(failures === 0 ? 0 : 1);
