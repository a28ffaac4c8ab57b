import { describe, expect, it } from 'vitest';
import { GameConfigError } from '@/lib/engine';
import { down, game, ofType, tap } from '@/tests/engine/helpers';

const EMPTY = '..........';

describe('starting from a position', () => {
  it('fills hidden rows from a board taller than the visible field', () => {
    // 23 rows (fumen's height): the top three land in rows 22, 21, 20.
    const board = ['X.........', EMPTY, EMPTY, ...Array.from({ length: 19 }, () => EMPTY), 'IIII......'];
    const g = game({ board, queue: ['T'] });
    const snap = g.snapshot();
    expect(snap.board.at(-1)).toBe('IIII......');
    // Row 22 is hidden: not in the snapshot's 20 rows, but it is there: a piece locking into it
    // is the same game either way, so compare hashes with and without it.
    expect(g.hash()).not.toBe(game({ board: board.slice(1), queue: ['T'] }).hash());
  });

  it('refuses a board taller than the whole field', () => {
    expect(() => game({ board: Array.from({ length: 41 }, () => EMPTY) })).toThrow(GameConfigError);
  });

  it('starts with a piece in hold, swapped in by the first hold', () => {
    const g = game({ queue: ['T', 'O'], hold: 'I' });
    expect(g.snapshot().hold).toBe('I');
    expect(g.snapshot().holdUsed).toBe(false);
    const events = tap(g, 'hold');
    expect(ofType(events, 'hold')).toEqual([{ type: 'hold', piece: 'T', swappedFor: 'I' }]);
    expect(g.snapshot().active?.type).toBe('I');
    expect(g.snapshot().next[0]).toBe('O');
  });

  it('refuses an unknown hold piece', () => {
    expect(() => game({ hold: 'Q' as never })).toThrow('hold holds an unknown piece');
  });

  it('leaves a game without hold or tall board exactly as before (same hash as the defaults)', () => {
    const a = game({ queue: ['T'] });
    a.tick([down('left')]);
    const b = game({ queue: ['T'], board: [EMPTY] });
    b.tick([down('left')]);
    expect(a.hash()).toBe(b.hash());
  });
});
