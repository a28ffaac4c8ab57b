import { describe, expect, it } from 'vitest';
import { decodeReplay, encodeReplay, MAX_REPLAY_ENCODED_LENGTH, ReplayDecodeError, ReplayError, RULES_VERSION, simulateReplay } from '@/lib/engine';
import type { Replay, ReplayDecodeErrorCode } from '@/lib/engine';
import { toBase64Url, fromBase64Url } from '@/lib/engine/base64url';
import { BitWriter } from '@/lib/engine/bits';
import { bestOrder } from '@/lib/engine/codec';
import fc from 'fast-check';
import { playGame } from '@/tests/support/bot';

const sample: Replay = {
  rulesVersion: RULES_VERSION,
  mode: 'ultra',
  seed: 'naïve ☃ 🧱',
  handling: { das: 7, arr: 0, sdf: 'instant', dasCut: true },
  nextCount: 3,
  events: [
    { tick: 0, key: 'left', down: true },
    { tick: 0, key: 'rotate180', down: true },
    { tick: 1, key: 'left', down: false },
    { tick: 5000, key: 'hold', down: true },
    { tick: 2_000_000_000, key: 'hardDrop', down: false },
  ],
};

/** Header bytes of a valid replay with no events, for crafting broken ones. */
function header(over: Partial<Record<'format' | 'rules' | 'mode' | 'das' | 'arr' | 'sdf' | 'flags', number>> = {}, seed = [0x61]): BitWriter {
  const w = new BitWriter();
  w.byte(0x4c);
  w.byte(0x46);
  w.byte(over.format ?? 1);
  w.varint(over.rules ?? 1);
  w.byte(over.mode ?? 0);
  w.byte(over.das ?? 10);
  w.byte(over.arr ?? 2);
  w.byte(over.sdf ?? 20);
  w.byte(over.flags ?? 0);
  w.varint(seed.length);
  seed.forEach((b) => w.byte(b));
  return w;
}
const finish = (w: BitWriter, count = 0, k = 0): string => {
  w.varint(count);
  w.byte(k);
  return toBase64Url(w.finish());
};

function codeOf(data: string): ReplayDecodeErrorCode | 'ok' {
  try {
    decodeReplay(data);
    return 'ok';
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayDecodeError);
    expect((e as Error).message.length).toBeGreaterThan(5);
    return (e as ReplayDecodeError).code;
  }
}

