import { COLS, EMPTY_ROW, FULL_ROW, PAD, TOTAL_ROWS } from './board';
import type { CoreState as Core } from './core-state';
import { END_GARBAGE_OUT, END_GOAL } from './ends';
import { GARBAGE_COLOR } from './garbage';
import { KeyStream, seedKey, STREAM_HOLES } from './keystream';
import { cheeseOf, MODES } from './modes';
import type { AnyMode } from './types';

/**
 * Dig (README, "Dig"): the mode's garbage rows (MODES[mode].cheese) and the steps that use them.
 * Garbage rows always sit at the bottom of the field (nothing goes under them), so the garbage
 * rows in the field are rows 0 … cheeseIn − 1, and a cleared row below cheeseIn is a garbage row.
 *
 * - Start: min(field, rows) rows; the first drawn is the top one (the first to be dug out).
 * - After every lock that neither locks out nor finishes, while fewer than `field` garbage rows
 *   are in the field and some have not risen yet, ONE row rises from the floor. One per lock at
 *   most, so a lock needs at most one new hole column: a live game is dealt them one at a time
 *   (deal.ts), never more than HOLES_AHEAD before they rise.
 * - Goal: the lock that clears the last garbage row finishes the game.
 * - A rise that pushes a filled cell past the top of the field tops out (garbageOut).
 */

/**
 * A row's hole column from one 32-bit draw: the first row's is draw % 10; after it, with
 * probability messiness % (draw % 100 < messiness) one of the nine other columns,
 * (previous + 1 + ⌊draw / 100⌋ % 9) % 10, else the previous column again.
 */
export function nextHole(previous: number, draw: number, messiness: number): number {
  if (previous < 0) return draw % COLS;
  if (draw % 100 >= messiness) return previous;
  return (previous + 1 + (Math.floor(draw / 100) % (COLS - 1))) % COLS;
}

/**
 * A Dig seed's hole columns, one row at a time from the top row of the starting field: what a
 * live host deals (a dealt game has no generator). Dig is played under keyed rules only.
 */
export function holeSequence(seed: string, mode: AnyMode): () => number {
  const rules = cheeseOf(MODES[mode]);
  if (!rules) throw new RangeError(`${mode} has no garbage rows`);
  const stream = new KeyStream(seedKey(seed), STREAM_HOLES);
  let col = -1;
  return () => (col = nextHole(col, stream.next(), rules.messiness));
}

/** The next row's hole: from the seed's hole stream, or (a dealt game) the next column the host gave. */
function takeHole(c: Core): number {
  const rules = c.cheese!;
  let col: number;
  if (c.holeStream) col = nextHole(c.holeCol, c.holeStream.next(), rules.messiness);
  else {
    const given = c.givenHoles.shift();
    // DealtGame waits (`ready`) until the column is there: reaching this is a caller's bug.
    if (given === undefined) throw new RangeError('no dealt hole column to take');
    col = given;
  }
  c.holeCol = col;
  c.cheeseRisen++;
  return col;
}

/** Rows a game of these rules may still need a hole column for (a dealt game waits for one while this is not 0). */
export function holesToCome(c: Core): number {
  return c.cheese ? c.cheese.rows - c.cheeseRisen : 0;
}

/** The field at the start of a Dig game: the first rows, drawn top to bottom. */
export function startCheese(c: Core): void {
  const rules = c.cheese!;
  const n = Math.min(rules.field, rules.rows);
  for (let i = 0; i < n; i++) fillRow(c, n - 1 - i, takeHole(c));
  c.cheeseIn = n;
}

/** Counts the garbage rows among a lock's cleared rows (bits of rowsMask, relative to row lo), before they are cleared. */
export function clearedCheese(c: Core, lo: number, rowsMask: number): number {
  let n = 0;
  for (let i = 0; i < 4; i++) if (rowsMask & (1 << i) && lo + i < c.cheeseIn) n++;
  return n;
}

/**
 * After a lock's clear: the goal, or the next row rising. Returns false when the game ended here.
 * `dug`: the garbage rows this lock cleared.
 */
export function afterCheeseLock(c: Core, dug: number): boolean {
  const rules = c.cheese!;
  c.cheeseIn -= dug;
  c.cheeseCleared += dug;
  if (c.cheeseCleared >= rules.rows) {
    c.finish(END_GOAL);
    return false;
  }
  if (c.cheeseIn >= rules.field || c.cheeseRisen >= rules.rows) return true;
  return riseCheese(c);
}

/**
 * One garbage row rises from the floor under the rest, its hole the next column (a lock's in Dig,
 * the clock's in Survival). Returns false when it pushed the stack past the top (garbageOut).
 */
export function riseCheese(c: Core): boolean {
  const b = c.board;
  if (b[TOTAL_ROWS - 1 + PAD] !== EMPTY_ROW) {
    c.topOut(END_GARBAGE_OUT);
    return false;
  }
  for (let y = TOTAL_ROWS - 1; y >= 1; y--) {
    b[y + PAD] = b[y - 1 + PAD]!;
    c.colors.copyWithin(y * COLS, (y - 1) * COLS, y * COLS);
  }
  const col = takeHole(c);
  fillRow(c, 0, col);
  c.cheeseIn++;
  if (c.emit) c.push({ type: 'garbageRise', rows: 1, queued: 0 });
  return true;
}

function fillRow(c: Core, y: number, col: number): void {
  c.board[y + PAD] = FULL_ROW & ~(1 << (col + 4));
  c.colors.fill(GARBAGE_COLOR, y * COLS, (y + 1) * COLS);
  c.colors[y * COLS + col] = 0;
}
