// `npm run bench:verify`: does verifying slow replays delay everyone else? The production server
// on a seeded database; board pages are read, first alone (the baseline), then while the worst
// replays the limits allow are submitted all at once.
// Board reads come in two shapes (reads.ts): open loop at stated rates (`--rates`), timed from when
// each was due, and the saturating closed loop of `--readers` (0: none), one burst per shape.
// The worst case: a ticket old enough that the elapsed-time check allows the full hour, and the
// longest real game the rules let a replay describe (the bot's whole 150-line Marathon; the
// 100,000-event replays of the codec's cap cost about the same, see `npm run bench:fuzz`).
// Options: --db=pglite|postgres  --replays=20  --rates=85,120  --readers=4  (`npm run build` first)
//   --warm-up=20: worst-case submissions before any measurement
//   --app=<dir>: serve the build of another checkout (a baseline, for an A/B pair of runs)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSql } from '@/lib/db/connect.js';
import { applyMigrations } from '@/lib/db/migrate.js';
import { encodeReplay } from '@/lib/engine';
import { createAppServer } from '@/tests/support/app-server';
import { queryPglite, queryPostgres, throwawayDatabase } from '@/tests/support/postgres';
import { botGame, claimOf, hardDropGame } from '@/tests/support/replays';
import { seedGames } from '@/bench/api/seed';
import { percentile, Player, type Timed } from '@/bench/load/client';
import { closedLoopReads, openLoopReads, sleepUntil } from '@/bench/verify/reads';
import { cpuMs, mainThreadCpuMs } from '@/bench/support/proc';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const DB = arg('db', 'pglite') as 'pglite' | 'postgres';
const REPLAYS = Number(arg('replays', '20'));
const READERS = Number(arg('readers', '4'));
/** Open-loop read rates: the evening peak's ~85 board reads a second per instance (docs/capacity.md, "The load") and a higher one. */
const RATES = arg('rates', '85,120').split(',').filter(Boolean).map(Number);
type Load = { rate: number } | { readers: number };
const WARM_UP = Number(arg('warm-up', '20'));

async function database() {
  if (DB === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'linefall-verify-'));
    const dataDir = path.join(dir, 'pglite');
    const sql = await openSql({ kind: 'pglite', dataDir });
    await applyMigrations(sql);
    await seedGames(sql, { games: 20_000, players: 2_000, replay: encodeReplay(hardDropGame('marathon', 'seed').replay) });
    await sql.close();
    return { url: `pglite:${dataDir}`, query: (q: string) => queryPglite(dataDir, q), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const { url, drop } = await throwawayDatabase('linefall_verify');
  const sql = await openSql({ kind: 'postgres', url });
  await applyMigrations(sql);
  await seedGames(sql, { games: 20_000, players: 2_000, replay: encodeReplay(hardDropGame('marathon', 'seed').replay) });
  await sql.close();
  return { url, query: (q: string) => queryPostgres(url, q), drop };
}

const line = (what: string, r: Timed[]) => {
  const ms = r.map((x) => x.ms).sort((a, b) => a - b);
  const statuses = [...new Set(r.map((x) => x.status))].join(',');
  return `| ${DB} | ${what} | ${r.length} | ${percentile(ms, 50).toFixed(0)} | ${percentile(ms, 99).toFixed(0)} | ${(ms.at(-1) ?? 0).toFixed(0)} | ${statuses} |`;
};
const p99 = (r: Timed[]) => percentile(r.map((x) => x.ms).sort((a, b) => a - b), 99);

