import { PIECES, ROTATIONS } from './constants';
import type { PiecePlacement } from './types';

/**
 * Piece shapes in spawn orientation (state 0), as cell offsets from the piece's reference point,
 * +x right, +y up. The reference point is the SRS rotation centre for J L S T Z; for I it is the
 * second cell from the left of the flat bar in state 0; for O its bottom-left cell. `centre2` is
 * twice the true rotation centre relative to that point, so the other states are derived by
 * rotating about it with integer arithmetic instead of being typed out.
 */
export const SHAPES = [
  { name: 'I', cells: [[-1, 0], [0, 0], [1, 0], [2, 0]], centre2: [1, -1] },
  { name: 'O', cells: [[0, 0], [1, 0], [0, 1], [1, 1]], centre2: [1, 1] },
  { name: 'T', cells: [[-1, 0], [0, 0], [1, 0], [0, 1]], centre2: [0, 0] },
  { name: 'S', cells: [[-1, 0], [0, 0], [0, 1], [1, 1]], centre2: [0, 0] },
  { name: 'Z', cells: [[-1, 1], [0, 1], [0, 0], [1, 0]], centre2: [0, 0] },
  { name: 'J', cells: [[-1, 1], [-1, 0], [0, 0], [1, 0]], centre2: [0, 0] },
  { name: 'L', cells: [[1, 1], [-1, 0], [0, 0], [1, 0]], centre2: [0, 0] },
] as const;

export const PIECE_I = 0;
export const PIECE_O = 1;
export const PIECE_T = 2;

/** Every piece spawns with its reference point here: rows 21–22 (1-based), 3-wide pieces left of centre. */
export const SPAWN_X = 4;
export const SPAWN_Y = 20;

/** Rotating (dx, dy) clockwise about centre c (given doubled) stays on integers for all seven. */
function rotateCW(cell: readonly [number, number], c: readonly [number, number]): [number, number] {
  const [dx, dy] = cell;
  return [dy + (c[0] - c[1]) / 2, -dx + (c[0] + c[1]) / 2];
}

/** CELLS[(piece * 4 + rotation) * 8 + 2 * i] = dx, [+1] = dy of cell i. */
export const CELLS = new Int8Array(7 * 4 * 8);
/**
 * Collision data: four rows per (piece, rotation), padded with empty rows so the hot check has no
 * loop. ROW_DY holds the row offset, ROW_MASK the cells of that row as bits (dx + 2).
 */
export const ROW_DY = new Int8Array(7 * 4 * 4);
export const ROW_MASK = new Int32Array(7 * 4 * 4);

for (let p = 0; p < SHAPES.length; p++) {
  const shape = SHAPES[p]!;
  let cells: Array<[number, number]> = shape.cells.map(([x, y]) => [x, y]);
  for (let r = 0; r < 4; r++) {
    const o = p * 4 + r;
    const rows = new Map<number, number>();
    cells.forEach(([dx, dy], i) => {
      CELLS[o * 8 + 2 * i] = dx;
      CELLS[o * 8 + 2 * i + 1] = dy;
      rows.set(dy, (rows.get(dy) ?? 0) | (1 << (dx + 2)));
    });
    let i = 0;
    for (const [dy, mask] of rows) {
      ROW_DY[o * 4 + i] = dy;
      ROW_MASK[o * 4 + i] = mask;
      i++;
    }
    cells = cells.map((c) => rotateCW(c, shape.centre2));
  }
}

/** The field cells a placed piece covers (x right, y up from the bottom row): for renderers and tests. */
export function placedCells(p: PiecePlacement): Array<[number, number]> {
  const slot = PIECES.indexOf(p.type) * 4 + ROTATIONS.indexOf(p.rotation);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < 8; i += 2) out.push([p.x + CELLS[slot * 8 + i]!, p.y + CELLS[slot * 8 + i + 1]!]);
  return out;
}
