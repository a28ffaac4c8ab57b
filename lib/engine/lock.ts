import { COLS, EMPTY_ROW, FULL_ROW, isFilled, PAD, TOTAL_ROWS, VISIBLE_ROWS } from './board';
import { PIECES, ROTATIONS } from './constants';
import type { CoreState as Core } from './core-state';
import { attackFor } from './attack';
import { roomAttack } from './room-rules';
import { END_GARBAGE_OUT, END_GOAL, END_LOCK_OUT, END_TOO_HIGH, END_WRONG_CLEAR } from './ends';
import { afterCheeseLock, clearedCheese } from './cheese';
import { cancelGarbage, riseGarbage } from './garbage';
import { TURN_180 } from './kicks';
import { levelFor, NO_DRILL } from './modes';
import { CELLS, PIECE_T } from './pieces';
import { isDifficult, scoreLock, SPIN_FULL, SPIN_MINI, SPIN_NONE, SPINS } from './scoring';

// Module-local aliases: under tsx / vite-node each imported binding read is a getter call.
const P = PAD;
const ROWS = TOTAL_ROWS;
const W = COLS;
const EMPTY = EMPTY_ROW;
const FULL = FULL_ROW;
const cellData: Int8Array = CELLS;
const score = scoreLock;
const difficult = isDifficult;
const NO_SPIN = SPIN_NONE;
const HIDDEN_FROM: number = VISIBLE_ROWS;
const levelOf = levelFor;
const detect = detectSpin;

/** The kick test (0-based) whose 1×2 offset upgrades a mini to a full T-spin. */
const UPGRADE_KICK = 4;
// Corner order is clockwise from top-left, so the two corners a T in rotation r points at are r and r + 1.
const CORNER_DX = [-1, 1, 1, -1] as const;
const CORNER_DY = [1, 1, -1, -1] as const;

/** 3-corner rule; only meaningful when the T's last successful action was a rotation. */
export function detectSpin(c: Core): number {
  if (!c.lastRotated || c.piece !== PIECE_T) return SPIN_NONE;
  const f = (i: number): number => {
    const k = i & 3;
    return isFilled(c.board, c.x + CORNER_DX[k]!, c.y + CORNER_DY[k]!) ? 1 : 0;
  };
  const front = f(c.rot) + f(c.rot + 1);
  const back = f(c.rot + 2) + f(c.rot + 3);
  if (front === 2 && back >= 1) return SPIN_FULL;
  if (front === 1 && back === 2) return c.lastTurn !== TURN_180 && c.lastKick === UPGRADE_KICK ? SPIN_FULL : SPIN_MINI;
  return SPIN_NONE;
}

/**
 * Locks the active piece: place, lock-out check, spin, clear, score, level, goal, next spawn.
 * Lock out is judged before clearing: a piece resting wholly in the hidden rows ends the game.
 */
export function lockPiece(c: Core): void {
  const spin = c.lastRotated ? detect(c) : NO_SPIN;
  const o = c.slot * 8;
  const b = c.board;
  let minY = ROWS;
  for (let i = 0; i < 8; i += 2) {
    const cx = c.x + cellData[o + i]!;
    const cy = c.y + cellData[o + i + 1]!;
    b[cy + P] = b[cy + P]! | (1 << (cx + 4));
    c.colors[cy * W + cx] = c.piece + 1;
    if (cy < minY) minY = cy;
  }
  c.pieces++;
  const lockOut = minY >= HIDDEN_FROM;
  let cleared = 0;
  let rowsMask = 0;
  let dug = 0;
  if (!lockOut) {
    const lo = Math.max(c.y - 2, 0);
    const hi = Math.min(c.y + 1, ROWS - 1);
    for (let y = lo; y <= hi; y++) {
      if (b[y + P] === FULL) {
        rowsMask |= 1 << (y - lo);
        cleared++;
      }
    }
    if (cleared > 0 && c.cheese) dug = clearedCheese(c, lo, rowsMask);
    if (cleared > 0) clearRows(c, lo, rowsMask);
  }
  const combo = cleared > 0 ? c.combo + 1 : -1;
  const perfect = cleared > 0 && b[P] === EMPTY && isEmpty(b);
  const levelBefore = c.level;
  const b2b = c.b2b && difficult(spin, cleared);
  const points = score(spin, cleared, levelBefore, c.b2b, combo, perfect);
  const versus = c.mode.garbage;
  const attack = c.room ? roomAttack(c.room, spin, cleared, c.b2b, combo, perfect) : versus || c.emit ? attackFor(spin, cleared, c.b2b, combo, perfect) : 0;
  const sent = versus && attack > 0 ? cancelGarbage(c, attack) : 0;
  c.sent += sent;
  c.score += points;
  c.combo = combo;
  if (cleared > 0) c.b2b = spin !== NO_SPIN || cleared === 4;
  c.lines += cleared;
  if (c.emit) {
    const cells: Array<[number, number]> = [];
    for (let i = 0; i < 8; i += 2) cells.push([c.x + cellData[o + i]!, c.y + cellData[o + i + 1]!]);
    const clearedRows: number[] = [];
    for (let i = 0; i < 4; i++) if (rowsMask & (1 << i)) clearedRows.push(Math.max(c.y - 2, 0) + i);
    c.push({
      type: 'lock', piece: PIECES[c.piece]!, rotation: ROTATIONS[c.rot]!, x: c.x, y: c.y, cells,
      linesCleared: cleared, clearedRows, spin: SPINS[spin]!, b2b, combo: Math.max(combo, 0),
      perfectClear: perfect, points, attack, sent,
    });
  }
  if (lockOut) {
    c.topOut(END_LOCK_OUT);
    return;
  }
  // A room's level is its startLevel all game (versus modes never level up): the mode's would reset it.
  const level = c.room ? levelBefore : levelOf(c.mode, c.lines);
  if (level !== levelBefore) {
    c.setLevel(level);
    if (c.emit) c.push({ type: 'levelUp', level });
  }
  if (c.mode.lineGoal !== 0 && c.lines >= c.mode.lineGoal) {
    c.finish(END_GOAL);
    return;
  }
  if (c.cheese && !afterCheeseLock(c, dug)) return;
  if (c.drill !== NO_DRILL && drillEnded(c, spin, cleared, perfect)) return;
  if (versus && cleared === 0 && c.garbageQueue.length > 0 && !riseGarbage(c)) {
    c.topOut(END_GARBAGE_OUT);
    return;
  }
  c.holdUsed = false;
  c.spawn(c.queue.take());
}

