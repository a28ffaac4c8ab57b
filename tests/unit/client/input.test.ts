import { describe, expect, it } from 'vitest';
import { HeldKeys, InputQueue } from '@/lib/client/input';

describe('InputQueue', () => {
  it('hands out edges by tick, in order, and keeps later ones', () => {
    const q = new InputQueue();
    q.push(3, 'left', true);
    q.push(3, 'left', false);
    q.push(5, 'hardDrop', true);
    expect(q.take(2)).toBeUndefined();
    expect(q.take(3)).toEqual([{ key: 'left', down: true }, { key: 'left', down: false }]);
    expect(q.take(4)).toBeUndefined();
    expect(q.take(5)).toEqual([{ key: 'hardDrop', down: true }]);
    expect(q.size).toBe(0);
  });

  it('never lets a stamp go backwards, so order of arrival is order of play', () => {
    const q = new InputQueue();
    q.push(8, 'right', true);
    q.push(6, 'right', false);
    expect(q.take(7)).toBeUndefined();
    expect(q.take(8)).toEqual([{ key: 'right', down: true }, { key: 'right', down: false }]);
  });
});

describe('HeldKeys', () => {
  it('holds an action until the last of its keys is released', () => {
    const h = new HeldKeys();
    expect(h.press('hold', 'KeyC')).toBe(true);
    expect(h.press('hold', 'ShiftLeft')).toBe(false);
    expect(h.release('hold', 'KeyC')).toBe(false);
    expect(h.release('hold', 'ShiftLeft')).toBe(true);
  });

  it('ignores a release it never saw pressed (pressed before the game started)', () => {
    expect(new HeldKeys().release('left', 'ArrowLeft')).toBe(false);
  });

  it('releases everything at once', () => {
    const h = new HeldKeys();
    h.press('left', 'ArrowLeft');
    h.press('softDrop', 'ArrowDown');
    expect(h.releaseAll().sort()).toEqual(['left', 'softDrop']);
    expect(h.releaseAll()).toEqual([]);
  });
});
