import { COLS, PIECES, type PieceType, type Snapshot } from '@/lib/engine';
import { emptyBoard, FUMEN_ROWS, type Position } from '@/lib/fumen';

/** What a click paints: a piece colour, garbage grey, or empty. */
export type Brush = PieceType | 'X' | '.';
export const BRUSHES: readonly Brush[] = ['X', ...PIECES, '.'];

/** Longest queue the editor takes: two bags and a half is more than any setup needs. */
export const MAX_EDITOR_QUEUE = 20;

/** The board with one cell set (row 0 = bottom, as the engine counts); a new array, rows shared. */
export function paintCell(board: readonly string[], x: number, y: number, brush: Brush): string[] {
  const i = FUMEN_ROWS - 1 - y;
  const row = board[i];
  if (row === undefined || x < 0 || x >= COLS) return [...board];
  const out = [...board];
  out[i] = row.slice(0, x) + brush + row.slice(x + 1);
  return out;
}

/** Queue text as typed ("TIO SZ", lower case too) → pieces, or a message saying what is wrong. */
export function parseQueue(text: string): { queue: PieceType[] } | { error: string } {
  const letters = text.toUpperCase().replace(/[\s,]/g, '');
  const bad = [...letters].find((c) => !(PIECES as readonly string[]).includes(c));
  if (bad) return { error: `'${bad}' is not a piece: use I, O, T, S, Z, J and L.` };
  if (letters.length > MAX_EDITOR_QUEUE) return { error: `At most ${MAX_EDITOR_QUEUE} pieces.` };
  return { queue: [...letters] as PieceType[] };
}

/** What the editor starts from: the sandbox's board, with the piece in play first in the queue. */
export function editablePosition(snap: Snapshot): Position {
  const board = [...emptyBoard().slice(0, FUMEN_ROWS - snap.board.length), ...snap.board];
  const queue = snap.active ? [snap.active.type, ...snap.next] : [...snap.next];
  return { board, active: null, hold: snap.hold, queue };
}