/**
 * A drill mode's rules after a lock's clears (modes.ts DrillRules): count the clear, finish at the
 * goal, end on a clear that does not count or on a stack too tall, or let the bottom rows vanish.
 * Returns whether the game ended.
 */
function drillEnded(c: Core, spin: number, cleared: number, perfect: boolean): boolean {
  const d = c.drill;
  const counted = d.counts === 'tsd' ? spin === SPIN_FULL && cleared === 2 : d.counts === 'perfect' ? perfect : false;
  if (counted) {
    c.clears++;
    if (d.goal !== 0 && c.clears >= d.goal) {
      c.finish(END_GOAL);
      return true;
    }
  } else if (cleared > 0 && d.onlyCounted) {
    c.topOut(END_WRONG_CLEAR);
    return true;
  }
  if (d.maxRows !== 0 && stackHeight(c.board) > d.maxRows) {
    c.topOut(END_TOO_HIGH);
    return true;
  }
  if (d.overflow !== null) {
    const height = stackHeight(c.board);
    if (height > d.overflow.at) dropBottom(c, height - d.overflow.keep);
  }
  return false;
}

/** Rows from the floor to the highest filled cell. */
function stackHeight(b: Int32Array): number {
  let top = ROWS;
  while (top > 0 && b[top - 1 + P] === EMPTY) top--;
  return top;
}

/** The bottom `n` rows vanish and everything above moves down (Zen's field instead of a top out). */
function dropBottom(c: Core, n: number): void {
  const b = c.board;
  const colors = c.colors;
  for (let y = 0; y < ROWS; y++) {
    const from = y + n;
    b[y + P] = from < ROWS ? b[from + P]! : EMPTY;
    for (let i = 0; i < W; i++) colors[y * W + i] = from < ROWS ? colors[from * W + i]! : 0;
  }
}

function isEmpty(b: Int32Array): boolean {
  for (let y = P; y < P + ROWS; y++) if (b[y] !== EMPTY) return false;
  return true;
}

/** Drops everything above the cleared rows (bits of rowsMask, relative to row lo). */
function clearRows(c: Core, lo: number, rowsMask: number): void {
  const b = c.board;
  const colors = c.colors;
  // Rows above the stack are empty: stop there instead of shuffling all forty.
  let top = ROWS;
  while (top > lo && b[top - 1 + P] === EMPTY) top--;
  let w = lo;
  for (let r = lo; r < top; r++) {
    if (r - lo < 4 && rowsMask & (1 << (r - lo))) continue;
    if (w !== r) {
      b[w + P] = b[r + P]!;
      for (let i = 0; i < W; i++) colors[w * W + i] = colors[r * W + i]!;
    }
    w++;
  }
  for (; w < top; w++) {
    b[w + P] = EMPTY;
    for (let i = 0; i < W; i++) colors[w * W + i] = 0;
  }
}
