import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  createGame, decodeReplay, encodeReplay, KEYS, MODE_NAMES, ReplayDecodeError, RULES_VERSION, simulateReplay,
} from '@/lib/engine';
import type { Handling, Replay, ReplayEvent } from '@/lib/engine';
import { collides, COLS, FIELD_BITS, PAD, TOTAL_ROWS } from '@/lib/engine/board';
import { createCore } from '@/lib/engine/setup';
import type { Core } from '@/lib/engine/core';
import { fromBase64Url, toBase64Url } from '@/lib/engine/base64url';

const handlingArb: fc.Arbitrary<Handling> = fc.record({
  das: fc.integer({ min: 1, max: 20 }),
  arr: fc.integer({ min: 0, max: 5 }),
  sdf: fc.oneof(fc.constant('instant' as const), fc.integer({ min: 1, max: 40 })),
  dasCut: fc.boolean(),
});

/** Dense, key-mashing input: short gaps so pieces move, rotate, hold and lock a lot. */
const eventsArb = (maxLen: number, maxGap: number): fc.Arbitrary<ReplayEvent[]> =>
  fc
    .array(fc.record({ gap: fc.nat({ max: maxGap }), key: fc.constantFrom(...KEYS), down: fc.boolean() }), { maxLength: maxLen })
    .map((xs) => {
      let tick = 0;
      return xs.map(({ gap, key, down }) => ({ tick: (tick += gap), key, down }));
    });

const replayArb = (maxLen = 300, maxGap = 12): fc.Arbitrary<Replay> =>
  fc.record(
    {
      rulesVersion: fc.constant(RULES_VERSION),
      mode: fc.constantFrom(...MODE_NAMES),
      seed: fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme-composite' }).filter((s) => s.length >= 1 && s.length <= 64),
      handling: handlingArb,
      nextCount: fc.integer({ min: 1, max: 6 }),
      events: eventsArb(maxLen, maxGap),
    },
    { requiredKeys: ['rulesVersion', 'mode', 'seed', 'handling', 'events'] },
  );

/** Walls intact, colour grid matches the bitboard, active piece never overlaps. Null when sound. */
function boardFault(c: Core): string | null {
  for (let i = 0; i < PAD; i++) if (c.board[i] !== -1 || c.board[PAD + TOTAL_ROWS + i] !== -1) return 'floor or ceiling changed';
  for (let y = 0; y < TOTAL_ROWS; y++) {
    const row = c.board[y + PAD]!;
    if ((row | FIELD_BITS) !== -1) return `wall bits lost in row ${y}`;
    for (let x = 0; x < COLS; x++)
      if ((c.colors[y * COLS + x] !== 0) !== ((row & (1 << (x + 4))) !== 0)) return `colour grid disagrees at ${x},${y}`;
  }
  if (!c.ended && collides(c.board, c.slot, c.x, c.y)) return 'active piece overlaps';
  return null;
}

describe('properties', () => {
  it('random input streams never corrupt the board and never throw', () => {
    fc.assert(
      fc.property(replayArb(400, 8), (r) => {
        const { core } = createCore({ mode: r.mode, seed: r.seed, handling: r.handling }, true);
        let i = 0;
        for (let t = 0; t < 3000 && !core.ended; t++) {
          for (; i < r.events.length && r.events[i]!.tick === t && !core.ended; i++)
            core.input(KEYS.indexOf(r.events[i]!.key), r.events[i]!.down);
          core.step();
          core.out = null;
          const fault = boardFault(core);
          if (fault) throw new Error(`tick ${t}: ${fault}`);
        }
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('same replay → same result; the fast path equals live play tick by tick', () => {
    fc.assert(
      fc.property(replayArb(), fc.integer({ min: 1, max: 4000 }), (r, maxTicks) => {
        const a = simulateReplay(r, { maxTicks });
        expect(simulateReplay(r, { maxTicks })).toEqual(a);
        expect(simulateReplay(r, { maxTicks, evented: true })).toEqual(a);
        // Live play through the public Game API, fed the same inputs tick by tick.
        const g = createGame({ mode: r.mode, seed: r.seed, handling: r.handling, nextCount: r.nextCount });
        let i = 0;
        for (let t = 0; t < maxTicks && !g.over; t++) {
          const inputs = [];
          for (; i < r.events.length && r.events[i]!.tick === t; i++) inputs.push({ key: r.events[i]!.key, down: r.events[i]!.down });
          g.tick(inputs);
        }
        expect(g.hash()).toBe(a.hash);
        expect(g.snapshot()).toMatchObject({ score: a.score, lines: a.lines, tick: a.ticks, pieces: a.pieces });
        expect(simulateReplay(g.replay(), { maxTicks }).hash).toBe(a.hash);
      }),
      { numRuns: 80 },
    );
  });

  it('encode → decode is the identity', () => {
    fc.assert(
      fc.property(replayArb(500, 5000), (r) => {
        expect(decodeReplay(encodeReplay(r))).toEqual(r);
      }),
      { numRuns: 300 },
    );
  });

  it('decodeReplay throws only ReplayDecodeError on random, mutated and truncated input', () => {
    const onlyDecodeErrors = (data: string): void => {
      try {
        const r = decodeReplay(data);
        expect(decodeReplay(encodeReplay(r))).toEqual(r);
      } catch (e) {
        if (!(e instanceof ReplayDecodeError)) throw e;
      }
    };
    fc.assert(fc.property(fc.string({ maxLength: 300 }), onlyDecodeErrors), { numRuns: 500 });
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (b) => onlyDecodeErrors(toBase64Url(b))), { numRuns: 500 });
    fc.assert(
      fc.property(replayArb(60), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(), (r, flips, cut) => {
        const bytes = fromBase64Url(encodeReplay(r))!;
        for (const [at, v] of flips) bytes[at % bytes.length] = v;
        onlyDecodeErrors(toBase64Url(bytes));
        onlyDecodeErrors(toBase64Url(bytes.subarray(0, cut % (bytes.length + 1))));
      }),
      { numRuns: 500 },
    );
  });
});
