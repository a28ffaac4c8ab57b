import { COLS, EMPTY_ROW, FULL_ROW, PAD, TOTAL_ROWS } from './board';
import type { Core } from './core';
import { nextState, outputOf, seedState } from './rng';

/**
 * Versus garbage, as data and the steps that use it (README, "Versus"). Incoming garbage waits in
 * the receiver's queue (the meter); the receiver's own attack cancels it first, oldest first; a
 * lock that clears no lines raises at most GARBAGE_RISE_CAP queued rows into the field, from the
 * floor in arrival order (so the oldest message ends up above the later ones).
 */
export const GARBAGE_RISE_CAP = 8;
/** Colour id of a garbage cell (CELL_CHARS 'X'). */
export const GARBAGE_COLOR = 8;
/** Appended to the seed before hashing it into the hole generator's state, so holes and bags draw apart. */
export const HOLE_SEED_SUFFIX = '#holes';

/**
 * The hole generator's starting state for a game seed. A live versus host gives it to the browser,
 * which plays dealt pieces without the seed: it is a hash of the seed with a suffix, so it tells
 * nothing of the piece sequence, only where future holes will be.
 */
export function holeState(seed: string): number {
  return seedState(seed + HOLE_SEED_SUFFIX);
}

// A queue entry packs rows and hole column into one integer, so the queue clones as a plain array.
const PACK = 16;

/**
 * One garbage message joins the queue at the start of a tick. Its hole column comes from the
 * per-match hole generator: the first message takes draw % 10, every later one one of the nine
 * other columns, (previous + 1 + draw % 9) % 10, so each attack's hole is new.
 */
export function queueGarbage(c: Core, size: number): void {
  c.holeRng = nextState(c.holeRng);
  const draw = outputOf(c.holeRng);
  const col = c.holeCol < 0 ? draw % COLS : (c.holeCol + 1 + (draw % (COLS - 1))) % COLS;
  c.holeCol = col;
  c.garbageQueue.push(size * PACK + col);
  c.received += size;
  if (c.emit) c.push({ type: 'garbageQueued', size, column: col });
}

/** Rows waiting in the queue (the meter beside the field). */
export function queuedRows(c: Core): number {
  let n = 0;
  for (const e of c.garbageQueue) n += Math.floor(e / PACK);
  return n;
}

/** The attack left after cancelling queued incoming garbage, oldest message first. */
export function cancelGarbage(c: Core, attack: number): number {
  const q = c.garbageQueue;
  while (attack > 0 && q.length > 0) {
    const size = Math.floor(q[0]! / PACK);
    if (size <= attack) {
      attack -= size;
      q.shift();
    } else {
      q[0] = (size - attack) * PACK + (q[0]! % PACK);
      attack = 0;
    }
  }
  return attack;
}

/**
 * Raises up to GARBAGE_RISE_CAP queued rows (oldest first, each message's rows share its hole).
 * Returns false when the rise pushed a filled cell past the top of the field: a garbage top out.
 */
export function riseGarbage(c: Core): boolean {
  const q = c.garbageQueue;
  const b = c.board;
  const colors = c.colors;
  let risen = 0;
  while (risen < GARBAGE_RISE_CAP && q.length > 0) {
    const size = Math.floor(q[0]! / PACK);
    const col = q[0]! % PACK;
    const n = Math.min(size, GARBAGE_RISE_CAP - risen);
    if (n === size) q.shift();
    else q[0] = (size - n) * PACK + col;
    for (let y = TOTAL_ROWS - n; y < TOTAL_ROWS; y++) if (b[y + PAD] !== EMPTY_ROW) return topOutRise(c, risen + n);
    for (let y = TOTAL_ROWS - 1; y >= n; y--) {
      b[y + PAD] = b[y - n + PAD]!;
      colors.copyWithin(y * COLS, (y - n) * COLS, (y - n + 1) * COLS);
    }
    const row = FULL_ROW & ~(1 << (col + 4));
    for (let y = 0; y < n; y++) {
      b[y + PAD] = row;
      colors.fill(GARBAGE_COLOR, y * COLS, (y + 1) * COLS);
      colors[y * COLS + col] = 0;
    }
    risen += n;
  }
  if (c.emit && risen > 0) c.push({ type: 'garbageRise', rows: risen, queued: queuedRows(c) });
  return true;
}

function topOutRise(c: Core, rows: number): false {
  if (c.emit) c.push({ type: 'garbageRise', rows, queued: queuedRows(c) });
  return false;
}
