import { describe, expect, it } from 'vitest';
import { RULES_VERSION, simulateReplay, type Replay, type ReplayEvent } from '@/lib/engine';
import { playGame } from '@/tests/support/bot';
import { stepReplay } from '@/tests/support/step-replay';

const locksOf = (replay: Replay): number[] => {
  const lockTicks: number[] = [];
  simulateReplay(replay, { lockTicks });
  return lockTicks;
};

describe('simulateReplay lockTicks', () => {
  it('lists the tick of every lock, the same as the lock events of tick-by-tick play', () => {
    for (const [mode, pace] of [['sprint', 0], ['marathon', 40], ['ultra', 25]] as const) {
      const { replay, result } = playGame({ mode, seed: `locks-${mode}`, pace, maxPieces: 60 });
      const locks = locksOf(replay);
      expect(locks).toHaveLength(result.pieces);
      expect(locks).toEqual(stepReplay(replay, 216_000).lockTicks);
    }
  });

  it('counts every piece when several hard drops land on one tick', () => {
    const events: ReplayEvent[] = [];
    for (let tick = 0; tick < 30; tick += 10) {
      for (let k = 0; k < 3; k++) events.push({ tick, key: 'hardDrop', down: true }, { tick, key: 'hardDrop', down: false });
    }
    const replay: Replay = { rulesVersion: RULES_VERSION, mode: 'marathon', seed: 'triple', handling: { das: 10, arr: 2, sdf: 20, dasCut: false }, events };
    const locks = locksOf(replay);
    expect(locks.slice(0, 6)).toEqual([0, 0, 0, 10, 10, 10]);
    expect(locks).toEqual(stepReplay(replay, 216_000).lockTicks);
  });
});
