/** Spin ids used inside the engine; index into SPINS for the public name. */
export const SPIN_NONE = 0;
export const SPIN_MINI = 1;
export const SPIN_FULL = 2;
export const SPINS = ['none', 'mini', 'full'] as const;

/** Base points by [spin][lines cleared], multiplied by the level before the clear. */
export const LINE_CLEAR_POINTS = [
  [0, 100, 300, 500, 800],
  [100, 200, 400, 400, 400],
  [400, 800, 1200, 1600, 1600],
] as const;

/** Perfect-clear bonus by lines cleared (index 0 unused); added on top of the clear's points. */
export const PERFECT_CLEAR_POINTS = [0, 800, 1200, 1800, 2000] as const;
export const PERFECT_CLEAR_B2B_TETRIS = 3200;
export const COMBO_POINTS = 50;
export const SOFT_DROP_POINTS_PER_ROW = 1;
export const HARD_DROP_POINTS_PER_ROW = 2;

/** Tetrises and T-spins (mini included) that clear lines keep back-to-back alive. */
export function isDifficult(spin: number, lines: number): boolean {
  return lines === 4 || (spin !== SPIN_NONE && lines > 0);
}

/**
 * Points for one lock. b2bActive: the previous clear was difficult. combo: this clear's combo
 * count (0 for the first clear of a chain). Back-to-back ×1.5 is exact because every base is a
 * multiple of 100.
 */
export function scoreLock(
  spin: number,
  lines: number,
  level: number,
  b2bActive: boolean,
  combo: number,
  perfectClear: boolean,
): number {
  const row = LINE_CLEAR_POINTS[spin] ?? LINE_CLEAR_POINTS[0];
  let points = (row[Math.min(lines, 4)] ?? 0) * level;
  const b2b = b2bActive && isDifficult(spin, lines);
  if (b2b) points = (points * 3) / 2;
  if (lines > 0 && combo > 0) points += COMBO_POINTS * combo * level;
  if (perfectClear && lines > 0) {
    const bonus = lines >= 4 && b2b ? PERFECT_CLEAR_B2B_TETRIS : (PERFECT_CLEAR_POINTS[Math.min(lines, 4)] ?? 0);
    points += bonus * level;
  }
  return points;
}
