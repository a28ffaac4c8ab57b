import { PIECE_I, PIECE_O } from './pieces';

type Offsets = readonly (readonly [number, number])[];
type PerState = readonly [Offsets, Offsets, Offsets, Offsets];

/**
 * SRS kick tests 2–5 for clockwise turns, keyed by the state turned from (0, R, 2, L); test 1 is
 * always (0, 0). A counter-clockwise turn b→a is the clockwise a→b undone, so its offsets are the
 * negation: they are derived below, not written out.
 */
export const JLSTZ_CW: PerState = [
  [[-1, 0], [-1, 1], [0, -2], [-1, -2]],
  [[1, 0], [1, -1], [0, 2], [1, 2]],
  [[1, 0], [1, 1], [0, -2], [1, -2]],
  [[-1, 0], [-1, -1], [0, 2], [-1, 2]],
];
export const I_CW: PerState = [
  [[-2, 0], [1, 0], [-2, -1], [1, 2]],
  [[-1, 0], [2, 0], [-1, 2], [2, -1]],
  [[2, 0], [-1, 0], [2, 1], [-1, -2]],
  [[1, 0], [-2, 0], [1, -2], [-2, 1]],
];
/**
 * SRS+ 180° tests 2–6 from states 0 and R. From 2 the table is 0's negated (the same turn
 * backwards); from L it is R's mirrored left-right.
 */
export const JLSTZ_180_FROM_0: Offsets = [[0, 1], [1, 1], [-1, 1], [1, 0], [-1, 0]];
export const JLSTZ_180_FROM_R: Offsets = [[1, 0], [1, 2], [1, 1], [0, 2], [0, 1]];
/** SRS+ I 180°: one extra test from 0 and R, negated from 2 and L. */
export const I_180_FROM_0: Offsets = [[0, 1]];
export const I_180_FROM_R: Offsets = [[1, 0]];

const negate = (t: Offsets): Offsets => t.map(([x, y]) => [-x, -y] as const);
const mirror = (t: Offsets): Offsets => t.map(([x, y]) => [-x, y] as const);
const ccwFrom = (cw: PerState, from: number): Offsets => negate(cw[(from + 3) & 3]!);

/** Turn ids: the number of clockwise quarter turns. */
export const TURN_CW = 1;
export const TURN_180 = 2;
export const TURN_CCW = 3;
const MAX_TESTS = 6;

/** KICKS[slot * 12 + 2t] / [+1] = offset of test t; KICK_COUNT[slot]; slot = (set * 4 + from) * 4 + turn. */
export const KICKS = new Int8Array(3 * 4 * 4 * MAX_TESTS * 2);
export const KICK_COUNT = new Uint8Array(3 * 4 * 4);

/** Offset tests (including the leading (0, 0)) for one turn; used to fill KICKS and by tests. */
export function kickTests(piece: number, from: number, turn: number): Offsets {
  if (piece === PIECE_O) return [[0, 0]];
  const isI = piece === PIECE_I;
  const cw = isI ? I_CW : JLSTZ_CW;
  let rest: Offsets;
  if (turn === TURN_CW) rest = cw[from]!;
  else if (turn === TURN_CCW) rest = ccwFrom(cw, from);
  else {
    const from0 = isI ? I_180_FROM_0 : JLSTZ_180_FROM_0;
    const fromR = isI ? I_180_FROM_R : JLSTZ_180_FROM_R;
    rest = [from0, fromR, negate(from0), isI ? negate(fromR) : mirror(fromR)][from]!;
  }
  return [[0, 0], ...rest];
}

export function kickSet(piece: number): number {
  return piece === PIECE_O ? 2 : piece === PIECE_I ? 1 : 0;
}

for (const [set, piece] of [[0, 2], [1, PIECE_I], [2, PIECE_O]] as const) {
  for (let from = 0; from < 4; from++) {
    for (const turn of [TURN_CW, TURN_180, TURN_CCW]) {
      const slot = (set * 4 + from) * 4 + turn;
      const tests = kickTests(piece, from, turn);
      KICK_COUNT[slot] = tests.length;
      tests.forEach(([x, y], t) => {
        KICKS[slot * MAX_TESTS * 2 + 2 * t] = x;
        KICKS[slot * MAX_TESTS * 2 + 2 * t + 1] = y;
      });
    }
  }
}
export const KICK_STRIDE = MAX_TESTS * 2;
