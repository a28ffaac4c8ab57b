import { describe, expect, it } from 'vitest';
import { Sandbox } from '@/lib/client/sandbox';
import { gameFromPosition } from '@/lib/client/sandbox-start';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { emptyBoard } from '@/lib/fumen';

const start = () =>
  new Sandbox(gameFromPosition({ board: emptyBoard(), active: null, hold: null, queue: ['I', 'O', 'T'] }, { ...DEFAULT_HANDLING }, 'unit'));
const press = (s: Sandbox, key: 'hardDrop' | 'left' | 'right' | 'hold') => {
  s.tick([{ key, down: true }]);
  s.tick([{ key, down: false }]);
};

describe('Sandbox', () => {
  it('undoes one piece at a time, back to the board and queue that piece started with', () => {
    const s = start();
    const before = s.snapshot();
    press(s, 'hardDrop');
    const afterOne = s.snapshot();
    press(s, 'left');
    press(s, 'hardDrop');
    expect(s.placed.map((p) => p.type)).toEqual(['I', 'O']);
    expect(s.undo()).toBe(true);
    expect(s.snapshot().board).toEqual(afterOne.board);
    expect(s.snapshot().active).toEqual(afterOne.active);
    expect(s.snapshot().next).toEqual(afterOne.next);
    expect(s.undo()).toBe(true);
    expect(s.snapshot().board).toEqual(before.board);
    expect(s.snapshot().active?.type).toBe('I');
    expect(s.undo()).toBe(false);
  });

  it('resets to the start after any play', () => {
    const s = start();
    const hash = s.hash();
    press(s, 'hold');
    press(s, 'hardDrop');
    press(s, 'hardDrop');
    s.reset();
    expect(s.hash()).toBe(hash);
    expect(s.placed).toEqual([]);
  });

  it('lets go of keys the game held when the player takes over', () => {
    const s = start();
    s.tick([{ key: 'left', down: true }]);
    expect(s.snapshot().held).toEqual(['left']);
    s.takeOver();
    s.tick();
    expect(s.snapshot().held).toEqual([]);
  });
});
