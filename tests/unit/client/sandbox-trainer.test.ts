import { describe, expect, it } from 'vitest';
import { Sandbox } from '@/lib/client/sandbox';
import { gameFromPosition } from '@/lib/client/sandbox-start';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { emptyBoard } from '@/lib/fumen';
import { explainFault } from '@/lib/ui/finesse';

const start = () => new Sandbox(gameFromPosition({ board: emptyBoard(), active: null, hold: null, queue: ['T', 'O', 'I'] }, { ...DEFAULT_HANDLING }, 'unit'));
const press = (s: Sandbox, key: 'hardDrop' | 'left' | 'right' | 'rotateCW') => {
  s.tick([{ key, down: true }]);
  s.tick([{ key, down: false }]);
};
/** The T to the left wall in three taps, where holding left is one press: two faults. */
const tapToWall = (s: Sandbox) => {
  for (let i = 0; i < 3; i++) press(s, 'left');
  press(s, 'hardDrop');
};

describe('the finesse trainer', () => {
  it('takes a faulty piece back to where it appeared and says why', () => {
    const s = start();
    s.trainer = true;
    const before = s.snapshot();
    tapToWall(s);
    expect(s.placed).toEqual([]);
    expect(s.snapshot().board).toEqual(before.board);
    expect(s.snapshot().active).toEqual(before.active);
    expect(s.snapshot().next).toEqual(before.next);
    expect(s.fault).toMatchObject({ piece: 'T', inputs: 3, needed: 1, faults: 2 });
    expect(explainFault(s.fault!)).toBe('3 inputs, 1 needed: hold left');
    expect(s.faults).toBe(0);
  });

  it('lets a clean piece through and clears the last fault', () => {
    const s = start();
    s.trainer = true;
    tapToWall(s);
    press(s, 'left');
    press(s, 'hardDrop');
    expect(s.placed.map((p) => p.type)).toEqual(['T']);
    expect(s.fault).toBeNull();
    expect(s.snapshot().active?.type).toBe('O');
  });

  it('off, only counts: the faulty piece stays', () => {
    const s = start();
    tapToWall(s);
    expect(s.placed.map((p) => p.type)).toEqual(['T']);
    expect([s.faults, s.fault]).toEqual([2, null]);
    expect(s.undo()).toBe(true);
    expect(s.faults).toBe(0);
  });
});
