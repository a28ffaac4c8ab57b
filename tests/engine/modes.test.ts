import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CLEAR_SPAN, isRankable, metricOf, MODE_NAMES, MODES, rankValue } from '@/lib/engine';
import type { GameEvent, Mode } from '@/lib/engine';
import { createCore } from '@/lib/engine/setup';
import { PieceQueue } from '@/lib/engine/queue';
import { outputOf, nextState, seedState } from '@/lib/engine/rng';
import { playGame } from '@/tests/support/bot';
import { dropIRightWell, HANDLING, ofType } from '@/tests/engine/helpers';

/** An I in the right-hand well clears `n` rows, with the counters preset (internal state, tests only). */
function clearWith(mode: Mode, n: number, preset: { lines: number; level?: number }): GameEvent[] {
  const board = [...Array<string>(n).fill('XXXXXXXXX.'), 'X.XXXXXXXX'];
  const { core } = createCore({ mode, seed: 't', handling: HANDLING, board, queue: ['I'] }, true);
  core.lines = preset.lines;
  if (preset.level) core.setLevel(preset.level);
  return dropIRightWell(core);
}

describe('modes', () => {
  it('are data', () => {
    expect(MODES.marathon).toMatchObject({ lineGoal: 150, levelEveryLines: 10, timeLimitTicks: 0 });
    expect(MODES.sprint).toMatchObject({ lineGoal: 40, levelEveryLines: 0, startLevel: 1 });
    expect(MODES.ultra).toMatchObject({ lineGoal: 0, timeLimitTicks: 7200, startLevel: 1 });
  });

  it('ultra finishes at the end of tick 7200', () => {
    const { result } = playGame({ mode: 'ultra', seed: 'ultra', pace: 30 });
    expect(result).toMatchObject({ ticks: 7200, finished: true, toppedOut: false, reason: 'timeUp', level: 1 });
    // Exact tick, without playing two minutes: jump the clock (internal state, tests only).
    const { core } = createCore({ mode: 'ultra', seed: 't', handling: HANDLING }, true);
    core.tickNo = 7198;
    core.out = null;
    core.step();
    expect(core.out).toBeNull();
    core.step();
    expect(core.out).toContainEqual({ type: 'finished', reason: 'timeUp' });
    expect(core.tickNo).toBe(7200);
  });

  it('sprint finishes on the lock that reaches 40 lines and keeps level 1', () => {
    const events = clearWith('sprint', 2, { lines: 38 });
    expect(ofType(events, 'finished')).toEqual([{ type: 'finished', reason: 'goal' }]);
    expect(ofType(events, 'levelUp')).toEqual([]);
    expect(ofType(clearWith('sprint', 1, { lines: 38 }), 'finished')).toEqual([]);
    expect(ofType(events, 'spawn')).toEqual([]);
  });

  it('sprint played by the bot ends with the goal', () => {
    const { result } = playGame({ mode: 'sprint', seed: 'modes' });
    expect(result).toMatchObject({ finished: true, reason: 'goal', level: 1 });
    expect(result.lines).toBeGreaterThanOrEqual(40);
  });

  it('marathon levels up every 10 lines, scoring at the level before the clear', () => {
    const events = clearWith('marathon', 1, { lines: 9 });
    expect(ofType(events, 'lock')[0]!.points).toBe(100);
    expect(ofType(events, 'levelUp')).toEqual([{ type: 'levelUp', level: 2 }]);
    const { core } = createCore({ mode: 'marathon', seed: 't', handling: HANDLING }, false);
    core.setLevel(2);
    // Guideline level 2: 0.793 s per row = 1 / (0.793 × 60) rows per tick = 1377.4 / 65536,
    // rounded up as level 1 is (so a level is never slower than the guideline's).
    expect(core.gravity).toBe(1378);
    // Level 15: 0.0071 s per row, ≈ 2.36 rows per tick = 154742.3 / 65536, rounded up.
    core.setLevel(15);
    expect(core.gravity).toBe(154743);
  });

  it('marathon ends at 150 lines, level capped at 15', () => {
    const events = clearWith('marathon', 4, { lines: 146, level: 15 });
    expect(ofType(events, 'lock')[0]!.points).toBe(800 * 15);
    expect(ofType(events, 'levelUp')).toEqual([]);
    expect(ofType(events, 'finished')).toEqual([{ type: 'finished', reason: 'goal' }]);
  });
});

