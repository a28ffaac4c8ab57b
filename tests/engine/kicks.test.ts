import { describe, expect, it } from 'vitest';
import { CELLS } from '@/lib/engine/pieces';
import { PIECES, ROTATIONS } from '@/lib/engine/constants';
import type { Key, PieceType, Rotation } from '@/lib/engine';
import { game, ofType } from '@/tests/engine/helpers';

// Independent copies of the GUIDELINE.md tables (tests 2–5 / 2–6), +y up. The engine derives its
// counter-clockwise and mirrored entries; these are written out so a derivation bug shows here.
const JLSTZ: Record<string, Array<[number, number]>> = {
  '0R': [[-1, 0], [-1, 1], [0, -2], [-1, -2]],
  R0: [[1, 0], [1, -1], [0, 2], [1, 2]],
  R2: [[1, 0], [1, -1], [0, 2], [1, 2]],
  '2R': [[-1, 0], [-1, 1], [0, -2], [-1, -2]],
  '2L': [[1, 0], [1, 1], [0, -2], [1, -2]],
  L2: [[-1, 0], [-1, -1], [0, 2], [-1, 2]],
  L0: [[-1, 0], [-1, -1], [0, 2], [-1, 2]],
  '0L': [[1, 0], [1, 1], [0, -2], [1, -2]],
  '02': [[0, 1], [1, 1], [-1, 1], [1, 0], [-1, 0]],
  RL: [[1, 0], [1, 2], [1, 1], [0, 2], [0, 1]],
  '20': [[0, -1], [-1, -1], [1, -1], [-1, 0], [1, 0]],
  LR: [[-1, 0], [-1, 2], [-1, 1], [0, 2], [0, 1]],
};
const I: Record<string, Array<[number, number]>> = {
  '0R': [[-2, 0], [1, 0], [-2, -1], [1, 2]],
  R0: [[2, 0], [-1, 0], [2, 1], [-1, -2]],
  R2: [[-1, 0], [2, 0], [-1, 2], [2, -1]],
  '2R': [[1, 0], [-2, 0], [1, -2], [-2, 1]],
  '2L': [[2, 0], [-1, 0], [2, 1], [-1, -2]],
  L2: [[-2, 0], [1, 0], [-2, -1], [1, 2]],
  L0: [[1, 0], [-2, 0], [1, -2], [-2, 1]],
  '0L': [[-1, 0], [2, 0], [-1, 2], [2, -1]],
  '02': [[0, 1]],
  RL: [[1, 0]],
  '20': [[0, -1]],
  LR: [[-1, 0]],
};

const cellsOf = (piece: PieceType, rot: Rotation, x: number, y: number): Array<[number, number]> => {
  const o = (PIECES.indexOf(piece) * 4 + ROTATIONS.indexOf(rot)) * 8;
  return [0, 2, 4, 6].map((i) => [x + CELLS[o + i]!, y + CELLS[o + i + 1]!]);
};

const turnKey = (from: Rotation, to: Rotation): Key => {
  const d = (ROTATIONS.indexOf(to) - ROTATIONS.indexOf(from) + 4) % 4;
  return d === 1 ? 'rotateCW' : d === 3 ? 'rotateCCW' : 'rotate180';
};

/** Garbage everywhere except the piece's start cells and the cells test n lands on. */
function boardFor(free: Array<[number, number]>): string[] {
  const grid = Array.from({ length: 20 }, () => Array<string>(10).fill('X'));
  for (const [x, y] of free) grid[19 - y]![x] = '.';
  return grid.map((r) => r.join(''));
}

const X0 = 4;
const Y0 = 9;
interface Case {
  title: string;
  pair: string;
  piece: PieceType;
  from: Rotation;
  to: Rotation;
  n: number;
  tests: Array<[number, number]>;
}
const cases: Case[] = [];
for (const [table, pieces] of [[JLSTZ, ['T', 'J', 'L', 'S', 'Z']], [I, ['I']]] as const) {
  for (const [pair, rest] of Object.entries(table)) {
    const from = pair[0] as Rotation;
    const to = pair[1] as Rotation;
    const tests: Array<[number, number]> = [[0, 0], ...rest];
    for (const piece of pieces)
      tests.forEach((_, n) => cases.push({ title: `${piece} ${from}→${to} test ${n + 1}`, pair, piece, from, to, n, tests }));
  }
}

/**
 * Only test n's cells and the start cells are free, so test n fits; an earlier test can still fit
 * when its cells are a subset of those (then no board at all can select test n for that piece, e.g.
 * S/Z 180° tests). The oracle below, written from the table, says which test must win.
 */
function firstFit(c: Case): number {
  const free = new Set([...cellsOf(c.piece, c.from, X0, Y0), ...cellsOf(c.piece, c.to, X0 + c.tests[c.n]![0], Y0 + c.tests[c.n]![1])].map(String));
  return c.tests.findIndex(([dx, dy]) => cellsOf(c.piece, c.to, X0 + dx, Y0 + dy).every((cell) => free.has(String(cell))));
}

describe('SRS kicks: every table entry on a board where only that test (or a subsumed earlier one) fits', () => {
  it.each(cases.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const [dx, dy] = c.tests[c.n]!;
    const start = cellsOf(c.piece, c.from, X0, Y0);
    const target = cellsOf(c.piece, c.to, X0 + dx, Y0 + dy);
    const g = game({ board: boardFor([...start, ...target]), active: { type: c.piece, rotation: c.from, x: X0, y: Y0 } });
    const events = g.tick([{ key: turnKey(c.from, c.to), down: true }]);
    const k = firstFit(c);
    const [ex, ey] = c.tests[k]!;
    const rot = ofType(events, 'rotate');
    expect(rot).toHaveLength(1);
    expect(rot[0]).toMatchObject({ from: c.from, to: c.to, kick: k, x: X0 + ex, y: Y0 + ey });
    expect(g.snapshot().active).toEqual({ type: c.piece, rotation: c.to, x: X0 + ex, y: Y0 + ey });
  });

  it('every table entry is the winning test for at least one piece', () => {
    const reached = new Set(cases.filter((c) => firstFit(c) === c.n).map((c) => `${c.pair}:${c.n}:${c.piece === 'I' ? 'I' : 'JLSTZ'}`));
    const all = new Set(cases.map((c) => `${c.pair}:${c.n}:${c.piece === 'I' ? 'I' : 'JLSTZ'}`));
    expect([...all].filter((k) => !reached.has(k))).toEqual([]);
  });

  it('fails cleanly when no test fits', () => {
    const start = cellsOf('T', '0', X0, Y0);
    const g = game({ board: boardFor(start), active: { type: 'T', rotation: '0', x: X0, y: Y0 } });
    expect(ofType(g.tick([{ key: 'rotateCW', down: true }]), 'rotate')).toHaveLength(0);
    expect(g.snapshot().active).toEqual({ type: 'T', rotation: '0', x: X0, y: Y0 });
  });

  it('O never kicks: it turns in place when boxed in', () => {
    const g = game({ board: boardFor(cellsOf('O', '0', X0, Y0)), active: { type: 'O', rotation: '0', x: X0, y: Y0 } });
    for (const key of ['rotateCW', 'rotate180', 'rotateCCW'] as const) {
      const [rot] = ofType(g.tick([{ key, down: true }, { key, down: false }]), 'rotate');
      expect(rot).toMatchObject({ kick: 0, x: X0, y: Y0 });
    }
  });
});