if (!existsSync(path.join(arg('app', '.'), '.next/BUILD_ID'))) {
  console.error('No production build: run `npm run build` first.');
  process.exit(1);
}
const store = await database();
// Every limit lifted: this measures the server, not the limits.
const APP = arg('app', '') || undefined;
const server = await createAppServer(store.url, { RATE_LIMIT_SCALE: '1000', LINEFALL_FAULT_INJECTION: '0' }, { dir: APP });
await server.start();
const rows: string[] = [];
const summary: string[] = [];
try {
  const runId = Date.now().toString(36);
  // A burst of its own per load, each on fresh tickets.
  const loads: Load[] = [...RATES.map((rate) => ({ rate })), ...(READERS > 0 ? [{ readers: READERS }] : [])];
  // Plus WARM_UP tickets: the first submissions load the engine in the worker and the route's code, a
  // cost of a server's first seconds that would otherwise land in the first load's burst.
  const players = Array.from({ length: REPLAYS * loads.length + WARM_UP }, (_, i) => new Player(server.url, `10.1.${Math.floor(i / 200)}.${(i % 200) + 1}`));
  const tickets: { gameId: string; seed: string }[] = [];
  for (const [i, p] of players.entries()) {
    await p.signUpAndIn(`verify_${runId}_${i}`, `verify-password-${i}-x`);
    tickets.push((await p.request('/api/games', { json: { mode: 'marathon' } })).body as { gameId: string; seed: string });
  }
  // Backdated, so the elapsed-time check allows the longest game (PGlite: one process per directory).
  await server.stop();
  const ids = tickets.map((t) => `'${t.gameId}'`).join(',');
  await store.query(`UPDATE "GameTicket" SET "issuedAt" = now() - interval '170 minutes', "expiresAt" = now() + interval '20 minutes' WHERE "id" IN (${ids})`);
  const bodies = tickets.map((t) => {
    const played = botGame('marathon', t.seed);
    return { replay: encodeReplay(played.replay), claimed: claimOf(played.result), ticks: played.result.ticks };
  });
  console.log(`  ${REPLAYS} replays of ${Math.min(...bodies.map((b) => b.ticks))}–${Math.max(...bodies.map((b) => b.ticks))} ticks per load`);
  await server.start();

  await closedLoopReads(server.url, 4, sleepUntil(performance.now() + 1000)); // warm-up
  const warm = Array.from({ length: WARM_UP }, (_, j) => REPLAYS * loads.length + j);
  const warmed = await Promise.all(warm.map((i) => players[i]!.request(`/api/games/${tickets[i]!.gameId}/replay`, { json: { replay: bodies[i]!.replay, claimed: bodies[i]!.claimed } })));
  console.log(`  warm-up: ${WARM_UP} worst-case submissions answered ${[...new Set(warmed.map((r) => r.status))].join(',')}`);
  await sleepUntil(performance.now() + 5000); // their feature rows (lib/server/integrity/record.ts) are measured after them
  // The server reports its event-loop delay per whole window (/api/health): the reads alone fill one
  // window, the burst starts the next, and each is read once it has ended.
  const probe = new Player(server.url, '192.0.2.200');
  type Window = { p99Ms: number; maxMs: number } | null;
  const eventLoop = async () => ((await probe.request('/api/health')).body as { eventLoop: { last: Window; current: number; windowMs: number } }).eventLoop;
  // CPU of the server's main thread (the event loop) and of the whole process (worker threads too).
  const pid = server.pid()!;
  const cpu = () => ({ main: mainThreadCpuMs(pid), all: cpuMs(pid) });
  const spent = (a: { main: number; all: number }, b: { main: number; all: number }) => ({ main: b.main - a.main, all: b.all - a.all });
  // The server's windows are on its wall clock (the same machine's); the reads' times on this one's monotonic clock.
  const at = (wallMs: number) => performance.now() + (wallMs - Date.now());
  for (const [k, load] of loads.entries()) {
    const name = 'rate' in load ? `open loop, ${load.rate} reads/s` : `saturation: ${load.readers} readers back to back`;
    const { current, windowMs } = await eventLoop();
    const windowStart = current + windowMs;
    await sleepUntil(at(windowStart + 50));
    const cpu0 = cpu();
    const alone =
      'rate' in load
        ? await openLoopReads(server.url, load.rate, at(windowStart + windowMs - 50))
        : await closedLoopReads(server.url, load.readers, sleepUntil(at(windowStart + windowMs - 50)));
    await sleepUntil(at(windowStart + windowMs + 50));
    const cpu1 = cpu();
    const loopAlone = (await eventLoop()).last;
    rows.push(line(`${name}: board reads alone (${windowMs / 1000} s)`, alone));
    // The burst: REPLAYS worst-case submissions at once, half a second into the next window.
    const burstAt = at(windowStart + windowMs + 500);
    let burstEnd = Infinity;
    const burst = sleepUntil(burstAt).then(async () => {
      const sent = await Promise.all(
        Array.from({ length: REPLAYS }, (_, j) => {
          const i = k * REPLAYS + j;
          return players[i]!.request(`/api/games/${tickets[i]!.gameId}/replay`, { json: { replay: bodies[i]!.replay, claimed: bodies[i]!.claimed } });
        }),
      );
      burstEnd = performance.now();
      return sent;
    });
    // Open loop: the reads go on through the whole window (the load does not stop for a burst), and
    // those due while the burst was answered are its reads. Closed loop: the readers read until it is.
    const [allReads, sent] = await Promise.all([
      'rate' in load ? openLoopReads(server.url, load.rate, at(windowStart + 2 * windowMs - 50)) : closedLoopReads(server.url, load.readers, burst),
      burst,
    ]);
    const reads = 'rate' in load ? allReads.filter((r) => r.dueAt >= burstAt && r.dueAt <= burstEnd) : allReads;
    await sleepUntil(at(windowStart + 2 * windowMs + 50));
    const cpu2 = cpu();
    const loopBurst = (await eventLoop()).last;
    const [quiet, busy] = [spent(cpu0, cpu1), spent(cpu1, cpu2)];
    rows.push(line(`${name}: ${REPLAYS} worst-case submissions at once`, sent));
    rows.push(line(`${name}: board reads during them`, reads));
    summary.push(
      `${name}: board-read p99 during the submissions ÷ alone ${p99(reads).toFixed(0)} ÷ ${p99(alone).toFixed(0)} = ${(p99(reads) / p99(alone)).toFixed(2)} (goal ≤ 1.2); ` +
        `loop delay p99 / max, window alone ${loopAlone?.p99Ms} / ${loopAlone?.maxMs} ms → window with the burst ${loopBurst?.p99Ms} / ${loopBurst?.maxMs} ms (goal p99 ≤ 10 ms)`,
    );
    summary.push(
      `${name}: server CPU, main thread / whole process: window alone ${quiet.main.toFixed(0)} / ${quiet.all.toFixed(0)} ms ` +
        `(${(quiet.main / alone.length).toFixed(2)} / ${(quiet.all / alone.length).toFixed(2)} ms a read), window with the burst ${busy.main.toFixed(0)} / ${busy.all.toFixed(0)} ms`,
    );
  }
} finally {
  await server.stop();
  await store.drop();
}
console.log(`\n${APP ?? 'this build'}\n| database | requests | n | p50 ms | p99 ms | max ms | statuses |\n|---|---|---:|---:|---:|---:|---|`);
for (const row of rows) console.log(row);
for (const l of summary) console.log(l);
