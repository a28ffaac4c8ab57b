import { describe, expect, it } from 'vitest';
import { createGame, DEFAULT_HANDLING, isRankable, metricOf, simulateReplay, type Game, type Key, type Mode, type PiecePlacement } from '@/lib/engine';
import { createCore } from '@/lib/engine/setup';
import { HANDLING, ofType, tap } from '@/tests/engine/helpers';

// The drill modes (modes.ts DrillRules) on ASCII boards: 20 TSD, Perfect Clears, Zen.

/** A TSD slot: the T in R above it, one clockwise turn spins it in (tests/engine/tspin.test.ts). */
const TSD_BOARD = ['.....X....', 'XXX...XXXX', 'XXXX.XXXXX'];
const TSD_T: PiecePlacement = { type: 'T', rotation: 'R', x: 4, y: 1 };

function drill(mode: Mode, board: string[], active: PiecePlacement | undefined, clears = 0): Game {
  const g = createGame({ mode, seed: 'drill', handling: HANDLING, board, ...(active ? { active } : {}) });
  // Preset the count (internal state, tests only): the same lock, as the nth counted clear.
  (g as unknown as { core: { clears: number } }).core.clears = clears;
  return g;
}

function play(g: Game, keys: Key[]) {
  const events = keys.flatMap((k) => tap(g, k));
  return [...events, ...g.tick([{ key: 'hardDrop', down: true }])];
}

describe('20 TSD', () => {
  it('counts a T-spin double and goes on', () => {
    const g = drill('tsd20', TSD_BOARD, TSD_T, 5);
    const events = play(g, ['rotateCW']);
    expect(ofType(events, 'lock')[0]).toMatchObject({ spin: 'full', linesCleared: 2 });
    expect(g.snapshot()).toMatchObject({ clears: 6, over: false });
    expect(ofType(events, 'spawn').length).toBeGreaterThan(0);
  });

  it('finishes on the 20th T-spin double', () => {
    const g = drill('tsd20', TSD_BOARD, TSD_T, 19);
    const events = play(g, ['rotateCW']);
    expect(ofType(events, 'finished')).toEqual([{ type: 'finished', reason: 'goal' }]);
    expect(g.snapshot()).toMatchObject({ clears: 20, over: true, finished: true, reason: 'goal' });
    expect(isRankable('tsd20', g.snapshot())).toBe(true);
  });

  it('ends at a double that is not a T-spin: no spin, so no time to rank', () => {
    const g = drill('tsd20', TSD_BOARD, { type: 'T', rotation: '2', x: 4, y: 1 }, 7);
    const events = play(g, []);
    expect(ofType(events, 'lock')[0]).toMatchObject({ spin: 'none', linesCleared: 2 });
    expect(ofType(events, 'gameOver')).toEqual([{ type: 'gameOver', reason: 'wrongClear' }]);
    expect(g.snapshot()).toMatchObject({ clears: 7, over: true, finished: false, toppedOut: true, reason: 'wrongClear' });
    expect(isRankable('tsd20', g.snapshot())).toBe(false);
  });

  it('ends at a T-spin single and at a mini: a mini double is not a T-spin double either', () => {
    const single = drill('tsd20', ['.....X....', 'XX....XXXX', 'XXXX.XXXXX'], TSD_T);
    expect(ofType(play(single, ['rotateCW']), 'lock')[0]).toMatchObject({ spin: 'full', linesCleared: 1 });
    expect(single.snapshot()).toMatchObject({ over: true, reason: 'wrongClear', clears: 0 });
    const mini = drill('tsd20', ['XXXX..XXXX', 'XXX...XXXX', 'XXXX.XXXXX'], { type: 'T', rotation: '0', x: 4, y: 1 });
    expect(ofType(play(mini, ['rotateCW']), 'lock')[0]).toMatchObject({ spin: 'mini', linesCleared: 1 });
    expect(mini.snapshot()).toMatchObject({ over: true, reason: 'wrongClear' });
  });

  it('lets a lock that clears nothing pass, a T-spin with no lines included', () => {
    const g = drill('tsd20', ['.....X....', 'XX....XXXX', 'X.XX.XXXXX'], TSD_T);
    expect(ofType(play(g, ['rotateCW']), 'lock')[0]).toMatchObject({ spin: 'full', linesCleared: 0 });
    expect(g.over).toBe(false);
  });

  it('the same double ends nothing in Marathon, and counts nothing there', () => {
    const g = drill('marathon', TSD_BOARD, TSD_T);
    play(g, ['rotateCW']);
    expect(g.snapshot()).toMatchObject({ clears: 0, over: false });
  });
});

