import { describe, expect, it } from 'vitest';
import type { Key, PiecePlacement } from '@/lib/engine';
import { game, ofType, tap } from '@/tests/engine/helpers';

/** Places the T, presses the keys one per tick pair, hard drops, returns the lock event. */
function spin(board: string[], active: PiecePlacement, keys: Key[]) {
  const g = game({ board, active });
  const rotations = keys.flatMap((k) => ofType(tap(g, k), 'rotate'));
  const [lock] = ofType(g.tick([{ key: 'hardDrop', down: true }]), 'lock');
  return { lock: lock!, rotations, g };
}

describe('T-spin detection (3-corner rule)', () => {
  it('TSD: both front corners and a back corner', () => {
    const { lock } = spin(['.....X....', 'XXX...XXXX', 'XXXX.XXXXX'], { type: 'T', rotation: 'R', x: 4, y: 1 }, ['rotateCW']);
    expect(lock).toMatchObject({ spin: 'full', linesCleared: 2, clearedRows: [0, 1], points: 1200 });
  });

  it('T-spin single and T-spin with no lines', () => {
    const single = spin(['.....X....', 'XX....XXXX', 'XXXX.XXXXX'], { type: 'T', rotation: 'R', x: 4, y: 1 }, ['rotateCW']);
    expect(single.lock).toMatchObject({ spin: 'full', linesCleared: 1, points: 800 });
    const zero = spin(['.....X....', 'XX....XXXX', 'X.XX.XXXXX'], { type: 'T', rotation: 'R', x: 4, y: 1 }, ['rotateCW']);
    expect(zero.lock).toMatchObject({ spin: 'full', linesCleared: 0, points: 400 });
  });

  it('TST through the fifth kick test', () => {
    const board = ['....X.....', '..........', 'XXXX.XXXXX', 'XXXX..XXXX', 'XXXX.XXXXX'];
    const { lock, rotations } = spin(board, { type: 'T', rotation: '0', x: 5, y: 3 }, ['rotateCW']);
    expect(rotations[0]).toMatchObject({ from: '0', to: 'R', kick: 4, x: 4, y: 1 });
    expect(lock).toMatchObject({ spin: 'full', linesCleared: 3, points: 1600 });
  });

  it('mini: one front corner and both back corners', () => {
    const single = spin(['XXXX..XXXX', 'XXX...XXXX', 'XXXX.XXXXX'], { type: 'T', rotation: '0', x: 4, y: 1 }, ['rotateCW']);
    expect(single.rotations[0]).toMatchObject({ kick: 0 });
    expect(single.lock).toMatchObject({ spin: 'mini', linesCleared: 1, points: 200 });
    const zero = spin(['XXXX..XXXX', 'XXX...XXXX', '.XXX.XXXXX'], { type: 'T', rotation: '0', x: 4, y: 1 }, ['rotateCW']);
    expect(zero.lock).toMatchObject({ spin: 'mini', linesCleared: 0, points: 100 });
  });

  it('the fifth kick upgrades a mini to a full T-spin', () => {
    const board = ['....XX....', '..........', 'XXXX..XXXX', 'XXXX..XXXX', 'XXXX.XXXXX'];
    const { lock, rotations } = spin(board, { type: 'T', rotation: '2', x: 5, y: 3 }, ['rotateCCW']);
    expect(rotations[0]).toMatchObject({ from: '2', to: 'R', kick: 4, x: 4, y: 1 });
    expect(lock).toMatchObject({ spin: 'full', linesCleared: 2, points: 1200 });
  });

  it('needs a rotation as the last successful action', () => {
    const g = game({ board: ['.....X....', 'XXX...XXXX', 'XXXX.XXXXX'], active: { type: 'T', rotation: '2', x: 4, y: 1 } });
    const [lock] = ofType(g.tick([{ key: 'hardDrop', down: true }]), 'lock');
    expect(lock).toMatchObject({ spin: 'none', linesCleared: 2, points: 300 });
  });

  it('a shift after the rotation cancels the spin', () => {
    const g = game({ board: ['..........', 'XX.....XXX', 'XXXX.XXXXX'], active: { type: 'T', rotation: 'R', x: 4, y: 1 } });
    tap(g, 'rotateCW');
    tap(g, 'left');
    tap(g, 'right');
    const [lock] = ofType(g.tick([{ key: 'hardDrop', down: true }]), 'lock');
    expect(lock).toMatchObject({ spin: 'none' });
  });

  it('only T pieces spin', () => {
    // Rotated into a cup whose four corners around the J's centre are all filled.
    const g = game({ board: ['X...X.....', 'XX.XX.....', 'XXXXX.....'], active: { type: 'J', rotation: '0', x: 2, y: 3 } });
    tap(g, 'rotateCW');
    tap(g, 'rotateCCW');
    const [lock] = ofType(g.tick([{ key: 'hardDrop', down: true }]), 'lock');
    expect(lock?.spin).toBe('none');
  });
});
