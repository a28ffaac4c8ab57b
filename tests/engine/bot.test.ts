import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createGame, DEFAULT_HANDLING, simulateReplay } from '@/lib/engine';
import type { Handling, Replay } from '@/lib/engine';
import { planSprint, playGame } from '@/tests/support/bot';
import { typePlan } from '@/tests/support/plan';

/** Lock positions of a replay, via live play. */
function locks(r: Replay): string[] {
  const g = createGame({ mode: r.mode, seed: r.seed, handling: r.handling });
  const out: string[] = [];
  let i = 0;
  for (let t = 0; !g.over && t < 100_000; t++) {
    const inputs = [];
    for (; i < r.events.length && r.events[i]!.tick === t; i++) inputs.push(r.events[i]!);
    for (const e of g.tick(inputs)) if (e.type === 'lock') out.push(`${e.piece}${e.rotation}@${e.x}`);
  }
  return out;
}

const handlings: Handling[] = [DEFAULT_HANDLING, { das: 6, arr: 0, sdf: 'instant', dasCut: true }, { das: 12, arr: 3, sdf: 5, dasCut: false }];

describe('bot', () => {
  it('clears 40 lines in Sprint from many seeds, quickly, at a human input rate', () => {
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      const { replay, result } = playGame({ mode: 'sprint', seed: `bot-${i}` });
      expect(result, `seed bot-${i}`).toMatchObject({ finished: true, reason: 'goal', unusedEvents: 0 });
      const perTick = new Map<number, number>();
      for (const e of replay.events) perTick.set(e.tick, (perTick.get(e.tick) ?? 0) + 1);
      expect(Math.max(...perTick.values())).toBeLessThanOrEqual(2);
    }
    expect((performance.now() - started) / 20).toBeLessThan(250);
  });

  it('a Sprint plan typed with any small delays still clears 40 lines the same way', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.constantFrom(...handlings),
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 64 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 64 }),
        (seed, handling, gaps, holds) => {
          const plan = planSprint(seed, handling);
          const steady = typePlan(plan, seed, handling);
          const jittered = typePlan(plan, seed, handling, { gap: (i) => gaps[i % gaps.length]!, hold: (i) => holds[i % holds.length]! });
          const result = simulateReplay(jittered);
          expect(result).toMatchObject({ finished: true, reason: 'goal' });
          expect(result.pieces).toBe(plan.length);
          expect(locks(jittered)).toEqual(locks(steady));
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);
});
