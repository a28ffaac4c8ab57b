import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeReplay, KEYS, MAX_REPLAY_BYTES, ReplaySizeBound, type Replay } from '@/lib/engine';
import { fromBase64Url } from '@/lib/engine/base64url';

const HANDLING = { das: 10, arr: 2, sdf: 20, dasCut: false };

describe('ReplaySizeBound', () => {
  it('is never below the encoded size, for solo and versus replays of any shape', () => {
    const gaps = fc.oneof(fc.nat({ max: 3 }), fc.nat({ max: 200 }), fc.nat({ max: 100_000 }));
    fc.assert(
      fc.property(
        fc.constantFrom(1, 3, 5, 2, 4, 6),
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.array(fc.record({ gap: gaps, key: fc.nat({ max: 7 }), down: fc.boolean() }), { maxLength: 300 }),
        fc.array(fc.record({ gap: gaps, size: fc.integer({ min: 1, max: 64 }) }), { maxLength: 40 }),
        (rulesVersion, seed, inputs, garbage) => {
          const versus = rulesVersion % 2 === 0;
          const bound = new ReplaySizeBound(rulesVersion);
          let tick = 0;
          const events = inputs.map((e) => ({ tick: (tick += e.gap), key: KEYS[e.key]!, down: e.down }));
          for (const e of events) bound.addEvent(e.tick);
          let gtick = 0;
          const g = garbage.map((x) => ({ tick: (gtick += x.gap), size: x.size }));
          if (versus) for (const x of g) bound.addGarbage(x.tick, x.size);
          const replay: Replay = {
            rulesVersion, mode: versus ? 'battle' : 'sprint', seed, handling: HANDLING, events, ...(versus ? { garbage: g } : {}), ...(rulesVersion === 6 ? { seat: 1 as const } : {}),
          };
          expect(fromBase64Url(encodeReplay(replay))!.length).toBeLessThanOrEqual(bound.bytes);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('says when a stream could no longer be encoded: the largest tick gaps, event by event', () => {
    const bound = new ReplaySizeBound(6);
    let tick = 0;
    while (bound.fits) bound.addEvent((tick += 60_000));
    expect(bound.bytes).toBeGreaterThan(MAX_REPLAY_BYTES);
  });
});
