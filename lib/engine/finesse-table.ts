import { collides, COLS, dropDistance, newBoard } from './board';
import { kickTests, TURN_180, TURN_CCW, TURN_CW } from './kicks';
import { CELLS, SPAWN_X, SPAWN_Y } from './pieces';

/**
 * The fewest inputs that reach each placement from the spawn, on an empty field: the finesse
 * chart, computed rather than typed out, from the same shapes and kick tables the game plays.
 * An input is one press: a tap moves one column, a direction held past DAS goes to the wall, each
 * rotation key is one turn (kicks included; the 180° key only where the rules play it). Hard drop
 * is not counted. Placements are compared by the cells they fill once dropped, so the two
 * horizontal I or S/Z states, and the vertical ones one column apart, are the same placement.
 */

/** One step of a shortest path; the text for each is lib/ui/finesse.ts. */
export const FINESSE_MOVES = ['left', 'right', 'dasLeft', 'dasRight', 'cw', 'ccw', 'half'] as const;
export type FinesseMove = (typeof FINESSE_MOVES)[number];

export interface FinesseTarget {
  /** Fewest inputs. */
  readonly needed: number;
  /** One shortest sequence (rotations tried before shifts, so a tie reads "rotate, then move"). */
  readonly path: readonly FinesseMove[];
}

const STATE_X = 16; // x + 3 fits 0..15: every x a piece can have on the field
type Node = { rot: number; x: number; y: number; path: FinesseMove[] };

/** The filled cells once dropped, as one number: bit (row × 10 + column) of the rows from the floor. */
function restingKey(piece: number, rot: number, x: number): number {
  const o = (piece * 4 + rot) * 8;
  let minDy = 9;
  for (let i = 1; i < 8; i += 2) minDy = Math.min(minDy, CELLS[o + i]!);
  let key = 0;
  for (let i = 0; i < 8; i += 2) key += 2 ** ((CELLS[o + i + 1]! - minDy) * COLS + x + CELLS[o + i]!);
  return key;
}

/** Breadth-first from the spawn over every input; the first path to reach a placement is a shortest one. */
function buildPiece(piece: number, half: boolean): Map<number, FinesseTarget> {
  const board = newBoard();
  const fits = (rot: number, x: number, y: number) => !collides(board, piece * 4 + rot, x, y);
  const seen = new Set<number>();
  const out = new Map<number, FinesseTarget>();
  // The piece drops one row at once after spawning (core.ts spawn).
  let level: Node[] = [{ rot: 0, x: SPAWN_X, y: SPAWN_Y - 1, path: [] }];
  const turns: Array<[FinesseMove, number]> = [['cw', TURN_CW], ['ccw', TURN_CCW], ...(half ? [['half', TURN_180] as [FinesseMove, number]] : [])];
  while (level.length > 0) {
    const next: Node[] = [];
    for (const n of level) {
      const id = (n.rot * STATE_X + n.x + 3) * 64 + n.y;
      if (seen.has(id)) continue;
      seen.add(id);
      const key = restingKey(piece, n.rot, n.x);
      if (!out.has(key)) out.set(key, { needed: n.path.length, path: n.path });
      const go = (move: FinesseMove, rot: number, x: number, y: number) => next.push({ rot, x, y, path: [...n.path, move] });
      for (const [move, turn] of turns) {
        const to = (n.rot + turn) & 3;
        const kick = kickTests(piece, n.rot, turn).find(([dx, dy]) => fits(to, n.x + dx, n.y + dy));
        if (kick) go(move, to, n.x + kick[0], n.y + kick[1]);
      }
      for (const [tap, das, dir] of [['left', 'dasLeft', -1], ['right', 'dasRight', 1]] as const) {
        if (!fits(n.rot, n.x + dir, n.y)) continue;
        go(tap, n.rot, n.x + dir, n.y);
        let x = n.x + dir;
        while (fits(n.rot, x + dir, n.y)) x += dir;
        go(das, n.rot, x, n.y);
      }
    }
    level = next;
  }
  return out;
}

const tables = new Map<boolean, ReadonlyArray<Map<number, FinesseTarget>>>();

/**
 * The target for a piece placed in rotation `rot` with its reference point at column `x`
 * (pieces.ts), or null if no input sequence reaches it on an empty field. Built once per
 * variant (7 small searches), then a lookup.
 */
export function finesseTarget(piece: number, rot: number, x: number, half: boolean): FinesseTarget | null {
  let t = tables.get(half);
  if (!t) {
    t = Array.from({ length: 7 }, (_, p) => buildPiece(p, half));
    tables.set(half, t);
  }
  const o = (piece * 4 + rot) * 8;
  for (let i = 0; i < 8; i += 2) {
    const cx = x + CELLS[o + i]!;
    if (cx < 0 || cx >= COLS) return null;
  }
  return t[piece]!.get(restingKey(piece, rot, x)) ?? null;
}

/**
 * Whether a piece resting at (rot, x, y) on `board` could have got there by a straight drop from
 * the spawn rows: nothing over it in its columns. Tucks and spins (a soft drop, then a shift or
 * a turn under an overhang) fail this, and their finesse is not judged.
 */
export function droppedFromAbove(board: Int32Array, piece: number, rot: number, x: number, y: number): boolean {
  const slot = piece * 4 + rot;
  return !collides(board, slot, x, SPAWN_Y) && SPAWN_Y - dropDistance(board, slot, x, SPAWN_Y) === y;
}
