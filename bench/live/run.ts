/**
 * npm run bench:live — live games on the built server (npm run build first), PGlite.
 * For each level of concurrent games, a load generator process (bench/live/load.ts) plays that
 * many bot games over real sockets at ~3 pieces a second, a batch every 100 ms; this process
 * reads the server's CPU time and memory from /proc around the measured window. The generator
 * reports its own CPU and event-loop lag (genLag99: how late its bots can read an ack, a share of
 * the p99s that is not the server's).
 * Options: --levels=250,500,1000,1500  --seconds=20  --runs=1 (medians over runs)
 *   --submissions=N: each level is measured twice over the same games, alone and then beside a
 *   stream of N worst-case HTTP submissions a second (bench/live/submissions.ts); both are printed.
 *   --app=<dir>: serve the build of another checkout (a baseline, for an A/B pair of runs).
 * Each level after the first starts once the server is quiet again, past the last level's resume window.
 * LOAD_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the generator (APP_NODE_ARGS the server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { liveLevel, liveWindows, type Level, type Load } from '@/bench/support/live-level';
import { prepareWorstCase, streamSubmissions, type StreamResult } from '@/bench/live/submissions';
import { rssMb, untilQuiet } from '@/bench/support/proc';
import { PACING } from '@/lib/server/live/pacing';
import { createAppServer } from '@/tests/support/app-server';

const opt = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const LEVELS = opt('levels', '250,500,1000,1500').split(',').map(Number);
const SECONDS = Number(opt('seconds', '20'));
const RUNS = Number(opt('runs', '1'));
const SUBMISSIONS = Number(opt('submissions', '0'));
/** Between the window alone and the one beside the submissions: the stream's first verifications settle in. */
const GAP_S = 5;

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(path.join(tmpdir(), 'linefall-live-bench-'));
const dataDir = path.join(dir, 'pglite');
const server = await createAppServer(`pglite:${dataDir}`, { LINEFALL_FAULT_INJECTION: '0' }, { dir: opt('app', '') || undefined });
await server.start();
try {
  const perLevel = Math.ceil(SUBMISSIONS * (SECONDS + GAP_S + 5));
  const worst = SUBMISSIONS > 0 ? await prepareWorstCase({ url: server.url, dataDir, count: perLevel * LEVELS.length * RUNS, restart: server }) : [];
  const streams: Array<{ games: number; alone: Level; beside: Level; stream: StreamResult }> = [];
  /** One level: alone, or (with --submissions) alone and then beside the stream, over the same games. */
  const level = async (games: number, pid: number): Promise<Level> => {
    if (SUBMISSIONS === 0) return liveLevel(server.url, pid, games, SECONDS);
    const mine = worst.splice(0, perLevel);
    let end: () => void = () => {};
    let stream: Promise<StreamResult> | null = null;
    const [alone, beside] = await liveWindows(server.url, pid, games, SECONDS, {
      rampS: Math.max(5, games / 100), windows: 2, gapS: GAP_S,
      between: (i) => void (i === 0 && (stream = streamSubmissions(mine, SUBMISSIONS, new Promise<void>((r) => (end = r))))),
    });
    end();
    streams.push({ games, alone: alone!, beside: beside!, stream: await stream! });
    return alone!;
  };
  const pid = server.pid()!;
  await new Promise((r) => setTimeout(r, 2000));
  const idle = rssMb(pid);
  console.log(`server idle RSS ${idle.toFixed(0)} MB; ${SECONDS} s measured per level; ${RUNS} run(s), medians`);
  console.log('games  ackP50  ackP99  dealP50 dealP99  batches/s  errors  srvCPU%  µs CPU/game·s  RSS MB  MB/game  genCPU%  genLag99');
  let knee = false;
  let ran = 0;
  let top = { games: 0, perGame: 0 }; // the highest level's MB/game: the most games to spread the server's fixed costs over
  for (const games of LEVELS) {
    const runs: Array<Awaited<ReturnType<typeof liveLevel>>> = [];
    for (let r = 0; r < RUNS; r++) {
      // The last level's games are given up once their resume window has passed: not in this one.
      if (ran++ > 0) await untilQuiet(pid, PACING.resumeWindowMs + 2_000);
      runs.push(await level(games, pid));
    }
    const m = (k: Exclude<keyof Load, 'errorCodes'> | 'serverCpuPct' | 'cpuUsPerGameSecond' | 'rssMb') => median(runs.map((x) => x[k]));
    const perGame = (m('rssMb') - idle) / games;
    console.log(
      [games, m('ackP50'), m('ackP99'), m('dealP50'), m('dealP99'), (m('batches') / SECONDS).toFixed(0), m('errors'), m('serverCpuPct').toFixed(0),
        m('cpuUsPerGameSecond').toFixed(0), m('rssMb').toFixed(0), perGame.toFixed(3), m('genCpuPct'), m('genLagP99')].map((v) => String(v).padStart(7)).join(' '),
    );
    if (games > top.games) top = { games, perGame };
    if (m('ackP99') > 100 || m('dealP99') > 100) {
      knee = true;
      console.log(`  knee: p99 passed 100 ms at ${games} games`);
    }
  }
  if (!knee) console.log(`knee: above ${top.games} games, the highest level tried (no p99 passed 100 ms)`);
  if (streams.length > 0) {
    console.log(`\nbeside ${SUBMISSIONS} worst-case HTTP submissions a second (each run: ${SECONDS} s alone, then ${SECONDS} s beside the stream, over the same games)`);
    console.log('| games | ack p99 alone → beside ms | deal p99 alone → beside ms | server CPU alone → beside | submissions sent | answers | submission p50 / p99 ms |');
    console.log('|---:|---|---|---|---:|---|---|');
    for (const { games, alone, beside, stream } of streams) {
      const answers = Object.entries(stream.statuses).map(([k, v]) => `${v}× ${k}`).join(', ');
      console.log(`| ${games} | ${alone.ackP99} → ${beside.ackP99} | ${alone.dealP99} → ${beside.dealP99} | ${alone.serverCpuPct.toFixed(0)} → ${beside.serverCpuPct.toFixed(0)} % | ${stream.sent} | ${answers} | ${stream.p50.toFixed(0)} / ${stream.p99.toFixed(0)} |`);
    }
  }
  console.log(`10,000 games: ~${(idle + 10_000 * top.perGame).toFixed(0)} MB of server memory (idle RSS + 10,000 × ${top.perGame.toFixed(3)} MB/game, measured at ${top.games} games, the highest level)`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
