/**
 * npm run bench:versus — live versus matches on the built server (npm run build first), PGlite.
 * For each level of concurrent matches, pairs of bots (guests, private rooms, first to 7 so the
 * load stays on) play at ~3 pieces a second each with a batch every 100 ms, in this process. It
 * measures attack-to-opponent delivery: from the sender sending the batch whose lock made the
 * attack to the receiver getting the `garbage` message (the batch is the sender's oldest one not
 * acknowledged when the garbage arrived: the host routes garbage before it acknowledges), and the
 * server's CPU and this process's (the bots) from /proc. The knee: the first level whose delivery p99 passes 100 ms.
 * `--bots=0,100` runs each level again beside that many matches against the server's sparring bot
 * (lib/bot, at 3 pieces a second; its opponent a bot here at ~3): delivery is still measured
 * between the human pairs only, so a row with bots against its row without shows what the bot
 * seats cost the people beside them.
 * Options: --levels=25,50,100,200  --seconds=20  --bots=0
 * The bots' process runs with the server's Node flags (scripts/node-flags.mjs; it starts itself
 * again with them): with Node's default young generation its own collector's pauses were part of the p99.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cpuMs, untilQuiet } from '@/bench/support/proc';
import { MATCH_TIMING } from '@/lib/server/live/match/match-host';
import { createAppServer } from '@/tests/support/app-server';
import { HANDLING, VersusPlayer } from '@/tests/support/versus-client';
import { SERVER_NODE_FLAGS } from '@/scripts/node-flags.mjs';

if (!SERVER_NODE_FLAGS.every((flag) => process.execArgv.includes(flag))) {
  const again = spawnSync(process.execPath, [...process.execArgv, ...SERVER_NODE_FLAGS, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

const opt = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const LEVELS = opt('levels', '25,50,100,200').split(',').map(Number);
const SECONDS = Number(opt('seconds', '20'));
const BOTS = opt('bots', '0').split(',').map(Number);
const pct = (xs: number[], p: number) => (xs.length ? xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]! : NaN);

type State = { measuring: boolean; stopped: boolean; errors: number; players: VersusPlayer[] };

async function pair(url: string, i: number, count: number, delivery: number[], state: State) {
  const address = `10.88.${(i >> 4) & 255}.${(i & 15) + 1}`;
  const bots = { mistakes: 0.1, pace: 10 }; // few mistakes: more lines, so more attacks to time
  const a = await VersusPlayer.connect(url, { seed: `a${i}`, ...bots }, { address, record: false });
  const b = await VersusPlayer.connect(url, { seed: `b${i}`, ...bots }, { address, record: false });
  state.players.push(a, b);
  const measure = (from: VersusPlayer) => (_m: unknown, at: number) => {
    const cause = from.batches.find((x) => x.ackedAt === null || x.ackedAt >= at - 1);
    if (state.measuring && cause) delivery.push(at - cause.sentAt);
  };
  a.onGarbage = measure(b);
  b.onGarbage = measure(a);
  while (!state.stopped) {
    a.reset();
    b.reset();
    a.client.send({ t: 'room_create', mode: 'battle', firstTo: 7, handling: HANDLING, nextCount: 5 });
    const { room } = await a.client.next('room');
    b.client.send({ t: 'room_join', code: room.code, handling: HANDLING, nextCount: 5 });
    await b.client.next('room', (m) => m.room.seats[1] !== null);
    a.client.send({ t: 'ready', code: room.code, ready: true });
    b.client.send({ t: 'ready', code: room.code, ready: true });
    // Each bot's batches at its own phase, spread over the 100 ms: browsers are not in step.
    await Promise.all([a.play(600_000, (i * 100) / count), b.play(600_000, ((i + 0.5) * 100) / count)]).catch(() => state.errors++);
  }
  a.close();
  b.close();
}

/** One match against the server's sparring bot, again and again until stopped; its garbage is not measured. */
async function sparring(url: string, i: number, count: number, state: State) {
  const address = `10.89.${(i >> 4) & 255}.${(i & 15) + 1}`;
  const me = await VersusPlayer.connect(url, { seed: `s${i}`, mistakes: 0.1, pace: 10 }, { address, record: false });
  state.players.push(me);
  while (!state.stopped) {
    me.reset();
    me.client.send({ t: 'spar', mode: 'battle', firstTo: 7, bot: { pps: 3, style: 'tidy' }, handling: HANDLING, nextCount: 5 });
    await me.play(600_000, ((i + 0.25) * 100) / count).catch(() => state.errors++);
  }
  me.close();
}

const dir = mkdtempSync(path.join(tmpdir(), 'linefall-versus-bench-'));
const server = await createAppServer(`pglite:${path.join(dir, 'pglite')}`, { LINEFALL_FAULT_INJECTION: '0' });
await server.start();
try {
  const pid = server.pid()!;
  console.log(`${SECONDS} s measured per level, after a 5 s ramp; bots at ~3 pieces/s each`);
  console.log('matches  bot matches  garbage msgs  delivery p50  p99 ms  srvCPU%  genCPU%  errors');
  let knee = false;
  const runs = LEVELS.flatMap((matches) => BOTS.map((bots) => ({ matches, bots })));
  for (const [n, { matches, bots }] of runs.entries()) {
    // The last level's matches are forfeited once the reconnect window has passed, and stored: not in this one.
    if (n > 0) await untilQuiet(pid, MATCH_TIMING.resumeWindowMs + 2_000);
    const delivery: number[] = [];
    const state: State = { measuring: false, stopped: false, errors: 0, players: [] };
    const running = [
      ...Array.from({ length: matches }, (_, i) => pair(server.url, i, matches, delivery, state).catch(() => state.errors++)),
      ...Array.from({ length: bots }, (_, i) => sparring(server.url, i, bots, state).catch(() => state.errors++)),
    ];
    await new Promise((r) => setTimeout(r, 5_000));
    const [c0, g0, t0] = [cpuMs(pid), cpuMs(process.pid), performance.now()];
    state.measuring = true;
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    state.measuring = false;
    const cpu = ((cpuMs(pid) - c0) / (performance.now() - t0)) * 100; // % of one core
    const genCpu = ((cpuMs(process.pid) - g0) / (performance.now() - t0)) * 100;
    state.stopped = true;
    const p50 = pct(delivery, 50);
    const p99 = pct(delivery, 99);
    console.log([matches, bots, delivery.length, p50.toFixed(1), p99.toFixed(1), cpu.toFixed(0), genCpu.toFixed(0), state.errors].map((v) => String(v).padStart(8)).join(' '));
    if (p99 > 100 && bots === 0) {
      knee = true;
      console.log(`  knee: delivery p99 passed 100 ms at ${matches} matches`);
    }
    // This level's players leave (their matches are forfeited), so levels do not add up.
    for (const p of state.players) p.close();
    void Promise.all(running);
  }
  if (!knee) console.log(`knee: above ${Math.max(...LEVELS)} matches, the highest level tried (no delivery p99 passed 100 ms)`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
