/**
 * Placement search for the bots (the sparring bot, lib/bot/sparring.ts, and the tests' bots):
 * candidate key sequences from the piece's current position (optional rotation, taps or a wall
 * shift, hard drop) and an El-Tetris (Dellacherie) evaluation
 * on the engine's own bitboard. Everything reuses the engine's collision and kick tables, so a
 * candidate's predicted landing spot is where the engine will put it.
 */
import { collides, dropDistance, newBoard, FIELD_BITS, FULL_ROW, EMPTY_ROW, PAD, BOARD_LEN, TOTAL_ROWS } from '@/lib/engine/board';
import { KICK_COUNT, KICK_STRIDE, KICKS, kickSet } from '@/lib/engine/kicks';
import { CELLS, PIECE_O, PIECE_T } from '@/lib/engine/pieces';
import { isFilled } from '@/lib/engine/board';

export type Turn = 0 | 1 | 2 | 3;
export type Shift = { dir: -1 | 1; taps: number } | { dir: -1 | 1; wall: true } | null;

export interface Candidate {
  turn: Turn;
  shift: Shift;
  /** Final position before the hard drop, and where it lands. */
  rot: number;
  x: number;
  yBefore: number;
  y: number;
  score: number;
  keys: number;
  /** Spin candidates only: soft drop to `softY`, then this turn (1 CW, 3 CCW) into (rot, x, y). */
  spinTurn: 0 | 1 | 3;
  softY: number;
}

export interface SearchOptions {
  /** Also try T pieces soft-dropped and then rotated into a T-spin. */
  spins?: boolean;
  /** Value leaving T-spin double slots (with `spins`, the bot then fills them with a T). */
  slots?: boolean;
  /** Keep the right column open and fill it only to clear two lines or more (versus: an attack). */
  well?: boolean;
  /** Clear lines only with a full T-spin double (the 20 TSD mode, where any other clear ends the game). */
  tsdOnly?: boolean;
}

/** The `tsdOnly` option: any other clear costs more than any placement can gain. */
const WRONG_CLEAR_PENALTY = 1000;

const W = {
  landing: -4.500158825082766,
  eroded: 3.4181268101392694,
  rowTrans: -3.2178882868487753,
  colTrans: -9.348695305445199,
  holes: -7.899265427351652,
  wells: -3.3855972247263626,
};

const SHIFTS: Shift[] = [null];
for (let n = 1; n <= 5; n++) SHIFTS.push({ dir: -1, taps: n }, { dir: 1, taps: n });
SHIFTS.push({ dir: -1, wall: true }, { dir: 1, wall: true });

function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** Same kick walk as the engine; returns [rot, x, y] or null. */
function rotateAt(b: Int32Array, piece: number, rot: number, x: number, y: number, turn: number): [number, number, number] | null {
  if (turn === 0) return [rot, x, y];
  const to = (rot + turn) & 3;
  const k = (kickSet(piece) * 4 + rot) * 4 + turn;
  for (let t = 0; t < KICK_COUNT[k]!; t++) {
    const nx = x + KICKS[k * KICK_STRIDE + 2 * t]!;
    const ny = y + KICKS[k * KICK_STRIDE + 2 * t + 1]!;
    if (!collides(b, piece * 4 + to, nx, ny)) return [to, nx, ny];
  }
  return null;
}

const scratch = new Int32Array(BOARD_LEN);
const colDepth = new Int32Array(10);
/** Rows the evaluation looks at; the field is 20 visible rows plus a little of the buffer. */
const SCAN_ROWS = 24;

