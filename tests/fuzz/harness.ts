import fc from 'fast-check';
import { expect } from 'vitest';
import { MAX_REPLAY_ENCODED_LENGTH, MAX_REPLAY_EVENTS } from '@/lib/engine';
import type { FuzzCase } from '@/tests/fuzz/corpus';
import { runCase } from '@/tests/fuzz/oracle';

/**
 * Runs `runs` cases from `arb` (a fixed seed: every run checks the same cases, and a failure
 * names the seed and path that reproduce it) and returns how often each verdict came up. Each
 * case must be judged correctly and stay inside the work bounds that keep verification cheap:
 * the text cap and the event cap (the one-hour tick cap bounds the re-play by construction). The slowest case is logged, not asserted
 * (times are measured by `npm run bench:fuzz`).
 */
export function fuzz(arb: fc.Arbitrary<FuzzCase>, runs: number, seed: number): Map<string, number> {
  const verdicts = new Map<string, number>();
  let slowest = { ms: 0, kind: '' };
  fc.assert(
    fc.property(arb, (c) => {
      const started = performance.now();
      const r = runCase(c);
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { ms, kind: c.kind };
      verdicts.set(r.verdict, (verdicts.get(r.verdict) ?? 0) + 1);
      if (r.problem) throw new Error(`${c.kind}: ${r.problem}`);
      if (r.verdict !== 'replay_undecodable' && c.text.length > MAX_REPLAY_ENCODED_LENGTH) throw new Error(`${c.kind}: decoded past the text cap`);
      // The tick cap needs no check here: the independent re-play itself stops at MAX_GAME_TICKS.
      if (r.events > MAX_REPLAY_EVENTS) throw new Error(`${c.kind}: ${r.events} events`);
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  console.log(`[fuzz] seed ${seed}: ${runs} cases, slowest ${slowest.ms.toFixed(1)} ms (${slowest.kind}); verdicts ${JSON.stringify(Object.fromEntries(verdicts))}`);
  expect([...verdicts.values()].reduce((a, b) => a + b, 0)).toBe(runs);
  return verdicts;
}
