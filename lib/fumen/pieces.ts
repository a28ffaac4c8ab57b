import { Mino } from 'tetris-fumen';
import { placedCells, PIECES, ROTATIONS, type PieceType, type Rotation } from '@/lib/engine';

type FumenRotation = 'spawn' | 'right' | 'reverse' | 'left';

/** Fumen's rotation names in our order: 0, R (one turn clockwise), 2, L. */
export const FUMEN_ROTATIONS: Readonly<Record<Rotation, FumenRotation>> = { '0': 'spawn', R: 'right', '2': 'reverse', L: 'left' };

export function rotationFromFumen(r: string): Rotation | null {
  return ROTATIONS.find((ours) => FUMEN_ROTATIONS[ours] === r) ?? null;
}

const key = (x: number, y: number) => `${x},${y}`;

/**
 * Fumen turns every piece about its own reference cell, we turn I and O about the SRS centre, so
 * for some (piece, rotation) pairs the two reference points differ by a cell. The offset (where
 * fumen's reference point sits relative to ours, for the same four cells) is derived here from both libraries' cells, not typed in, and checked to be a pure
 * translation; `tests/unit/fumen.test.ts` covers all 28 pairs.
 */
const OFFSETS = new Map<string, [number, number]>();
for (const type of PIECES) {
  for (const rotation of ROTATIONS) {
    const ours = placedCells({ type, rotation, x: 0, y: 0 });
    const theirs = new Mino(type, FUMEN_ROTATIONS[rotation], 0, 0).positions().map((p) => [p.x, p.y] as const);
    const low = (cells: ReadonlyArray<readonly [number, number]>) => [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0])[0]!;
    const [ox, oy] = low(ours);
    const [tx, ty] = low(theirs);
    const dx = ox - tx;
    const dy = oy - ty;
    const shifted = new Set(theirs.map(([x, y]) => key(x + dx, y + dy)));
    if (!ours.every(([x, y]) => shifted.has(key(x, y)))) throw new Error(`fumen and engine shapes differ for ${type} ${rotation}`);
    OFFSETS.set(`${type}${rotation}`, [dx, dy]);
  }
}

export function offsetOf(type: PieceType, rotation: Rotation): [number, number] {
  return OFFSETS.get(`${type}${rotation}`)!;
}