describe('replay codec', () => {
  it('round-trips exactly, including optional nextCount, unicode seeds and huge tick gaps', () => {
    expect(decodeReplay(encodeReplay(sample))).toEqual(sample);
    const noNext: Replay = { ...sample };
    delete noNext.nextCount;
    expect(decodeReplay(encodeReplay(noNext))).toEqual(noNext);
    expect(decodeReplay(encodeReplay({ ...sample, events: [] }))).toEqual({ ...sample, events: [] });
  });

  it('refuses to decode a mode its rules version does not play, as encoding refuses to write it (a Dig under unkeyed rules)', () => {
    // Found by the structured fuzzer: a Dig 18 header under rules 3 decoded, then would not re-encode.
    expect(() => decodeReplay('TEYDAwkKAhQACWZ1enotaWRsZQAA')).toThrow(expect.objectContaining({ name: 'ReplayDecodeError', code: 'invalid_field', message: 'rules version 3 does not play dig18' }));
  });

  it('a 3-minute, ~100-piece game fits in 2 KB of base64url', () => {
    const { replay, result } = playGame({ mode: 'sprint', seed: 'size', pace: 105 });
    expect(result.ticks).toBeGreaterThan(10_000);
    const encoded = encodeReplay(replay);
    expect(encoded.length).toBeLessThanOrEqual(2048);
    expect(decodeReplay(encoded)).toEqual(replay);
  });

  it('base64url is strict', () => {
    expect(fromBase64Url('TEY')).not.toBeNull();
    expect(fromBase64Url('TEZ')).toBeNull(); // non-zero unused bits
    expect(fromBase64Url('TEY=')).toBeNull();
    expect(fromBase64Url('T')).toBeNull();
    expect(fromBase64Url('TE+/')).toBeNull();
  });

  it('base64url decodes as Node does every canonical string, refuses every other, and leaves its spare bytes zero', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=é ';
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.nat(8), (bytes, spare) => {
        const out = fromBase64Url(toBase64Url(bytes), spare)!;
        expect(Buffer.from(out.subarray(0, bytes.length)).equals(Buffer.from(bytes))).toBe(true);
        expect([...out.subarray(bytes.length)]).toEqual(new Array(spare).fill(0));
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }), (chars) => {
        const s = chars.join('');
        const node = Buffer.from(s, 'base64url');
        const canonical = s.length % 4 !== 1 && node.toString('base64url') === s;
        const out = fromBase64Url(s);
        expect(out !== null, s).toBe(canonical);
        if (out) expect(Buffer.from(out).equals(node)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it.each<[string, string, ReplayDecodeErrorCode]>([
    ['not base64url', 'TEY*', 'bad_encoding'],
    ['padding', 'TEYB=', 'bad_encoding'],
    ['wrong magic', toBase64Url(Uint8Array.from([0x50, 0x4b, 3, 4])), 'bad_magic'],
    ['empty', '', 'truncated'],
    ['format 2', finish(header({ format: 2 })), 'unsupported_version'],
    ['rules version 99', finish(header({ rules: 99 })), 'unsupported_version'],
    ['format 5', finish(header({ format: 5 })), 'unsupported_version'],
    ['rules 3 in format 1 (its keys need format 3)', finish(header({ rules: 3 })), 'unsupported_version'],
    ['rules 1 in format 3', finish(header({ format: 3, rules: 1 })), 'unsupported_version'],
    ['rules 2 in format 4', finish(header({ format: 4, rules: 2, mode: 3 })), 'unsupported_version'],
    ['mode 3', finish(header({ mode: 3 })), 'invalid_field'],
    ['das 0', finish(header({ das: 0 })), 'invalid_field'],
    ['das 21', finish(header({ das: 21 })), 'invalid_field'],
    ['arr 6', finish(header({ arr: 6 })), 'invalid_field'],
    ['sdf 41', finish(header({ sdf: 41 })), 'invalid_field'],
    ['reserved flag bits', finish(header({ flags: 0x10 })), 'invalid_field'],
    ['nextCount 7', finish(header({ flags: 7 << 1 })), 'invalid_field'],
    ['empty seed', finish(header({}, [])), 'invalid_field'],
    ['seed of invalid UTF-8', finish(header({}, [0xc3, 0x28])), 'invalid_field'],
    ['overlong UTF-8 seed', finish(header({}, [0xc0, 0x80])), 'invalid_field'],
    ['seed of 65 characters', finish(header({}, Array<number>(65).fill(0x61))), 'invalid_field'],
    ['seed length beyond the cap', finish(header({}, Array<number>(300).fill(0x61))), 'invalid_field'],
    ['event count beyond the cap', finish(header(), 100_001), 'too_large'],
    ['more events than bytes', finish(header(), 50_000), 'truncated'],
    ['event order 17', finish(header(), 0, 17), 'invalid_field'],
    ['oversized text', 'A'.repeat(MAX_REPLAY_ENCODED_LENGTH + 1), 'too_large'],
  ])('%s → %s', (_name, data, code) => {
    expect(codeOf(data)).toBe(code);
  });

  it('rejects truncation at every byte and trailing garbage', () => {
    const bytes = fromBase64Url(encodeReplay(sample))!;
    for (let n = 0; n < bytes.length; n++) expect(codeOf(toBase64Url(bytes.subarray(0, n)))).not.toBe('ok');
    expect(codeOf(toBase64Url(Uint8Array.from([...bytes, 0])))).toBe('trailing_data');
    const w = header();
    w.varint(1);
    w.byte(0);
    w.bits(0b1_000_1, 5); // tick delta 0, key left, down
    w.bits(1, 3); // non-zero padding
    expect(codeOf(toBase64Url(w.finish()))).toBe('trailing_data');
  });

  it('format 3 has 4-bit key ids, and refuses the ids rules 3 does not have', () => {
    const withKey = (id: number): string => {
      const w = header({ format: 3, rules: 3 });
      w.varint(1);
      w.byte(0);
      w.bit(1); // tick delta 0
      w.bits(id, 4);
      w.bit(1);
      return toBase64Url(w.finish());
    };
    expect(decodeReplay(withKey(8)).events).toEqual([{ tick: 0, key: 'rowDown', down: true }]);
    expect(decodeReplay(withKey(7)).events).toEqual([{ tick: 0, key: 'hold', down: true }]);
    expect(codeOf(withKey(9))).toBe('invalid_field');
    expect(codeOf(withKey(15))).toBe('invalid_field');
  });

  it('format 5 (keyed versus rules) holds the seat in flag bit 4; other formats keep that bit reserved', () => {
    const versus = (format: number, rules: number, flags: number): string => {
      const w = header({ format, rules, mode: 3, flags });
      w.varint(0);
      w.byte(0);
      w.bits(1, 1); // garbage count 0
      return toBase64Url(w.finish());
    };
    expect(decodeReplay(versus(5, 6, 1 << 4))).toMatchObject({ rulesVersion: 6, mode: 'battle', seat: 1, garbage: [] });
    expect(decodeReplay(versus(5, 6, 0)).seat).toBe(0);
    expect(decodeReplay(versus(4, 4, 0)).seat).toBeUndefined();
    expect(codeOf(versus(4, 4, 1 << 4))).toBe('invalid_field'); // rules 4 has one hole stream: no seat
    expect(codeOf(versus(5, 6, 1 << 5))).toBe('invalid_field');
    expect(codeOf(versus(4, 6, 0))).toBe('unsupported_version'); // rules 6 only in format 5
    const replay = { rulesVersion: 6, mode: 'battle' as const, seed: 's', handling: { das: 10, arr: 2, sdf: 20 as const, dasCut: false }, events: [], garbage: [] };
    expect(() => encodeReplay(replay)).toThrow(/seat must be 0 or 1/);
    expect(() => encodeReplay({ ...replay, rulesVersion: 4, seat: 0 })).toThrow(/seat is only for/);
    expect(decodeReplay(encodeReplay({ ...replay, seat: 1 }))).toEqual({ ...replay, seat: 1 });
  });

  it('rejects a tick past the int32 range and unknown error-free garbage', () => {
    const w = header();
    w.varint(1);
    w.byte(0);
    w.expGolomb(2 ** 31, 0);
    w.bits(0, 4);
    expect(codeOf(toBase64Url(w.finish()))).toBe('invalid_field');
  });

  // Found by the fuzz suite (tests/fuzz): these decoded to a valid replay whose re-encoding is a
  // different string, so one game had several digests (repeat detection compares digests).
  it('accepts only the canonical spelling: no overlong varints, only the best event order', () => {
    // Format 1 (rules 1), the layout header() crafts.
    const v1: Replay = { ...sample, rulesVersion: 1 };
    const canonical = encodeReplay(v1);
    expect(encodeReplay(decodeReplay(canonical))).toBe(canonical);
    const bytes = fromBase64Url(canonical)!;
    // Rules version 1 as the two-byte varint 0x81 0x00.
    const overlongRules = Uint8Array.from([...bytes.subarray(0, 3), 0x81, 0x00, ...bytes.subarray(4)]);
    expect(codeOf(toBase64Url(overlongRules))).toBe('invalid_field');
    expect(codeOf(finish(header({ rules: 1 }), 0))).toBe('ok');
    const overlongCount = header();
    overlongCount.byte(0x80);
    overlongCount.byte(0x00);
    overlongCount.byte(0);
    expect(codeOf(toBase64Url(overlongCount.finish()))).toBe('invalid_field');
    // The same two events written with order 1 instead of the encoder's choice.
    const events: Replay['events'] = [{ tick: 0, key: 'left', down: true }, { tick: 3, key: 'left', down: false }];
    const best = encodeReplay({ ...v1, nextCount: undefined, events });
    const other = (k: number) => {
      const w = header({ flags: 1, das: 7, arr: 0, sdf: 0, mode: 2 }, [...new TextEncoder().encode(sample.seed)]);
      w.varint(2);
      w.byte(k);
      w.expGolomb(0, k);
      w.bits(0b0001, 4);
      w.expGolomb(3, k);
      w.bits(0b0000, 4);
      return toBase64Url(w.finish());
    };
    const decodable = [0, 1, 2, 3].filter((k) => codeOf(other(k)) === 'ok');
    expect(decodable).toHaveLength(1);
    expect(other(decodable[0]!)).toBe(best);
    expect(codeOf(other(decodable[0]! + 1))).toBe('invalid_field');
  });

  it('refuses to encode an invalid replay', () => {
    expect(() => encodeReplay({ ...sample, seed: '' })).toThrow(/seed/);
    expect(() => encodeReplay({ ...sample, events: [{ tick: 5, key: 'left', down: true }, { tick: 4, key: 'left', down: false }] })).toThrow(/tick/);
  });
});

describe('the canonical event order', () => {
  it('is the order whose codes are shortest, the smallest on a tie: counted per delta, as the definition reads', () => {
    const byDefinition = (deltas: number[]) => {
      let best = 0;
      let bestBits = Infinity;
      for (let k = 0; k <= 16; k++) {
        let bits = 0;
        for (const d of deltas) bits += 2 * (32 - Math.clz32(d + 2 ** k)) - 1 - k;
        if (bits < bestBits) [best, bestBits] = [k, bits];
      }
      return best;
    };
    const delta = fc.oneof(fc.nat({ max: 10 }), fc.nat({ max: 1000 }), fc.nat({ max: 2 ** 31 - 1 }), fc.constantFrom(0, 1, 2, 3, 7, 8, 15, 255, 256, 65535, 2 ** 31 - 1));
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 300 }), (deltas) => {
        expect(bestOrder(deltas)).toBe(byDefinition(deltas));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('simulateReplay input checks', () => {
  const base: Replay = { rulesVersion: RULES_VERSION, mode: 'sprint', seed: 's', handling: { das: 10, arr: 2, sdf: 20, dasCut: false }, events: [] };
  const codeOfSim = (r: unknown): string => {
    try {
      simulateReplay(r as Replay, { maxTicks: 10 });
      return 'ok';
    } catch (e) {
      expect(e).toBeInstanceOf(ReplayError);
      return (e as ReplayError).code;
    }
  };

  it.each<[string, unknown, string]>([
    ['valid', base, 'ok'],
    ['rules version 2', { ...base, rulesVersion: 2 }, 'unsupported_rules_version'],
    ['not an object', null, 'invalid_replay'],
    ['das out of range', { ...base, handling: { ...base.handling, das: 0 } }, 'invalid_replay'],
    ['empty seed', { ...base, seed: '' }, 'invalid_replay'],
    ['unknown mode', { ...base, mode: 'zen-garden' }, 'invalid_replay'],
    ['inherited property as key', { ...base, events: [{ tick: 0, key: 'toString', down: true }] }, 'invalid_replay'],
    ['null event', { ...base, events: [null] }, 'invalid_replay'],
    ['ticks out of order', { ...base, events: [{ tick: 3, key: 'left', down: true }, { tick: 2, key: 'left', down: false }] }, 'invalid_replay'],
    ['fractional tick', { ...base, events: [{ tick: 0.5, key: 'left', down: true }] }, 'invalid_replay'],
    ['down not boolean', { ...base, events: [{ tick: 0, key: 'left', down: 1 }] }, 'invalid_replay'],
  ])('%s → %s', (_name, replay, code) => {
    expect(codeOfSim(replay)).toBe(code);
  });
});
