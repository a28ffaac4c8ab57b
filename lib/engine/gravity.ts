/** Fixed point: 1 row = 65536. */
export const ONE_ROW = 65536;
/** 20G: the most rows a piece can fall in one tick (the field height). */
export const MAX_ROWS_PER_TICK = 20 * ONE_ROW;

/**
 * Rows per tick × 65536 for levels 1…20, from the guideline curve
 * (0.8 − (L−1)·0.007)^(L−1) s/row, computed once, offline, and rounded up so level 1 is exactly
 * one row per 60 ticks (1092 would need 61); no float is involved at run time. Levels past 18 hit
 * the 20G cap.
 */
export const GRAVITY = [
  1093, 1378, 1769, 2311, 3076, 4169, 5759, 8107, 11635, 17027, 25416, 38709, 60169, 95484, 154743,
  256187, 433425, 749597, 1310720, 1310720,
] as const;

export function gravityFor(level: number): number {
  const i = Math.min(Math.max(level, 1), GRAVITY.length) - 1;
  return GRAVITY[i] ?? MAX_ROWS_PER_TICK;
}

/** Soft drop falls sdf times faster than gravity, capped at 20G so it stays a bounded loop. */
export function softDropSpeed(gravity: number, sdf: number): number {
  return Math.min(gravity * sdf, MAX_ROWS_PER_TICK);
}