/** Scores the board after placing piece (slot) at (x, y). Higher is better. */
export function evaluate(b: Int32Array, slot: number, x: number, y: number, slots = false): number {
  scratch.set(b);
  const o = slot * 8;
  let minY = 99;
  let maxY = -1;
  for (let i = 0; i < 8; i += 2) {
    const cy = y + CELLS[o + i + 1]!;
    scratch[cy + PAD] = scratch[cy + PAD]! | (1 << (x + CELLS[o + i]! + 4));
    minY = Math.min(minY, cy);
    maxY = Math.max(maxY, cy);
  }
  let cleared = 0;
  let pieceCellsCleared = 0;
  for (let cy = minY; cy <= maxY; cy++) {
    if (scratch[cy + PAD] !== FULL_ROW) continue;
    cleared++;
    for (let i = 0; i < 8; i += 2) if (y + CELLS[o + i + 1]! === cy) pieceCellsCleared++;
  }
  if (cleared > 0) {
    let w = PAD;
    for (let r = PAD; r < PAD + TOTAL_ROWS; r++) if (scratch[r] !== FULL_ROW) scratch[w++] = scratch[r]!;
    for (; w < PAD + TOTAL_ROWS; w++) scratch[w] = EMPTY_ROW;
  }
  let rowTrans = 0;
  let colTrans = 0;
  let holes = 0;
  let wells = 0;
  let cover = 0;
  // Rows above the stack are empty: each adds 2 row transitions and nothing else.
  let top = SCAN_ROWS - 1;
  while (top > 0 && scratch[top - 1 + PAD] === EMPTY_ROW) top--;
  rowTrans += 2 * (SCAN_ROWS - 1 - top);
  let depthLive = false;
  colDepth.fill(0);
  for (let r = top; r >= 0; r--) {
    const row = scratch[r + PAD]!;
    rowTrans += popcount((row ^ (row >> 1)) & (0x7ff << 3));
    colTrans += popcount((row ^ scratch[r + PAD - 1]!) & FIELD_BITS);
    holes += popcount(~row & cover & FIELD_BITS);
    cover |= row & FIELD_BITS;
    const well = ~row & (row << 1) & (row >> 1) & FIELD_BITS & ~cover;
    if (well === 0) {
      if (depthLive) colDepth.fill(0);
      depthLive = false;
      continue;
    }
    depthLive = true;
    for (let c = 0; c < 10; c++) {
      if (well & (1 << (c + 4))) wells += ++colDepth[c]!;
      else colDepth[c] = 0;
    }
  }
  const landing = (minY + maxY) / 2 + 1;
  return (slots ? SLOT_BONUS * tsdSlots(scratch, top) : 0) + (
    W.landing * landing + W.eroded * cleared * pieceCellsCleared + W.rowTrans * rowTrans +
    W.colTrans * colTrans + W.holes * holes + W.wells * wells
  );
}

/** Corners around a T centre that are filled (walls count), and whether both front ones are. */
function tCorners(b: Int32Array, rot: number, x: number, y: number): { count: number; front: number } {
  const dx = [-1, 1, 1, -1];
  const dy = [1, 1, -1, -1];
  let count = 0;
  let front = 0;
  for (let i = 0; i < 4; i++) {
    if (!isFilled(b, x + dx[i]!, y + dy[i]!)) continue;
    count++;
    if (i === rot || i === ((rot + 1) & 3)) front++;
  }
  return { count, front };
}

const SPIN_BONUS_PER_LINE = 40;
const SLOT_BONUS = 50;

const filledAt = (b: Int32Array, x: number, y: number): boolean => isFilled(b, x, y);

/**
 * T-spin double slots: a T pointing down at (c, y) would fill row y − 1's only gap and row y's
 * three, with both lower corners filled and exactly one overhang above.
 */
function tsdSlots(b: Int32Array, top: number): number {
  let n = 0;
  for (let y = 1; y < top; y++) {
    const below = b[y - 1 + PAD]!;
    const row = b[y + PAD]!;
    for (let c = 1; c <= 8; c++) {
      if (below !== (FULL_ROW & ~(1 << (c + 4)))) continue;
      // Row y: the three cells open; other gaps may still be filled before the T comes.
      if ((row & (7 << (c + 3))) !== 0 || popcount(row & FIELD_BITS) < 5) continue;
      if (filledAt(b, c, y + 1)) continue;
      if (filledAt(b, c - 1, y + 1) !== filledAt(b, c + 1, y + 1)) n++;
    }
  }
  return n;
}