describe('Perfect Clears', () => {
  it('counts each perfect clear and goes on', () => {
    const g = drill('pc', ['XXXXXXXX..', 'XXXXXXXX..'], undefined, 2);
    // The first piece of seed 'drill' under the current rules is what spawned; put an O there instead.
    const o = drill('pc', ['XXXXXXXX..', 'XXXXXXXX..'], { type: 'O', rotation: '0', x: 4, y: 4 }, 2);
    const events = play(o, ['right', 'right', 'right', 'right']);
    expect(ofType(events, 'lock')[0]).toMatchObject({ linesCleared: 2, perfectClear: true });
    expect(o.snapshot()).toMatchObject({ clears: 3, over: false });
    expect(o.snapshot().board.every((row) => row === '..........')).toBe(true);
    expect(g.snapshot().clears).toBe(2);
  });

  it('a clear that leaves cells behind is allowed: a perfect clear may take several', () => {
    const g = drill('pc', ['XXXXXXXX..', 'XXXXXXX...'], { type: 'O', rotation: '0', x: 4, y: 4 });
    const events = play(g, ['right', 'right', 'right', 'right']);
    expect(ofType(events, 'lock')[0]).toMatchObject({ linesCleared: 1, perfectClear: false });
    expect(g.snapshot()).toMatchObject({ clears: 0, over: false });
  });

  it('ends when a lock leaves a cell above the fourth row', () => {
    const board = ['X.........', 'X.........', 'X.........', 'X.........'];
    const low = drill('pc', board, { type: 'O', rotation: '0', x: 4, y: 4 });
    play(low, []);
    expect(low.over).toBe(false);
    const high = drill('pc', board, { type: 'O', rotation: '0', x: 4, y: 6 }, 4);
    const events = play(high, ['left', 'left', 'left', 'left']);
    expect(ofType(events, 'gameOver')).toEqual([{ type: 'gameOver', reason: 'tooHigh' }]);
    expect(high.snapshot()).toMatchObject({ over: true, finished: false, reason: 'tooHigh', clears: 4 });
    // It ranks by its count whatever ended it.
    expect(isRankable('pc', high.snapshot())).toBe(true);
  });

  it('ranks more clears first, then fewer ticks, as one integer', () => {
    const m = (clears: number, ticks: number) => metricOf('pc', { clears, ticks, score: 0 });
    expect(m(3, 100_000)).toBeLessThan(m(2, 10));
    expect(m(3, 100)).toBeLessThan(m(3, 101));
    expect(m(0, 0)).toBeLessThan(m(0, 1));
    expect(m(8191, 0)).toBeGreaterThanOrEqual(-(2 ** 31));
    // A count past the cap ranks as the cap (a bot at the input limit), never past the 32-bit column.
    expect(m(1_000_000, 0)).toBe(m(8191, 0));
  });
});

describe('Zen', () => {
  it('the bottom rows vanish when a lock leaves the stack taller than 16 rows', () => {
    const board = Array<string>(16).fill('XXXXXXXXX.');
    board[0] = 'XXXXXXXX..';
    const g = drill('zen', board, { type: 'O', rotation: '0', x: 4, y: 18 });
    const events = play(g, []);
    expect(ofType(events, 'lock')[0]).toMatchObject({ y: 16, linesCleared: 0 });
    // 18 rows tall before: 10 vanish, the O and the 6 rows under it are what is left.
    const rows = g.snapshot().board;
    expect(rows.slice(0, 12).every((r) => r === '..........')).toBe(true);
    expect(rows.slice(12)).toEqual(['....OO....', '....OO....', 'XXXXXXXX..', ...Array<string>(5).fill('XXXXXXXXX.')]);
    expect(g.over).toBe(false);
  });

  it('never ends: hard drops in one column would top out any other mode', () => {
    const zen = createGame({ mode: 'zen', seed: 'zen', handling: DEFAULT_HANDLING });
    const marathon = createGame({ mode: 'marathon', seed: 'zen', handling: DEFAULT_HANDLING });
    for (let i = 0; i < 600 && !zen.over; i++) {
      zen.tick([{ key: 'hardDrop', down: true }]);
      zen.tick([{ key: 'hardDrop', down: false }]);
      marathon.tick([{ key: 'hardDrop', down: true }]);
      marathon.tick([{ key: 'hardDrop', down: false }]);
    }
    expect(marathon.snapshot()).toMatchObject({ over: true, toppedOut: true });
    expect(zen.snapshot()).toMatchObject({ over: false, pieces: 600 });
    const replay = simulateReplay(zen.replay(), { maxTicks: zen.tickNo });
    expect(replay).toMatchObject({ ended: false, pieces: 600, clears: 0, hash: zen.hash() });
  });

  it('counts nothing and hashes its count only in drills: a classic mode hashes as before', () => {
    const { core } = createCore({ mode: 'marathon', seed: 't', handling: HANDLING }, false);
    expect(core.drill.counts).toBeNull();
    expect(simulateReplay({ ...createGame({ mode: 'sprint', seed: 's', handling: HANDLING }).replay() }, { maxTicks: 10 })).not.toHaveProperty('clears');
  });
});
