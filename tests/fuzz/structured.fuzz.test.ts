import { describe, expect, it } from 'vitest';
import { structuredCase } from '@/tests/fuzz/corpus';
import { fuzz } from '@/tests/fuzz/harness';

describe('fuzzing the events and header of real replays, re-encoded (40,000 cases)', () => {
  it.each([1, 2])('reordered, duplicated, dropped, shifted and extreme events; wrong seeds, modes, rules and handling, seed %i', (seed) => {
    const verdicts = fuzz(structuredCase, 20_000, seed);
    for (const code of ['ok', 'result_mismatch', 'inputs_after_end', 'input_rate_impossible', 'seed_mismatch', 'mode_mismatch', 'replay_undecodable']) {
      expect(verdicts.get(code), code).toBeGreaterThan(0);
    }
  });
});
