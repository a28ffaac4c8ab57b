import { decoder, encoder, Field, type EncodePage } from 'tetris-fumen';
import { COLS, PIECES, type PiecePlacement, type PieceType } from '@/lib/engine';
import { FUMEN_ROTATIONS, offsetOf, rotationFromFumen } from '@/lib/fumen/pieces';

/** Fumen's field: 10 × 23 (rows 0–22, 20–22 are our lowest hidden rows), plus a garbage row we do not use. */
export const FUMEN_ROWS = 23;

/**
 * A board position in the engine's terms: what the sandbox starts from and what a fumen holds.
 * `board` is FUMEN_ROWS rows, top to bottom, in the engine's cell letters (`.` empty, `IOTSZJL`,
 * `X` garbage); row y of the engine is `board[FUMEN_ROWS - 1 - y]`.
 */
export interface Position {
  board: string[];
  /** The piece in play; null when the queue (or a fresh bag) supplies it. */
  active: PiecePlacement | null;
  hold: PieceType | null;
  /** Pieces after the active one. */
  queue: PieceType[];
}

export class FumenError extends Error {
  override readonly name = 'FumenError';
}

export const emptyBoard = (): string[] => Array.from({ length: FUMEN_ROWS }, () => '.'.repeat(COLS));

const isPiece = (c: string): c is PieceType => (PIECES as readonly string[]).includes(c);

/**
 * Hold and queue travel in a comment, as in fumen's own quiz pages: `#Q=[hold](current)next…`.
 * Anything after the queue letters (a `;` and the next part, the setup's own text) is ignored;
 * letters in either case, as tetris-fumen reads them.
 */
const QUIZ = /^#Q=\[([IOTSZJL]?)\]\(([IOTSZJL]?)\)([IOTSZJL]*)/i;

/** A quiz comment's pieces: what is in hold, the piece to play, and the pieces after it. */
export interface Quiz {
  hold: PieceType | null;
  current: PieceType | null;
  next: PieceType[];
}

/** One page of a fumen in the engine's terms. */
export interface FumenPage {
  /** The field before the page's piece is placed (FUMEN_ROWS rows, as in Position). */
  board: string[];
  /** The page's piece where fumen draws it; null on a page without one. */
  piece: PiecePlacement | null;
  /** Whether fumen locks the piece going to the next page (false: the next page shows the same piece on). */
  lock: boolean;
  /** The page's quiz as tetris-fumen carries it from page to page (one piece on per locked page); null without one. */
  quiz: Quiz | null;
}

function parseQuiz(comment: string): Quiz | null {
  const m = QUIZ.exec(comment);
  if (!m) return null;
  const piece = (c: string) => (c ? (c.toUpperCase() as PieceType) : null);
  return { hold: piece(m[1]!), current: piece(m[2]!), next: [...m[3]!.toUpperCase()] as PieceType[] };
}

function quizComment(p: Position): string {
  return `#Q=[${p.hold ?? ''}](${p.active?.type ?? ''})${p.queue.join('')}`;
}

function toField(board: readonly string[]): Field {
  const field = Field.create();
  board.forEach((row, i) => {
    const y = FUMEN_ROWS - 1 - i;
    for (let x = 0; x < COLS; x++) {
      const c = row[x]!;
      if (c !== '.') field.set(x, y, c);
    }
  });
  return field;
}

function fromField(field: Field): string[] {
  const rows: string[] = [];
  for (let y = FUMEN_ROWS - 1; y >= 0; y--) {
    let row = '';
    for (let x = 0; x < COLS; x++) {
      const c = field.at(x, y);
      row += c === '_' ? '.' : c;
    }
    rows.push(row);
  }
  return rows;
}

function toOperation(p: PiecePlacement) {
  const [dx, dy] = offsetOf(p.type, p.rotation);
  return { type: p.type, rotation: FUMEN_ROTATIONS[p.rotation], x: p.x + dx, y: p.y + dy };
}

function fromOperation(op: { type: string; rotation: string; x: number; y: number }): PiecePlacement {
  const rotation = rotationFromFumen(op.rotation);
  if (!isPiece(op.type) || !rotation) throw new FumenError(`the fumen's piece ${op.type} ${op.rotation} is not a tetromino`);
  const [dx, dy] = offsetOf(op.type, rotation);
  return { type: op.type, rotation, x: op.x - dx, y: op.y - dy };
}

/** A position as a one-page fumen (`v115@…`); the hold and queue go in a quiz comment when there are any. */
export function positionToFumen(p: Position): string {
  return encoder.encode([positionPage(p)]);
}

function positionPage(p: Position): EncodePage {
  const page: EncodePage = { field: toField(p.board), flags: { lock: false } };
  if (p.active) page.operation = toOperation(p.active);
  if (p.hold || p.queue.length > 0) page.comment = quizComment(p);
  return page;
}

/**
 * A start position and the pieces locked from it, one page each (fumen places each page's piece
 * and clears lines on its own), so a played sequence can be stepped through in any fumen viewer.
 */
export function piecesToFumen(start: Position, placed: readonly PiecePlacement[]): string {
  if (placed.length === 0) return positionToFumen(start);
  const pages: EncodePage[] = placed.map((piece) => ({ operation: toOperation(piece), flags: { lock: true } }));
  pages[0] = { ...pages[0], field: toField(start.board) };
  if (start.hold || start.queue.length > 0) pages[0].comment = quizComment({ ...start, active: start.active ?? placed[0]! });
  return encoder.encode(pages);
}

/** Pages in a fumen string (a bare `v115@…`/`v110@…` or a fumen URL); throws FumenError on anything else. */
export function fumenPageCount(text: string): number {
  return decode(text).length;
}

function decode(text: string) {
  const trimmed = text.trim();
  if (!/v11[05]@/.test(trimmed)) throw new FumenError('This is not a fumen: it should contain v115@ followed by the data.');
  try {
    const pages = decoder.decode(trimmed);
    if (pages.length === 0) throw new FumenError('The fumen has no pages.');
    return pages;
  } catch (error) {
    if (error instanceof FumenError) throw error;
    throw new FumenError('The fumen could not be read: it is cut short or mistyped.');
  }
}

/** Every page of a fumen string; throws FumenError on anything that is not one. */
export function fumenPages(text: string): FumenPage[] {
  return decode(text).map((p) => ({
    board: fromField(p.field),
    piece: p.operation ? fromOperation(p.operation) : null,
    lock: p.flags.lock,
    quiz: parseQuiz(p.comment),
  }));
}

/** The fumen's page count as a sentence's end: "7 pages", "1 page". */
export const pagesText = (n: number): string => `${n} page${n === 1 ? '' : 's'}`;

/** The position on one page (the first by default) of a fumen string. */
export function fumenToPosition(text: string, page = 0): Position {
  const pages = fumenPages(text);
  const p = pages[page];
  if (!p) throw new FumenError(`The fumen has ${pagesText(pages.length)}; there is no page ${page + 1}.`);
  const queue = p.quiz ? [...p.quiz.next] : [];
  // A quiz page may name the current piece without placing it: it then enters from the top.
  if (!p.piece && p.quiz?.current) queue.unshift(p.quiz.current);
  return { board: p.board, active: p.piece, hold: p.quiz?.hold ?? null, queue };
}

/**
 * A `?fumen=` value as typed or pasted: a fumen URL pasted whole, or `+` turned into spaces by an
 * unencoded link (fumen data never contains spaces).
 */
export function fumenParam(raw: string): string {
  return raw.trim().replace(/ /g, '+');
}
