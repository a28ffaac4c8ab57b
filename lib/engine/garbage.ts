import { COLS, EMPTY_ROW, FULL_ROW, PAD, TOTAL_ROWS } from './board';
import type { CoreState as Core } from './core-state';
import { nextState, outputOf, seedState } from './rng';

/**
 * Versus garbage, as data and the steps that use it (README, "Versus"). Incoming garbage waits in
 * the receiver's queue (the meter); the receiver's own attack cancels it first, oldest first; a
 * lock that clears no lines raises at most GARBAGE_RISE_CAP queued rows into the field, from the
 * floor in arrival order (so the oldest message ends up above the later ones). Under a rules
 * version with a garbage delay (6), a message joins the queue when it is sent and may rise only
 * `garbageDelay` ticks later: until then it is in flight, shown and cancellable, but not risen.
 */
export const GARBAGE_RISE_CAP = 8;
/** Colour id of a garbage cell (CELL_CHARS 'X'). */
export const GARBAGE_COLOR = 8;
/** Appended to the seed before hashing it into the hole generator's state, so holes and bags draw apart. */
export const HOLE_SEED_SUFFIX = '#holes';

/**
 * The hole generator's starting state for a seed under rules 2 and 4. A dealt game under those
 * versions needs it, and it gives away the piece sequence too (six inverse FNV-1a steps lead from
 * it to the piece generator's state): that is why rules 6 sends each hole column instead.
 */
export function holeState(seed: string): number {
  return seedState(seed + HOLE_SEED_SUFFIX);
}

// A queue entry packs rows and hole column into one integer, so the queue clones as a plain array.
const PACK = 16;

/**
 * One garbage message joins the queue at the start of a tick. Its hole column comes from the
 * game's hole generator (mulberry32 under rules 2 and 4, the keyed hole stream under 6): the first
 * message takes draw % 10, every later one one of the nine other columns,
 * (previous + 1 + draw % 9) % 10, so each attack's hole is new. A dealt game has no generator and
 * is given the column the host drew (`given`). Returns the column.
 */
export function queueGarbage(c: Core, size: number, given: number): number {
  let col = given;
  if (col < 0) {
    let draw: number;
    if (c.holeStream) draw = c.holeStream.next();
    else {
      c.holeRng = nextState(c.holeRng);
      draw = outputOf(c.holeRng);
    }
    col = c.holeCol < 0 ? draw % COLS : (c.holeCol + 1 + (draw % (COLS - 1))) % COLS;
  }
  c.holeCol = col;
  if (c.room && c.room.messiness > 0 && given < 0) messyRows(c, size, col);
  else {
    c.garbageQueue.push(size * PACK + col);
    if (c.garbageDelay !== null) c.garbageLands.push(c.tickNo + c.garbageDelay);
  }
  c.received += size;
  if (c.emit) c.push({ type: 'garbageQueued', size, column: col });
  return col;
}

/** Rows waiting in the queue (the meter beside the field), in flight or not. */
export function queuedRows(c: Core): number {
  let n = 0;
  for (const e of c.garbageQueue) n += Math.floor(e / PACK);
  return n;
}

/** Rows the next lock that clears nothing would raise, before the rise cap: those no longer in flight. */
export function readyRows(c: Core): number {
  let n = 0;
  const q = c.garbageQueue;
  for (let i = 0; i < q.length && landed(c, i); i++) n += Math.floor(q[i]! / PACK);
  return n;
}

/** Whether queue entry i may rise now (always, without a garbage delay). */
function landed(c: Core, i: number): boolean {
  return c.garbageDelay === null || c.garbageLands[i]! <= c.tickNo;
}

/** The attack left after cancelling queued incoming garbage, oldest message first. */
export function cancelGarbage(c: Core, attack: number): number {
  const q = c.garbageQueue;
  while (attack > 0 && q.length > 0) {
    const size = Math.floor(q[0]! / PACK);
    if (size <= attack) {
      attack -= size;
      q.shift();
      if (c.garbageDelay !== null) c.garbageLands.shift();
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
  const cap = c.room ? c.room.garbageCap : GARBAGE_RISE_CAP;
  while (risen < cap && q.length > 0 && landed(c, 0)) {
    const size = Math.floor(q[0]! / PACK);
    const col = q[0]! % PACK;
    const n = Math.min(size, cap - risen);
    if (n === size) {
      q.shift();
      if (c.garbageDelay !== null) c.garbageLands.shift();
    } else q[0] = (size - n) * PACK + col;
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

/**
 * Rules 7 with messiness: each row of a message after the first moves its hole to one of the nine
 * other columns when a draw of the seat's hole stream, % 100, is below the messiness; rows that
 * share a hole stay one queue entry, so rising and cancelling are unchanged. The message's column
 * (the event's, the next message's `previous`) is its first row's.
 */
function messyRows(c: Core, size: number, first: number): void {
  let col = first;
  let run = 1;
  const push = (rows: number, hole: number) => {
    c.garbageQueue.push(rows * PACK + hole);
    if (c.garbageDelay !== null) c.garbageLands.push(c.tickNo + c.garbageDelay);
  };
  for (let i = 1; i < size; i++) {
    const draw = c.holeStream ? c.holeStream.next() : 0;
    if (draw % 100 < c.room!.messiness) {
      push(run, col);
      col = (col + 1 + (Math.floor(draw / 100) % (COLS - 1))) % COLS;
      run = 0;
    }
    run++;
  }
  push(run, col);
}

function topOutRise(c: Core, rows: number): false {
  if (c.emit) c.push({ type: 'garbageRise', rows, queued: queuedRows(c) });
  return false;
}
