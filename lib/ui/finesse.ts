import { FINESSE_MOVES, type FinesseMove, type PieceFinesse } from '@/lib/engine';

/** How each step of a shortest path reads to the player. */
export function moveText(move: FinesseMove): string {
  switch (move) {
    case 'left':
      return 'tap left';
    case 'right':
      return 'tap right';
    case 'dasLeft':
      return 'hold left';
    case 'dasRight':
      return 'hold right';
    case 'cw':
      return 'rotate clockwise';
    case 'ccw':
      return 'rotate counter-clockwise';
    case 'half':
      return 'rotate 180°';
    default:
      return move satisfies never;
  }
}

/** Every move has its words (a test walks the list). */
export const MOVE_TEXTS: Readonly<Record<FinesseMove, string>> = Object.fromEntries(FINESSE_MOVES.map((m) => [m, moveText(m)])) as Record<FinesseMove, string>;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "3 inputs, 1 needed: hold left". A piece not judged, or one with no fault, has no explanation. */
export function explainFault(p: Pick<PieceFinesse, 'inputs' | 'needed' | 'path' | 'faults'>): string | null {
  if (p.needed === null || p.faults === 0) return null;
  const how = p.path.length === 0 ? 'no input (drop it where it spawns)' : p.path.map(moveText).join(', ');
  return `${plural(p.inputs, 'input')}, ${p.needed} needed: ${how}`;
}

/** A board cell or a result line: the count, or a dash where none was counted. */
export function formatFaults(faults: number | null): string {
  return faults === null ? '—' : String(faults);
}
