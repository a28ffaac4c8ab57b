import { ROW_DY, ROW_MASK } from './pieces';

// Module-local aliases: some loaders (tsx, vite-node) turn every imported binding into a getter
// call, which costs more than the whole collision test on the hot path.
const DY: Int8Array = ROW_DY;
const MASK: Int32Array = ROW_MASK;

export const COLS = 10;
export const VISIBLE_ROWS = 20;
export const TOTAL_ROWS = 40;
/**
 * The board is one int32 per row. Column c is bit c + 4; every other bit is set, so walls collide
 * like cells and a full row is simply -1. Four solid rows below y = 0 and above y = 39 make the
 * floor and ceiling collide without bounds checks. Row y lives at index y + PAD.
 */
export const PAD = 4;
export const BOARD_LEN = PAD + TOTAL_ROWS + PAD;
export const FIELD_BITS = 0x3ff << 4;
export const EMPTY_ROW = ~FIELD_BITS;
export const FULL_ROW = -1;

export function newBoard(): Int32Array {
  const b = new Int32Array(BOARD_LEN).fill(FULL_ROW);
  b.fill(EMPTY_ROW, PAD, PAD + TOTAL_ROWS);
  return b;
}

/** True if piece slot (piece * 4 + rotation) at (x, y) overlaps a cell, a wall, the floor or the ceiling. */
export function collides(b: Int32Array, slot: number, x: number, y: number): boolean {
  // Beyond these, every cell is off the field: no shift can go negative, no index out of range.
  if (x < -2 || x > 11 || y < -2 || y > 41) return true;
  const o = slot * 4;
  const s = x + 2;
  const yi = y + PAD;
  return (
    ((b[yi + DY[o]!]! & (MASK[o]! << s)) |
      (b[yi + DY[o + 1]!]! & (MASK[o + 1]! << s)) |
      (b[yi + DY[o + 2]!]! & (MASK[o + 2]! << s)) |
      (b[yi + DY[o + 3]!]! & (MASK[o + 3]! << s))) !==
    0
  );
}

/** Walls, floor and ceiling count as filled (the T-spin corner rule relies on it). */
export function isFilled(b: Int32Array, x: number, y: number): boolean {
  if (x < 0 || x >= COLS || y < 0 || y >= TOTAL_ROWS) return true;
  return (b[y + PAD]! & (1 << (x + 4))) !== 0;
}

/** Rows the piece would fall from (x, y) before resting (0 if it overlaps already). */
export function dropDistance(b: Int32Array, slot: number, x: number, y: number): number {
  if (collides(b, slot, x, y)) return 0;
  // Shift the four row masks once, then walk down; the solid floor rows end the loop.
  const o = slot * 4;
  const s = x + 2;
  const m0 = MASK[o]! << s;
  const m1 = MASK[o + 1]! << s;
  const m2 = MASK[o + 2]! << s;
  const m3 = MASK[o + 3]! << s;
  const d0 = DY[o]!;
  const d1 = DY[o + 1]!;
  const d2 = DY[o + 2]!;
  const d3 = DY[o + 3]!;
  let yi = y + PAD - 1;
  while (yi + Math.min(d0, d1, d2, d3) >= 0) {
    if (((b[yi + d0]! & m0) | (b[yi + d1]! & m1) | (b[yi + d2]! & m2) | (b[yi + d3]! & m3)) !== 0) break;
    yi--;
  }
  return y + PAD - 1 - yi;
}
