// `npm run bench:verify`: does verifying slow replays delay everyone else? The production server
// on a seeded database; board pages are read continuously by a few clients, first alone (the
// baseline), then while the worst replays the limits allow are submitted all at once.
// The worst case: a ticket old enough that the elapsed-time check allows the full hour, and the
// longest real game the rules let a replay describe (the bot's whole 150-line Marathon; the
// 100,000-event replays of the codec's cap cost about the same, see `npm run bench:fuzz`).
// Options: --db=pglite|postgres  --replays=20  --readers=4  (`npm run build` first)
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

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const DB = arg('db', 'pglite') as 'pglite' | 'postgres';
const REPLAYS = Number(arg('replays', '20'));
const READERS = Number(arg('readers', '4'));

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

/** Board pages read back to back by `READERS` clients until `until` settles. */
async function readBoards(base: string, until: Promise<unknown>): Promise<Timed[]> {
  let done = false;
  void until.finally(() => (done = true));
  const results: Timed[] = [];
  await Promise.all(
    Array.from({ length: READERS }, async (_, i) => {
      const reader = new Player(base, `192.0.2.${i + 1}`);
      while (!done) results.push(await reader.request(`/api/leaderboards/${['sprint', 'marathon', 'ultra'][i % 3]}?limit=50`));
    }),
  );
  return results;
}

const line = (what: string, r: Timed[]) => {
  const ms = r.map((x) => x.ms).sort((a, b) => a - b);
  const statuses = [...new Set(r.map((x) => x.status))].join(',');
  return `| ${DB} | ${what} | ${r.length} | ${percentile(ms, 50).toFixed(0)} | ${percentile(ms, 99).toFixed(0)} | ${(ms.at(-1) ?? 0).toFixed(0)} | ${statuses} |`;
};

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
  const players = Array.from({ length: REPLAYS }, (_, i) => new Player(server.url, `10.1.0.${i + 1}`));
  const tickets: { gameId: string; seed: string }[] = [];
  for (const [i, p] of players.entries()) {
    await p.signUpAndIn(`verify_${runId}_${i}`, `verify-password-${i}-x`);
    tickets.push((await p.request('/api/games', { json: { mode: 'marathon' } })).body as { gameId: string; seed: string });
  }
  // Backdated, so the elapsed-time check allows the longest game (PGlite: one process per directory).
  await server.stop();
  const ids = tickets.map((t) => `'${t.gameId}'`).join(',');
  await store.query(`UPDATE "GameTicket" SET "issuedAt" = now() - interval '170 minutes', "expiresAt" = now() + interval '10 minutes' WHERE "id" IN (${ids})`);
  const bodies = tickets.map((t) => {
    const played = botGame('marathon', t.seed);
    return { replay: encodeReplay(played.replay), claimed: claimOf(played.result), ticks: played.result.ticks };
  });
  console.log(`  ${REPLAYS} replays of ${Math.min(...bodies.map((b) => b.ticks))}–${Math.max(...bodies.map((b) => b.ticks))} ticks`);
  await server.start();

  await readBoards(server.url, new Promise((r) => setTimeout(r, 1000))); // warm-up
  // The server reports its event-loop delay per whole window (/api/health): the reads alone fill one
  // window, the burst starts the next, and each is read once it has ended.
  const probe = new Player(server.url, '192.0.2.200');
  type Window = { p99Ms: number; maxMs: number } | null;
  const eventLoop = async () => ((await probe.request('/api/health')).body as { eventLoop: { last: Window; current: number; windowMs: number } }).eventLoop;
  const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
  const { current, windowMs: LOOP_DELAY_WINDOW_MS } = await eventLoop();
  const windowStart = current + LOOP_DELAY_WINDOW_MS;
  await sleepUntil(windowStart + 50);
  const alone = await readBoards(server.url, sleepUntil(windowStart + LOOP_DELAY_WINDOW_MS - 50));
  await sleepUntil(windowStart + LOOP_DELAY_WINDOW_MS + 50);
  const loopAlone = (await eventLoop()).last;
  rows.push(line(`board reads alone (${READERS} readers, ${LOOP_DELAY_WINDOW_MS / 1000} s)`, alone));
  const submissions = Promise.all(players.map((p, i) => p.request(`/api/games/${tickets[i]!.gameId}/replay`, { json: { replay: bodies[i]!.replay, claimed: bodies[i]!.claimed } })));
  const [reads, sent] = await Promise.all([readBoards(server.url, submissions), submissions]);
  await sleepUntil(windowStart + 2 * LOOP_DELAY_WINDOW_MS + 50);
  const loopBurst = (await eventLoop()).last;
  rows.push(line(`${REPLAYS} worst-case submissions at once`, sent));
  rows.push(line(`board reads meanwhile (${READERS} readers)`, reads));
  const p99 = (r: Timed[]) => percentile(r.map((x) => x.ms).sort((a, b) => a - b), 99);
  summary.push(`board-read p99 during the submissions ÷ alone: ${(p99(reads) / p99(alone)).toFixed(2)} (goal ≤ 1.2)`);
  summary.push(`server event-loop delay p99 / max: reads alone ${loopAlone?.p99Ms} / ${loopAlone?.maxMs} ms; the window with the submissions ${loopBurst?.p99Ms} / ${loopBurst?.maxMs} ms (goal p99 ≤ 10 ms)`);
} finally {
  await server.stop();
  await store.drop();
}
console.log('\n| database | requests | n | p50 ms | p99 ms | max ms | statuses |\n|---|---|---:|---:|---:|---:|---|');
for (const row of rows) console.log(row);
for (const l of summary) console.log(l);
