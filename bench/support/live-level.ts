/**
 * One measured level of honest live games on a running server: bench/live/load.ts in a process of
 * its own plays `games` bot games at ~3 pieces a second; the server's CPU time and memory are read
 * from /proc around the window the generator measures. Used by bench:live and bench:hostile.
 */
import { spawn } from 'node:child_process';
import { SERVER_NODE_FLAGS } from '@/scripts/node-flags.mjs';
import { cpuMs, rssMb } from '@/bench/support/proc';

export type Load = { batches: number; deals: number; errors: number; errorCodes?: Record<string, number>; ackP50: number; ackP99: number; dealP50: number; dealP99: number; genCpuPct: number; genLagP99: number };
export type Level = Load & { serverCpuPct: number; cpuUsPerGameSecond: number; rssMb: number };

/** `rampS`: the seconds over which the games start (default: 100 a second, at least 5 s). */
export async function liveLevel(url: string, pid: number, games: number, seconds: number, rampS = Math.max(5, games / 100)): Promise<Level> {
  return (await liveWindows(url, pid, games, seconds, { rampS, windows: 1 }))[0]!;
}

/**
 * Several measured windows over the same games, `gapS` seconds apart; `between(i)` runs when
 * window i has ended (bench:hostile starts its attack there).
 */
export async function liveWindows(url: string, pid: number, games: number, seconds: number, o: { rampS: number; windows: number; gapS?: number; between?: (i: number) => void }): Promise<Level[]> {
  // The bots run with the server's young-generation size: with Node's default their own collector's pauses were part of the p99.
  const proc = spawn('npx', ['tsx', ...SERVER_NODE_FLAGS, ...(process.env.LOAD_NODE_ARGS ?? '').split(' ').filter(Boolean), 'bench/live/load.ts', `--url=${url}`, `--games=${games}`,
    `--seconds=${seconds}`, `--ramp=${o.rampS}`, `--windows=${o.windows}`, `--gap=${o.gapS ?? 0}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let cpu0 = 0;
  let t0 = 0;
  let measured = { cpu: 0, rss: 0 };
  const levels: Level[] = [];
  let buffer = '';
  proc.stdout.on('data', (d: Buffer) => {
    buffer += d;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line === 'MEASURE_START') [cpu0, t0] = [cpuMs(pid), performance.now()];
      else if (line === 'MEASURE_END') measured = { cpu: (cpuMs(pid) - cpu0) / ((performance.now() - t0) / 1000), rss: rssMb(pid) };
      else if (line.startsWith('{')) {
        const load = JSON.parse(line) as Load;
        // CPU ms per wall second → µs of server CPU per second of play per game.
        levels.push({ ...load, serverCpuPct: measured.cpu / 10, cpuUsPerGameSecond: (measured.cpu * 1000) / games, rssMb: measured.rss });
        o.between?.(levels.length - 1);
      }
    }
  });
  await new Promise((r) => proc.once('exit', r));
  if (levels.length < o.windows) throw new Error(`load generator for ${games} games gave ${levels.length} of ${o.windows} results`);
  return levels;
}
