/**
 * A process's CPU time and memory read from /proc (Linux), for the benchmarks that measure a
 * server in a process of its own.
 */
import { readFileSync } from 'node:fs';

const statCpuMs = (file: string): number => {
  const f = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};

/** CPU time used so far (user + system), in ms, worker threads included; /proc counts 100 clock ticks a second. */
export const cpuMs = (pid: number): number => statCpuMs(`/proc/${pid}/stat`);

/**
 * The CPU time of the process's main thread alone (its task id is the process id): the event
 * loop's own work, worker threads left out. Unlike a delay or a latency it does not grow when the
 * machine is busy with other people's work, so an A/B pair on a shared machine can compare it.
 */
export const mainThreadCpuMs = (pid: number): number => statCpuMs(`/proc/${pid}/task/${pid}/stat`);

export const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/**
 * Waits at least `minMs`, then until the process used under 5 % of a core for a whole second
 * (at most `maxMs` in all); returns how long it waited. Between two levels of a benchmark: what
 * the last level left behind (games given up after their resume window, matches forfeited and
 * stored) would otherwise be measured as part of the next.
 */
export async function untilQuiet(pid: number, minMs: number, maxMs = 120_000): Promise<number> {
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, minMs));
  for (;;) {
    const c0 = cpuMs(pid);
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuMs(pid) - c0 < 50) return performance.now() - t0;
    if (performance.now() - t0 > maxMs) {
      console.error(`the server was still busy ${Math.round(maxMs / 1000)} s on: the next level measures some of the last one's work`);
      return performance.now() - t0;
    }
  }
}
