import { describe, expect, it } from 'vitest';
import { TICK_MS } from '@/lib/client/clock';
import { GameRunner } from '@/lib/client/runner';
import { createDealtGame, createGame, DEFAULT_HANDLING, pieceSequence, RULES_VERSION, type PieceType } from '@/lib/engine';

const SEED = 'dealt-runner';
const handling = { ...DEFAULT_HANDLING };

/** The first `n` pieces of the seed, as the server would deal them. */
function pieces(n: number): PieceType[] {
  const next = pieceSequence(SEED, RULES_VERSION);
  return Array.from({ length: n }, next);
}

describe('GameRunner on a dealt game', () => {
  it('stands still while pieces are missing and continues from the same tick when they arrive', () => {
    const all = pieces(40);
    // Current piece + 5 previews + 1 spare, as a live game starts.
    const game = createDealtGame({ mode: 'marathon', handling, nextCount: 5 }, all.slice(0, 7));
    const r = new GameRunner({ game });
    r.start(0);
    let now = 0;
    // Hard drops every few ticks: the third piece taken needs an eighth dealt to keep the preview full.
    for (let i = 0; i < 3; i++) {
      now += 3 * TICK_MS;
      r.key('hardDrop', 'Space', true, now);
      r.key('hardDrop', 'Space', false, now + 1);
      now += 3 * TICK_MS;
      r.frame(now);
    }
    expect(r.waiting).toBe(true);
    const stuck = r.tick;
    expect(game.snapshot().tick).toBe(stuck);
    // Two seconds of network trouble: the clock does not run, keys made meanwhile wait.
    r.key('left', 'ArrowLeft', true, now + 500);
    r.key('left', 'ArrowLeft', false, now + 520);
    now += 2000;
    r.frame(now);
    expect(r.tick).toBe(stuck);

    game.deal(7, all.slice(7, 10));
    r.frame(now);
    expect(r.waiting).toBe(false);
    // One frame later: only the ticks of that frame ran, not the two seconds of waiting.
    now += 2 * TICK_MS;
    r.frame(now);
    expect(r.tick - stuck).toBeLessThanOrEqual(3);
    // The key made while waiting applied on the first tick after, and the game is the seeded one.
    const replay = game.replay();
    expect(replay.events.at(-2)).toEqual({ tick: stuck, key: 'left', down: true });
    game.reveal(SEED);
    const seeded = createGame({ mode: 'marathon', seed: SEED, handling, nextCount: 5 });
    for (let t = 0; t < r.tick; t++) seeded.tick(replay.events.filter((e) => e.tick === t));
    expect(seeded.hash()).toBe(game.hash());
  });
});