/** All distinct reachable hard-drop placements from (rot, x, y), fewest keys first on ties. */
export function candidates(b: Int32Array, piece: number, rot: number, x: number, y: number, opts: SearchOptions = {}): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<number>();
  const turns: Turn[] = piece === PIECE_O ? [0] : [0, 1, 3, 2];
  for (const turn of turns) {
    const r = rotateAt(b, piece, rot, x, y, turn);
    if (!r) continue;
    const [nr, rx, ry] = r;
    const slot = piece * 4 + nr;
    for (const shift of SHIFTS) {
      let nx = rx;
      if (shift) {
        const steps = 'taps' in shift ? shift.taps : 99;
        let moved = 0;
        while (moved < steps && !collides(b, slot, nx + shift.dir, ry)) {
          nx += shift.dir;
          moved++;
        }
        if ('taps' in shift && moved < steps) continue;
        if (!('taps' in shift) && moved < 2) continue;
      }
      const ly = ry - dropDistance(b, slot, nx, ry);
      const id = (slot * 64 + nx + 8) * 64 + ly + 8;
      if (seen.has(id)) continue;
      seen.add(id);
      const keys = (turn ? 1 : 0) + (shift ? ('taps' in shift ? shift.taps : 1) : 0) + 1;
      const wrong = opts.tsdOnly && linesAfter(b, slot, nx, ly) > 0 ? WRONG_CLEAR_PENALTY : 0;
      const score = evaluate(b, slot, nx, ly, opts.slots === true) + (opts.well ? wellScore(b, slot, nx, ly) : 0) - wrong;
      out.push({ turn, shift, rot: nr, x: nx, yBefore: ry, y: ly, score, keys, spinTurn: 0, softY: ly });
      if (opts.spins && piece === PIECE_T) {
        for (const st of [1, 3] as const) {
          const r2 = rotateAt(b, piece, nr, nx, ly, st);
          if (!r2) continue;
          const [sr, sx, sy] = r2;
          const s2 = piece * 4 + sr;
          if (!collides(b, s2, sx, sy - 1)) continue; // must rest where it turns in
          const corners = tCorners(b, sr, sx, sy);
          if (corners.count < 3) continue;
          const lines = linesAfter(b, s2, sx, sy);
          const tsd = corners.front === 2 && lines === 2;
          const bonus = (corners.front === 2 ? SPIN_BONUS_PER_LINE * lines : 0) - (opts.tsdOnly && lines > 0 && !tsd ? WRONG_CLEAR_PENALTY : 0);
          out.push({ turn, shift, rot: sr, x: sx, yBefore: ry, y: sy, score: evaluate(b, s2, sx, sy, opts.slots === true) + bonus, keys: keys + 2, spinTurn: st, softY: ly });
        }
      }
    }
  }
  return out;
}

const WELL_COLUMN = 9;
const WELL_FILL_PENALTY = 100;
const WELL_BONUS_PER_LINE = 30;

/** The `well` option: filling the right column costs a lot unless it clears two lines or more. */
function wellScore(b: Int32Array, slot: number, x: number, y: number): number {
  const o = slot * 8;
  let inWell = false;
  for (let i = 0; i < 8; i += 2) if (x + CELLS[o + i]! === WELL_COLUMN) inWell = true;
  if (!inWell) return 0;
  const lines = linesAfter(b, slot, x, y);
  return lines >= 2 ? WELL_BONUS_PER_LINE * lines : -WELL_FILL_PENALTY;
}

function linesAfter(b: Int32Array, slot: number, x: number, y: number): number {
  const o = slot * 8;
  const rows = new Map<number, number>();
  for (let i = 0; i < 8; i += 2) {
    const cy = y + CELLS[o + i + 1]!;
    rows.set(cy, (rows.get(cy) ?? b[cy + PAD]!) | (1 << (x + CELLS[o + i]! + 4)));
  }
  let n = 0;
  for (const v of rows.values()) if (v === FULL_ROW) n++;
  return n;
}

/** A snapshot's rows (top to bottom, '.' empty) as the engine's bitboard, for the search. */
export function bitboardOf(rows: readonly string[]): Int32Array {
  const board = newBoard();
  rows.forEach((row, i) => {
    const y = rows.length - 1 - i;
    for (let x = 0; x < row.length; x++) if (row[x] !== '.') board[y + PAD] = board[y + PAD]! | (1 << (x + 4));
  });
  return board;
}

export function best(cands: readonly Candidate[]): Candidate | null {
  let top: Candidate | null = null;
  for (const c of cands) if (!top || c.score > top.score + 1e-9 || (Math.abs(c.score - top.score) <= 1e-9 && c.keys < top.keys)) top = c;
  return top;
}
