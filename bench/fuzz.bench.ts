/**
 * `npm run bench:fuzz`: the fuzz suite's 100,000 cases (tests/fuzz, same seeds), timed. Reports
 * per-case milliseconds of the production path alone (decode + verifySubmission; the suite's
 * oracle is not timed) and of a few hand-made worst cases at the format's caps.
 */
import fc from 'fast-check';
import { encodeReplay, MAX_REPLAY_EVENTS, RULES_VERSION, type Replay, type ReplayEvent } from '@/lib/engine';
import { BASES, byteCase, structuredCase, type FuzzCase } from '@/tests/fuzz/corpus';
import { verifyCase } from '@/tests/fuzz/oracle';

function time(c: FuzzCase): number {
  const started = performance.now();
  verifyCase(c);
  return performance.now() - started;
}

function report(name: string, ms: number[]): void {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  console.log(`${name.padEnd(34)} n=${String(ms.length).padStart(6)}  mean ${mean.toFixed(3)} ms  p50 ${at(0.5).toFixed(3)}  p99 ${at(0.99).toFixed(3)}  max ${sorted.at(-1)!.toFixed(2)} ms`);
}

// Worst cases at the caps, first (a clean heap): the most events the codec takes, all on distinct ticks (decode and
// the input-rate scan read them all), and the same count packed into few ticks.
const spread: ReplayEvent[] = Array.from({ length: MAX_REPLAY_EVENTS }, (_, i) => ({ tick: i * 3, key: 'left', down: i % 2 === 0 }));
const packed: ReplayEvent[] = Array.from({ length: MAX_REPLAY_EVENTS }, (_, i) => ({ tick: i >> 2, key: 'rotateCW', down: i % 2 === 0 }));
for (const [name, events] of [['100k events, 1 press / 6 ticks', spread], ['100k events, 4 per tick', packed]] as const) {
  const replay: Replay = { rulesVersion: RULES_VERSION, mode: 'marathon', seed: BASES[3]!.replay.seed, handling: BASES[3]!.replay.handling, events: [...events] };
  const text = encodeReplay(replay);
  const c: FuzzCase = { kind: name, base: 3, text, claimed: { score: 0, lines: 0, ticks: 0 } };
  report(`${name} (${(text.length / 1024).toFixed(0)} KiB)`, Array.from({ length: 20 }, () => time(c)));
}

// Same arbitraries and seeds as tests/fuzz/*.fuzz.test.ts.
const suites: Array<[string, fc.Arbitrary<FuzzCase>, number[], number]> = [
  ['bytes', byteCase, [1, 2, 3], 20_000],
  ['structured', structuredCase, [1, 2], 20_000],
];
const all: number[] = [];
let slowest: Array<{ ms: number; c: FuzzCase }> = [];
for (const [name, arb, seeds, runs] of suites) {
  const ms: number[] = [];
  for (const seed of seeds) {
    for (const c of fc.sample(arb, { numRuns: runs, seed })) {
      const t = time(c);
      ms.push(t);
      if (slowest.length < 50 || t > slowest[49]!.ms) slowest = [...slowest, { ms: t, c }].sort((a, b) => b.ms - a.ms).slice(0, 50);
    }
  }
  report(name, ms);
  all.push(...ms);
}
report('all', all);
// A single reading includes garbage collection and other processes on a shared machine: re-time
// the 50 slowest cases five times each and keep the median, the case's own cost.
const retimed = slowest
  .map(({ ms, c }) => ({ ms, c, median: Array.from({ length: 5 }, () => time(c)).sort((a, b) => a - b)[2]! }))
  .sort((a, b) => b.median - a.median);
const worst = retimed[0]!;
console.log(`slowest single reading ${slowest[0]!.ms.toFixed(2)} ms; 50 slowest re-timed: worst median ${worst.median.toFixed(2)} ms (${worst.c.kind})`);