describe('randomizer', () => {
  it('hashes the seed with FNV-1a over UTF-8 (published test vectors)', () => {
    expect(seedState('') >>> 0).toBe(0x811c9dc5);
    expect(seedState('a') >>> 0).toBe(0xe40c292c);
    expect(seedState('foobar') >>> 0).toBe(0xbf9cf968);
    expect(seedState('é') >>> 0).toBe(seedStateOfBytes([0xc3, 0xa9]));
  });

  it('mulberry32 golden values (part of RULES_VERSION 1)', () => {
    let s = seedState('linefall');
    const out: number[] = [];
    for (let i = 0; i < 5; i++) out.push(outputOf((s = nextState(s))));
    expect(out).toMatchInlineSnapshot(`
      [
        159784321,
        1362998965,
        1900788384,
        4095699130,
        3408167027,
      ]
    `);
    const q = new PieceQueue(new Int8Array(0), seedState('linefall'));
    expect(Array.from({ length: 14 }, () => 'IOTSZJL'[q.take()]).join('')).toMatchInlineSnapshot(`"IJSTLOZTLJSIOZ"`);
  });

  it('matches the published mulberry32 reference implementation', () => {
    // The widely copied reference (Tommy Ettinger's mulberry32, JS port), kept verbatim in spirit.
    const reference = (seed: number) => () => {
      let t = (seed = (seed + 0x6d2b79f5) | 0);
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (t ^ (t >>> 14)) >>> 0;
    };
    for (const seed of ['a', 'linefall', 'ünïcødé', '1234567890']) {
      const next = reference(seedState(seed));
      let s = seedState(seed);
      for (let i = 0; i < 1000; i++) expect(outputOf((s = nextState(s)))).toBe(next());
    }
  });

  it('every 7 pieces form a permutation (7-bag), after any configured queue', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 5 }), (seed, pending) => {
        const q = new PieceQueue(Int8Array.from(pending), seedState(seed));
        for (const p of pending) expect(q.take()).toBe(p);
        for (let bag = 0; bag < 20; bag++) {
          const got = Array.from({ length: 7 }, () => q.take()).sort();
          expect(got).toEqual([0, 1, 2, 3, 4, 5, 6]);
        }
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});

function seedStateOfBytes(bytes: number[]): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return h >>> 0;
}

describe('how modes rank', () => {
  const game = { ticks: 3000, score: 12_345, clears: 4 };

  it('derives the board metric from rankBy and better: lower is better for every mode', () => {
    for (const mode of MODE_NAMES) {
      const { rankBy, better } = MODES[mode];
      const value = { time: game.ticks, score: game.score, clears: game.clears * CLEAR_SPAN - game.ticks }[rankBy];
      expect(rankValue(mode, game)).toBe(value);
      expect(metricOf(mode, game)).toBe(better === 'lower' ? value : -value);
    }
    expect(metricOf('sprint', game)).toBe(3000);
    expect(metricOf('marathon', game)).toBe(-12_345);
    expect(metricOf('pc', game)).toBe(-(4 * 262_144) + 3000);
  });

  it('ranks an unfinished game only where the mode does not need a finish', () => {
    for (const mode of MODE_NAMES) {
      expect(isRankable(mode, { finished: true })).toBe(true);
      expect(isRankable(mode, { finished: false })).toBe(!MODES[mode].needsFinish);
    }
    expect(isRankable('sprint', { finished: false })).toBe(false);
  });
});
