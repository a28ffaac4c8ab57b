/**
 * npm run bench:hostile — honest live games beside hostile sockets, on the built server (npm run
 * build first), PGlite, in one run. `--games` honest bot games (bench/live/load.ts, ~3 pieces a
 * second, a batch every 100 ms) play throughout; their acks are measured in two windows: the
 * first with the honest games alone, the second while 64 hostile sockets from one address do what
 * issue 34 found (bench/hostile/attack.ts: watch churn on a padded game, slow readers, lobby spam,
 * oversized frames), started between the windows and given `--warmup` seconds. Compares the
 * honest players' ack p99 and the server's RSS (goal: p99 within 25 ms, RSS growth under 50 MB).
 * Options: --games=1000 --seconds=20 --warmup=30 --ramp=25 (s over which the honest games start)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { liveWindows, type Level } from '@/bench/support/live-level';
import { cpuMs, rssMb } from '@/bench/support/proc';
import { createAppServer } from '@/tests/support/app-server';

const opt = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const GAMES = Number(opt('games', '1000'));
const SECONDS = Number(opt('seconds', '20'));
const WARMUP = Number(opt('warmup', '30'));
const RAMP = Number(opt('ramp', '25'));

const dir = mkdtempSync(path.join(tmpdir(), 'linefall-hostile-bench-'));
const server = await createAppServer(`pglite:${path.join(dir, 'pglite')}`, { LINEFALL_FAULT_INJECTION: '0' });
await server.start();
const row = (what: string, l: Level, peak: number) =>
  console.log([what.padEnd(16), l.ackP50, l.ackP99, l.dealP99, l.errors, l.serverCpuPct.toFixed(0), l.rssMb.toFixed(0), peak.toFixed(0), l.genCpuPct, l.genLagP99].map((v) => String(v).padStart(8)).join(' '));
let attack: ChildProcess | null = null;
try {
  const pid = server.pid()!;
  await new Promise((r) => setTimeout(r, 2000));
  console.log(`server idle RSS ${rssMb(pid).toFixed(0)} MB; ${GAMES} honest games throughout, ${SECONDS} s measured alone, then ${SECONDS} s beside the attack after its ${WARMUP} s warm-up`);

  let peak = 0;
  const peaks: number[] = [];
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
  let said = '';
  let attackCpu0 = 0;
  const levels = await liveWindows(server.url, pid, GAMES, SECONDS, {
    rampS: RAMP, windows: 2, gapS: WARMUP,
    between: (i) => {
      peaks.push(peak);
      if (i !== 0) return;
      // Node itself with tsx's loader (not npx): the SIGTERM that ends the attack must reach it.
      attack = spawn(process.execPath, ['--import', 'tsx', 'bench/hostile/attack.ts', `--url=${server.url}`, `--warmup=${WARMUP}`], { stdio: ['ignore', 'pipe', 'inherit'] });
      attack.stdout!.on('data', (d: Buffer) => (said += d));
      setTimeout(() => (attackCpu0 = cpuMs(attack!.pid!)), (WARMUP - 1) * 1000).unref();
    },
  });
  clearInterval(sampler);
  const [alone, beside] = levels as [Level, Level];
  const running = attack as ChildProcess | null;
  const attackCpuPct = running?.pid ? ((cpuMs(running.pid) - attackCpu0) / ((SECONDS + 1) * 1000)) * 100 : 0;
  if (running) {
    const exited = new Promise((r) => running.once('exit', r));
    running.kill('SIGTERM');
    await exited;
    attack = null;
  }
  const seen = said.split('\n').find((l) => l.startsWith('{')) ?? '{}';

  console.log('phase             ackP50   ackP99  dealP99   errors  srvCPU%   RSS MB  peak MB  genCPU% genLag99');
  row('honest alone', alone, peaks[0]!);
  row('beside hostile', beside, peaks[1]!);
  console.log(`ack p99 difference: ${(beside.ackP99 - alone.ackP99).toFixed(1)} ms (goal: within 25 ms); RSS growth: ${(beside.rssMb - alone.rssMb).toFixed(0)} MB at the end of the windows, ${(peaks[1]! - peaks[0]!).toFixed(0)} MB at the peak (goal: under 50 MB)`);
  console.log(`honest errors by code: alone ${JSON.stringify(alone.errorCodes ?? {})}, beside hostile ${JSON.stringify(beside.errorCodes ?? {})}`);
  console.log(`the attacker's own CPU in the second window: ${attackCpuPct.toFixed(0)} % of a core (the same 2 cores)`);
  console.log(`what the hostile sockets met: ${seen}`);
} finally {
  (attack as ChildProcess | null)?.kill('SIGTERM');
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
