import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulateReplay } from '@/lib/engine';
import { ReplayPlayer } from '@/lib/client/replay-player';
import { botGame, straightRun } from '@/tests/support/replays';

describe('ReplayPlayer', () => {
  const { replay } = botGame('sprint', 'viewer-seed');
  const verified = simulateReplay(replay);

  it('plays a replay to the same end the server verified', () => {
    const player = new ReplayPlayer(replay);
    expect(player.endTick).toBe(verified.ticks);
    expect(player.pieceTicks).toHaveLength(verified.pieces);
    let locks = 0;
    while (!player.over) locks += player.step().filter((e) => e.type === 'lock').length;
    const end = player.snapshot();
    expect([end.score, end.lines, end.tick, end.pieces, end.keys]).toEqual([verified.score, verified.lines, verified.ticks, verified.pieces, verified.keys]);
    expect(locks).toBe(verified.pieces);
    expect(player.hash()).toBe(verified.hash);
  });

  it('lands on exactly the engine state of any tick, in any seek order', () => {
    const player = new ReplayPlayer(replay, 64);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -10, max: verified.ticks + 10 }), { minLength: 1, maxLength: 6 }), (targets) => {
        for (const t of targets) {
          player.seek(t);
          const at = Math.max(0, Math.min(t, verified.ticks));
          expect(player.tick).toBe(at);
          expect(player.hash()).toBe(straightRun(replay, at).hash());
        }
      }),
      { numRuns: 40 },
    );
  });

  it('steps between piece boundaries', () => {
    const player = new ReplayPlayer(replay);
    const [first, second] = player.pieceTicks;
    player.seek(player.pieceBoundary(1));
    expect(player.tick).toBe(first);
    expect(player.snapshot().pieces).toBe(1);
    player.seek(player.pieceBoundary(1));
    expect(player.tick).toBe(second);
    player.seek(second! - 1);
    expect(player.pieceBoundary(-1)).toBe(first);
    player.seek(0);
    expect(player.pieceBoundary(-1)).toBe(0);
    player.seek(player.endTick);
    expect(player.pieceBoundary(1)).toBe(player.endTick);
  });
});
