/**
 * npm run bench:hostile — honest live games beside hostile sockets, on the built server (npm run
 * build first), PGlite, in one run: first `--games` honest bot games alone (bench/live/load.ts,
 * ~3 pieces a second, a batch every 100 ms), then the same again while 64 hostile sockets from one
 * address do what issue 34 found (bench/hostile/attack.ts: watch churn on a padded game, slow
 * readers, lobby spam, oversized frames). Compares the honest players' ack p99 and the server's
 * RSS (goal: p99 within 25 ms, RSS growth under 50 MB).
 * Options: --games=1000 --seconds=20 --warmup=30 (s of attack before the second measure)
 *          --ramp=25 (s over which the honest games start: a ticket each, written to PGlite)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { liveLevel, type Level } from '@/bench/support/live-level';
import { cpuMs, rssMb, untilQuiet } from '@/bench/support/proc';
import { PACING } from '@/lib/server/live/pacing';
import { createAppServer } from '@/tests/support/app-server';

const opt = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const GAMES = Number(opt('games', '1000'));
const SECONDS = Number(opt('seconds', '20'));
const WARMUP = Number(opt('warmup', '30'));
const RAMP = Number(opt('ramp', '25'));

const dir = mkdtempSync(path.join(tmpdir(), 'linefall-hostile-bench-'));
const server = await createAppServer(`pglite:${path.join(dir, 'pglite')}`, { LINEFALL_FAULT_INJECTION: '0' });
await server.start();
const row = (what: string, l: Level, rss: number, peak: number) =>
  console.log([what.padEnd(16), l.ackP50, l.ackP99, l.dealP99, l.errors, l.serverCpuPct.toFixed(0), rss.toFixed(0), peak.toFixed(0), l.genCpuPct, l.genLagP99].map((v) => String(v).padStart(8)).join(' '));
try {
  const pid = server.pid()!;
  await new Promise((r) => setTimeout(r, 2000));
  console.log(`server idle RSS ${rssMb(pid).toFixed(0)} MB; ${GAMES} honest games, ${SECONDS} s measured each; attack warm-up ${WARMUP} s`);

  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
  const alone = await liveLevel(server.url, pid, GAMES, SECONDS, RAMP);
  const alonePeak = peak;
  await untilQuiet(pid, PACING.resumeWindowMs + 2_000);

  // Node itself with tsx's loader (not npx): the SIGTERM that ends the attack must reach it.
  const attack = spawn(process.execPath, ['--import', 'tsx', 'bench/hostile/attack.ts', `--url=${server.url}`, `--warmup=${WARMUP}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  let said = '';
  attack.stdout.on('data', (d: Buffer) => (said += d));
  while (!said.includes('ATTACKING')) {
    if (attack.exitCode !== null) throw new Error('the attacker stopped');
    await new Promise((r) => setTimeout(r, 200));
  }
  const before = rssMb(pid);
  peak = before;
  const [attackCpu0, t0] = [cpuMs(attack.pid!), performance.now()];
  const beside = await liveLevel(server.url, pid, GAMES, SECONDS, RAMP);
  const attackCpuPct = ((cpuMs(attack.pid!) - attackCpu0) / (performance.now() - t0)) * 100;
  const besidePeak = peak;
  clearInterval(sampler);
  const exited = new Promise((r) => attack.once('exit', r));
  attack.kill('SIGTERM');
  await exited;
  const seen = said.split('\n').find((l) => l.startsWith('{')) ?? '{}';

  console.log('phase             ackP50   ackP99  dealP99   errors  srvCPU%   RSS MB  peak MB  genCPU% genLag99');
  row('honest alone', alone, alone.rssMb, alonePeak);
  row('beside hostile', beside, beside.rssMb, besidePeak);
  console.log(`ack p99 difference: ${(beside.ackP99 - alone.ackP99).toFixed(1)} ms (goal: within 25 ms); RSS growth: ${(beside.rssMb - alone.rssMb).toFixed(0)} MB at the end, ${(besidePeak - alonePeak).toFixed(0)} MB at the peak (goal: under 50 MB)`);
  console.log(`honest errors by code: alone ${JSON.stringify(alone.errorCodes ?? {})}, beside hostile ${JSON.stringify(beside.errorCodes ?? {})}`);
  console.log(`RSS when the attack had warmed up: ${before.toFixed(0)} MB; the attacker's own CPU meanwhile: ${attackCpuPct.toFixed(0)} % of a core (the same 2 cores)`);
  console.log(`what the hostile sockets met: ${seen}`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
