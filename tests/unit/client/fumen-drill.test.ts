import { describe, expect, it } from 'vitest';
import { drillQueue, drillQueueText, fumenDrill, pageLabel, pageStep } from '@/lib/client/fumen-drill';
import { emptyBoard, FumenError, fumenPages } from '@/lib/fumen';
import { COMMUNITY_FUMENS } from '@/tests/unit/fumen/setups';

const TSD = COMMUNITY_FUMENS['TSD opener (tetris-fumen README)']!;
const IKCCO = COMMUNITY_FUMENS['IKcco first bag (fancy-t-spin)']!;
/** Made with fumen's quiz: `#Q=[](T)IOS` on page 1, then T, I and O placed; tetris-fumen moves the quiz on a piece a page. */
const QUIZ = 'v115@vhCVQYXAFLDmClcJSAVDEHBEooRBUoAVBJ3zBARrBT?pB';

/** ASCII rows (top to bottom) at the bottom of a fumen-sized board. */
const board = (rows: readonly string[]) => [...emptyBoard().slice(rows.length), ...rows];

describe('fumenDrill', () => {
  it("opens a page on that page's field, its piece first in the queue and the later pages' pieces after it", () => {
    const drill = fumenDrill(fumenPages(TSD), 2);
    expect(pageLabel(drill)).toBe('Page 3 of 7');
    expect(drill.position).toEqual({
      board: board(['...ZZ.....', '....ZZ....', '...IIII...']),
      // No placement: the piece enters at the top and the player places it.
      active: null,
      hold: null,
      queue: ['L', 'S', 'O', 'J', 'T'],
    });
    expect(drill.queueFrom).toBe('pages');
  });

  it('starts a page without a piece with the next page that has one', () => {
    const pco = fumenPages(COMMUNITY_FUMENS['PCO (tetris-fumen README)']!);
    expect(fumenDrill(pco, 0).position.queue).toEqual(['T', 'Z', 'S']);
    expect(fumenDrill(pco, 5).position.queue).toEqual([]);
  });

  it('counts a piece shown unlocked on one page and placed on the next once', () => {
    // IKcco page 2 shows the T turned right without locking it; page 3 places it.
    expect(fumenDrill(fumenPages(IKCCO), 0).position.queue).toEqual(['T']);
    expect(fumenDrill(fumenPages(IKCCO), 1).position.queue).toEqual(['T']);
    expect(fumenDrill(fumenPages(IKCCO), 2).position.queue).toEqual(['T']);
  });

  it("takes hold and queue from a quiz comment, as fumen moves it on page by page", () => {
    const pages = fumenPages(QUIZ);
    expect(fumenDrill(pages, 0)).toMatchObject({ queueFrom: 'quiz', position: { hold: null, queue: ['T', 'I', 'O', 'S'] } });
    const second = fumenDrill(pages, 1);
    expect(second).toMatchObject({ queueFrom: 'quiz', position: { hold: null, queue: ['I', 'O', 'S'] } });
    expect(second.position.board.at(-1)).toBe('...TTT....');
  });

  it('refuses a page past either end with the page count', () => {
    expect(() => fumenDrill(fumenPages(TSD), 7)).toThrow(new FumenError('This fumen has 7 pages, so there is no page 8.'));
    expect(() => fumenDrill(fumenPages(TSD), -1)).toThrow('there is no page 0');
  });
});

describe('stepping pages', () => {
  it('goes one page either way and stops at the ends', () => {
    const pages = fumenPages(TSD);
    expect(pageStep(fumenDrill(pages, 0), -1)).toBeNull();
    expect(pageStep(fumenDrill(pages, 0), 1)).toBe(1);
    expect(pageStep(fumenDrill(pages, 3), -1)).toBe(2);
    expect(pageStep(fumenDrill(pages, 6), 1)).toBeNull();
  });
});

describe("the queue's note", () => {
  // `taken` counts the pieces dealt so far, the one in play included (Game.taken).
  const drill = fumenDrill(fumenPages(TSD), 4); // O, then J and T
  it.each([
    [1, { kind: 'fumen', left: 2 }, 'Next: 2 more pieces from the fumen, then random 7-bag pieces.'],
    [2, { kind: 'fumen', left: 1 }, 'Next: 1 more piece from the fumen, then random 7-bag pieces.'],
    [3, { kind: 'last' }, "This is the fumen's last piece: the next are random 7-bag pieces."],
    [4, { kind: 'bag' }, "The fumen's pieces are used up: these are random 7-bag pieces."],
  ] as const)('after %i pieces dealt', (taken, queue, text) => {
    expect(drillQueue(drill, taken)).toEqual(queue);
    expect(drillQueueText(drillQueue(drill, taken))).toBe(text);
  });

  it('says when a page has no pieces at all', () => {
    const last = fumenDrill(fumenPages(COMMUNITY_FUMENS['PCO (tetris-fumen README)']!), 5);
    expect(drillQueue(last, 1)).toEqual({ kind: 'bag' });
  });
});
