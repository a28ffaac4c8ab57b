import { describe, expect, it } from 'vitest';
import { LINE_CLEAR_POINTS, PERFECT_CLEAR_POINTS } from '@/lib/engine';
import { scoreLock, SPIN_FULL, SPIN_MINI, SPIN_NONE } from '@/lib/engine/scoring';
import type { Game, PieceType } from '@/lib/engine';
import { game, idle, ofType, tap } from '@/tests/engine/helpers';

describe('scoring table (× level before the clear)', () => {
  it.each([
    ['single', SPIN_NONE, 1, 100], ['double', SPIN_NONE, 2, 300], ['triple', SPIN_NONE, 3, 500], ['tetris', SPIN_NONE, 4, 800],
    ['mini no lines', SPIN_MINI, 0, 100], ['mini single', SPIN_MINI, 1, 200], ['mini double', SPIN_MINI, 2, 400],
    ['T-spin no lines', SPIN_FULL, 0, 400], ['T-spin single', SPIN_FULL, 1, 800], ['T-spin double', SPIN_FULL, 2, 1200],
    ['T-spin triple', SPIN_FULL, 3, 1600], ['nothing', SPIN_NONE, 0, 0],
  ])('%s', (_name, spin, lines, base) => {
    for (const level of [1, 2, 7, 15]) expect(scoreLock(spin, lines, level, false, 0, false)).toBe(base * level);
  });

  it('back-to-back ×1.5 on tetrises and line-clearing T-spins only', () => {
    expect(scoreLock(SPIN_NONE, 4, 3, true, 0, false)).toBe(1200 * 3);
    expect(scoreLock(SPIN_FULL, 2, 1, true, 0, false)).toBe(1800);
    expect(scoreLock(SPIN_MINI, 1, 1, true, 0, false)).toBe(300);
    expect(scoreLock(SPIN_NONE, 3, 1, true, 0, false)).toBe(500);
    expect(scoreLock(SPIN_FULL, 0, 1, true, 0, false)).toBe(400);
  });

  it('combo adds 50 × combo × level', () => {
    expect(scoreLock(SPIN_NONE, 1, 2, false, 3, false)).toBe(200 + 50 * 3 * 2);
    expect(scoreLock(SPIN_NONE, 0, 2, false, 3, false)).toBe(0);
  });

  it('perfect clears add their bonus on top of the clear', () => {
    PERFECT_CLEAR_POINTS.forEach((bonus, lines) => {
      if (lines === 0) return;
      expect(scoreLock(SPIN_NONE, lines, 2, false, 0, true)).toBe((LINE_CLEAR_POINTS[0][lines]! + bonus) * 2);
    });
    expect(scoreLock(SPIN_NONE, 4, 1, true, 0, true)).toBe(1200 + 3200);
  });
});

/** Rotates the spawned I upright and walks it to column 9, then hard drops. */
function iToRightWell(g: Game) {
  tap(g, 'rotateCW');
  for (let i = 0; i < 4; i++) tap(g, 'right');
  return ofType(g.tick([{ key: 'hardDrop', down: true }, { key: 'hardDrop', down: false }]), 'lock')[0]!;
}

const well = (n: number): string[] => [...Array<string>(n).fill('XXXXXXXXX.'), 'X.XXXXXXXX'];
const queue = (...p: PieceType[]) => p;

describe('line clears through the engine', () => {
  it.each([[1, 100], [2, 300], [3, 500], [4, 800]])('%i lines score %i', (n, points) => {
    const g = game({ board: well(n), queue: queue('I') });
    expect(iToRightWell(g)).toMatchObject({ linesCleared: n, points, perfectClear: false, b2b: false });
    expect(g.snapshot().lines).toBe(n);
  });

  it('back-to-back tetrises, then a triple breaks the chain', () => {
    const g = game({ board: [...Array<string>(11).fill('XXXXXXXXX.'), 'X.XXXXXXXX'], queue: queue('I', 'I', 'I') });
    expect(iToRightWell(g)).toMatchObject({ points: 800, b2b: false, combo: 0 });
    expect(g.snapshot().b2b).toBe(true);
    expect(iToRightWell(g)).toMatchObject({ points: 1200 + 50, b2b: true, combo: 1 });
    expect(iToRightWell(g)).toMatchObject({ linesCleared: 3, points: 500 + 100, b2b: false, combo: 2 });
    expect(g.snapshot()).toMatchObject({ b2b: false, combo: 2, lines: 11 });
  });

  it('a lock without lines ends the combo', () => {
    const g = game({ board: well(4), queue: queue('I', 'O') });
    iToRightWell(g);
    expect(g.snapshot().combo).toBe(0);
    g.tick([{ key: 'hardDrop', down: true }]);
    expect(g.snapshot().combo).toBe(-1);
  });

  it('perfect clear tetris and single', () => {
    const pc = game({ board: Array<string>(4).fill('XXXXXXXXX.'), queue: queue('I') });
    expect(iToRightWell(pc)).toMatchObject({ linesCleared: 4, perfectClear: true, points: 800 + 2000 });
    const single = game({ board: ['XXXXXX....'], queue: queue('I') });
    for (let i = 0; i < 3; i++) tap(single, 'right');
    const [lock] = ofType(single.tick([{ key: 'hardDrop', down: true }]), 'lock');
    expect(lock).toMatchObject({ linesCleared: 1, perfectClear: true, points: 100 + 800 });
    expect(single.snapshot().board.every((r) => r === '..........')).toBe(true);
  });

  it('hard drop scores 2 per row, soft drop 1 per row', () => {
    const hard = game({ queue: queue('T') });
    const [drop] = ofType(hard.tick([{ key: 'hardDrop', down: true }]), 'hardDrop');
    expect(drop!.rows).toBe(19);
    expect(hard.snapshot().score).toBe(38);
    const soft = game({ queue: queue('T'), handling: { das: 10, arr: 2, sdf: 'instant', dasCut: false } });
    const [sd] = ofType(soft.tick([{ key: 'softDrop', down: true }]), 'softDrop');
    expect(sd!.rows).toBe(19);
    expect(soft.snapshot()).toMatchObject({ score: 19, pieces: 0 });
    idle(soft, 40);
    expect(soft.snapshot().pieces).toBe(1);
  });
});
