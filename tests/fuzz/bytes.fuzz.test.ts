import { describe, expect, it } from 'vitest';
import { decodeReplay, MAX_REPLAY_ENCODED_LENGTH, ReplayDecodeError } from '@/lib/engine';
import { BASES, byteCase } from '@/tests/fuzz/corpus';
import { fuzz } from '@/tests/fuzz/harness';

describe('fuzzing the encoded bytes of real replays (60,000 cases)', () => {
  it.each([1, 2, 3])('bit flips, truncations, extensions, splices and stray characters, seed %i', (seed) => {
    const verdicts = fuzz(byteCase, 20_000, seed);
    // Most break the format, but enough survive decoding to reach every later check.
    expect(verdicts.get('replay_undecodable')).toBeGreaterThan(10_000);
    for (const code of ['result_mismatch', 'seed_mismatch', 'inputs_after_end', 'ok']) expect(verdicts.get(code), code).toBeGreaterThan(0);
  });

  it('text beyond the cap is refused before it is read', () => {
    expect(() => decodeReplay(`${BASES[0]!.text}${'A'.repeat(MAX_REPLAY_ENCODED_LENGTH)}`)).toThrow(ReplayDecodeError);
  });
});
