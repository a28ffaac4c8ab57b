import { collides, dropDistance } from './board';
import { PIECES, ROTATIONS } from './constants';
import type { CoreState as Core } from './core-state';
import { K_180, K_CCW, K_CW, K_HARD, K_HOLD, K_LEFT, K_RIGHT, K_ROW_DOWN } from './keys';
import { KICK_COUNT, KICK_STRIDE, KICKS, kickSet } from './kicks';
import { lockPiece } from './lock';
import { HARD_DROP_POINTS_PER_ROW, SOFT_DROP_POINTS_PER_ROW } from './scoring';
import { MAX_LOCK_RESETS } from './timing';

/** Player actions on the active piece: shifts, rotations with kicks, one row down, hard drop, hold. */

// Hot-path imports re-bound locally: under tsx / vite-node an imported binding is a getter call.
const hits = collides;
const dropBy = dropDistance;
const kickData: Int8Array = KICKS;
const kickCount: Uint8Array = KICK_COUNT;
const kickStride: number = KICK_STRIDE;
const kickSetOf = kickSet;
const lock = lockPiece;
const RESETS: number = MAX_LOCK_RESETS;
const [LEFT, RIGHT, HARD, CW, CCW, HALF, HOLD, ROW_DOWN] = [K_LEFT, K_RIGHT, K_HARD, K_CW, K_CCW, K_180, K_HOLD, K_ROW_DOWN];

/** A successful shift or rotation restarts the lock delay while resets remain. */
export function moved(c: Core): void {
  if (c.y < c.lowestY) {
    c.lowestY = c.y;
    c.resets = 0;
    c.lockTimer = 0;
  } else if (c.resets < RESETS) {
    c.resets++;
    c.lockTimer = 0;
  }
}

export function shift(c: Core, dir: number, das: boolean): void {
  if (c.piece < 0 || hits(c.board, c.slot, c.x + dir, c.y)) return;
  c.x += dir;
  c.lastRotated = false;
  moved(c);
  if (c.emit) c.push({ type: 'move', dx: dir, dy: 0, source: das ? 'das' : 'tap' });
}

export function shiftToWall(c: Core, dir: number): void {
  let n = 0;
  while (!hits(c.board, c.slot, c.x + dir * (n + 1), c.y)) n++;
  if (n === 0) return;
  c.x += dir * n;
  c.lastRotated = false;
  moved(c);
  if (c.emit) c.push({ type: 'move', dx: dir * n, dy: 0, source: 'das' });
}

export function rotate(c: Core, turn: number): void {
  if (c.piece < 0) return;
  const to = (c.rot + turn) & 3;
  const slot = c.piece * 4 + to;
  const k = (kickSetOf(c.piece) * 4 + c.rot) * 4 + turn;
  const count = kickCount[k]!;
  const base = k * kickStride;
  for (let t = 0; t < count; t++) {
    const nx = c.x + kickData[base + 2 * t]!;
    const ny = c.y + kickData[base + 2 * t + 1]!;
    if (hits(c.board, slot, nx, ny)) continue;
    const from = c.rot;
    c.rot = to;
    c.slot = slot;
    c.x = nx;
    c.y = ny;
    c.lastRotated = true;
    c.lastKick = t;
    c.lastTurn = turn;
    moved(c);
    if (c.emit) c.push({ type: 'rotate', from: ROTATIONS[from]!, to: ROTATIONS[to]!, kick: t, x: nx, y: ny });
    return;
  }
}

/**
 * `rowDown` (rules 3 and 4): exactly one row down, once per press. The player moved the piece
 * down, so the row scores as a soft-drop row does; it is a successful move, so it restarts the
 * lock delay as a shift does (a new lowest row restores every reset). The gravity accumulator is
 * left alone: the next gravity row comes when it would have. Blocked, it does nothing. Decision 0019.
 */
export function rowDown(c: Core): void {
  if (c.piece < 0 || hits(c.board, c.slot, c.x, c.y - 1)) return;
  c.y--;
  c.lastRotated = false;
  moved(c);
  c.score += SOFT_DROP_POINTS_PER_ROW;
  if (c.emit) c.push({ type: 'move', dx: 0, dy: -1, source: 'tap' });
}

export function hardDrop(c: Core): void {
  if (c.piece < 0) return;
  const n = dropBy(c.board, c.slot, c.x, c.y);
  c.y -= n;
  if (n > 0) c.lastRotated = false;
  c.score += n * HARD_DROP_POINTS_PER_ROW;
  if (c.emit) c.push({ type: 'hardDrop', rows: n });
  lock(c);
}

export function hold(c: Core): void {
  if (c.piece < 0 || c.holdUsed || c.room?.hold === false) return;
  const current = c.piece;
  const swapped = c.hold;
  c.hold = current;
  c.holdUsed = true;
  if (c.emit) c.push({ type: 'hold', piece: PIECES[current]!, swappedFor: swapped < 0 ? null : PIECES[swapped]! });
  c.spawn(swapped < 0 ? c.queue.take() : swapped);
}

/** Step 1 of a tick: one key edge. Repeated downs or ups are no-ops. */
export function keyEdge(c: Core, key: number, down: boolean): void {
  const bit = 1 << key;
  if (down === ((c.held & bit) !== 0)) return;
  c.held ^= bit;
  if (!down) {
    if ((key === LEFT && c.dir < 0) || (key === RIGHT && c.dir > 0)) {
      // The other direction, if still held, takes over and charges from zero.
      const other = key === LEFT ? RIGHT : LEFT;
      c.dir = (c.held & (1 << other)) !== 0 ? -c.dir : 0;
      c.dasTicks = -1;
      c.arrTimer = 0;
    }
    return;
  }
  c.keys++;
  switch (key) {
    case LEFT:
    case RIGHT:
      c.dir = key === LEFT ? -1 : 1;
      c.dasTicks = -1;
      c.arrTimer = 0;
      shift(c, c.dir, false);
      return;
    case HARD:
      hardDrop(c);
      return;
    case CW:
      rotate(c, 1);
      return;
    case CCW:
      rotate(c, 3);
      return;
    case HALF:
      rotate(c, 2);
      return;
    case HOLD:
      hold(c);
      return;
    case ROW_DOWN:
      rowDown(c);
      return;
  }
}

/** Step 2: DAS charge, then ARR repeats (arr 0: to the wall every tick). */
export function autoShift(c: Core): void {
  if (c.dasTicks < c.das) {
    if (++c.dasTicks < c.das) return;
  } else if (c.arr !== 0 && ++c.arrTimer < c.arr) return;
  c.arrTimer = 0;
  if (c.arr === 0) shiftToWall(c, c.dir);
  else shift(c, c.dir, true);
}
