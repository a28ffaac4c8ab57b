import { decoder } from 'tetris-fumen';
import { describe, expect, it } from 'vitest';
import { CELL_CHARS, placedCells, PIECES, ROTATIONS } from '@/lib/engine';
import { emptyBoard, FumenError, fumenPageCount, fumenToPosition, FUMEN_ROWS, piecesToFumen, positionToFumen, type Position } from '@/lib/fumen';
import { COMMUNITY_FUMENS, SETUP_BOARDS } from '@/tests/unit/fumen/setups';

/** ASCII rows (top to bottom) placed at the bottom of a fumen-sized board. */
function board(rows: readonly string[]): string[] {
  return [...emptyBoard().slice(rows.length), ...rows];
}

const sortCells = (cells: Array<[number, number]>) => cells.map(([x, y]) => `${x},${y}`).sort();

describe('fumen ↔ position', () => {
  it('uses fumen letters for cells, X for garbage', () => {
    expect(CELL_CHARS).toBe('.IOTSZJLX');
  });

  it.each(PIECES.flatMap((type) => ROTATIONS.map((rotation) => [type, rotation] as const)))(
    'places %s in rotation %s on the cells fumen shows',
    (type, rotation) => {
      const active = { type, rotation, x: 4, y: 10 };
      const text = positionToFumen({ board: emptyBoard(), active, hold: null, queue: [] });
      const [page] = decoder.decode(text);
      const theirs = page!.mino().positions().map((p) => [p.x, p.y] as [number, number]);
      expect(sortCells(theirs)).toEqual(sortCells(placedCells(active)));
      expect(fumenToPosition(text).active).toEqual(active);
    },
  );

  it.each(Object.entries(SETUP_BOARDS))('round-trips the %s setup with its hold and queue', (_name, setup) => {
    const position: Position = { board: board(setup.rows), active: setup.active, hold: setup.hold, queue: setup.queue };
    const text = positionToFumen(position);
    expect(text).toMatch(/^v115@/);
    expect(fumenToPosition(text)).toEqual(position);
    // A second trip gives the same string: one encoding per position.
    expect(positionToFumen(fumenToPosition(text))).toBe(text);
  });

  it.each(Object.entries(COMMUNITY_FUMENS))('reads every page of %s as tetris-fumen does, and writes it back', (_name, text) => {
    const pages = decoder.decode(text);
    expect(fumenPageCount(text)).toBe(pages.length);
    pages.forEach((page, i) => {
      const position = fumenToPosition(text, i);
      expect(position.board).toHaveLength(FUMEN_ROWS);
      for (let y = 0; y < FUMEN_ROWS; y++) {
        for (let x = 0; x < 10; x++) {
          const theirs = page.field.at(x, y);
          expect(position.board[FUMEN_ROWS - 1 - y]![x]).toBe(theirs === '_' ? '.' : theirs);
        }
      }
      if (page.operation) expect(sortCells(placedCells(position.active!))).toEqual(sortCells(page.mino().positions().map((p) => [p.x, p.y])));
      else expect(position.active).toBeNull();
      expect(fumenToPosition(positionToFumen(position))).toEqual(position);
    });
  });

  it('reads hold and queue from a quiz comment, the unplaced current piece first', () => {
    const text = positionToFumen({ board: emptyBoard(), active: null, hold: 'T', queue: ['I', 'O', 'S'] });
    expect(decoder.decode(text)[0]!.comment).toBe('#Q=[T]()IOS');
    expect(fumenToPosition(text)).toEqual({ board: emptyBoard(), active: null, hold: 'T', queue: ['I', 'O', 'S'] });
  });

  it('writes played pieces as pages that fumen replays to the same board', () => {
    const start: Position = { board: emptyBoard(), active: null, hold: null, queue: [] };
    const placed = [
      { type: 'I', rotation: '0', x: 1, y: 0 },
      { type: 'O', rotation: '0', x: 4, y: 0 },
      { type: 'L', rotation: 'L', x: 7, y: 1 },
    ] as const;
    const pages = decoder.decode(piecesToFumen(start, placed));
    expect(pages).toHaveLength(3);
    const last = pages[2]!.field.copy();
    last.put(pages[2]!.operation!);
    // The L in state L at (7, 1) stands on column 7 with its foot to the left at the top.
    expect(last.str({ reduced: true, garbage: false })).toBe(['______LL__', '____OO_L__', 'IIIIOO_L__'].join('\n'));
  });

  it.each([
    ['', 'not a fumen'],
    ['hello', 'not a fumen'],
    ['v115@', 'no pages'],
    ['v115@vhGRQYHAvItJEJmhC', 'cut short'],
    ['v115@!!!!', 'cut short or mistyped'],
  ])('refuses %j with a clear message', (text, message) => {
    expect(() => fumenToPosition(text)).toThrow(FumenError);
    expect(() => fumenToPosition(text)).toThrow(message);
  });

  it('refuses a page past the end', () => {
    expect(() => fumenToPosition(COMMUNITY_FUMENS['PCO (tetris-fumen README)']!, 9)).toThrow('there is no page 10');
  });
});
