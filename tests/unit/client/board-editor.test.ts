import { describe, expect, it } from 'vitest';
import { editablePosition, paintCell, parseQueue } from '@/lib/client/board-editor';
import { gameFromPosition } from '@/lib/client/sandbox-start';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { emptyBoard } from '@/lib/fumen';

describe('board editor', () => {
  it('paints and erases single cells, counting rows from the bottom', () => {
    let board = paintCell(emptyBoard(), 0, 0, 'X');
    board = paintCell(board, 9, 1, 'T');
    expect(board.slice(-2)).toEqual(['.........T', 'X.........']);
    expect(paintCell(board, 0, 0, '.').at(-1)).toBe('..........');
    expect(paintCell(board, 10, 0, 'X')).toEqual(board);
  });

  it('reads a typed queue and says what is wrong with a bad one', () => {
    expect(parseQueue('tio sz')).toEqual({ queue: ['T', 'I', 'O', 'S', 'Z'] });
    expect(parseQueue('TQ')).toEqual({ error: "'Q' is not a piece: use I, O, T, S, Z, J and L." });
    expect(parseQueue('I'.repeat(21))).toHaveProperty('error');
  });

  it('starts from a snapshot with the piece in play at the front of the queue, and plays as edited', () => {
    const game = gameFromPosition({ board: paintCell(emptyBoard(), 3, 0, 'X'), active: null, hold: 'O', queue: ['T', 'L'] }, { ...DEFAULT_HANDLING }, 'edit');
    const position = editablePosition(game.snapshot());
    expect(position.queue.slice(0, 2)).toEqual(['T', 'L']);
    expect(position.hold).toBe('O');
    expect(position.board.at(-1)).toBe('...X......');
    const again = gameFromPosition(position, { ...DEFAULT_HANDLING }, 'edit').snapshot();
    expect(again.board).toEqual(game.snapshot().board);
    expect(again.active?.type).toBe('T');
  });
});
