import { isDifficult } from './scoring';

/**
 * Versus attack: garbage lines one lock sends, as data (the guideline / Jstris defaults).
 * By [spin][lines cleared], spin ids as in scoring.ts (none, mini, full). A mini T-spin clears at
 * most two lines; its unreachable entries repeat the last one, as LINE_CLEAR_POINTS does.
 */
export const ATTACK_LINES = [
  [0, 0, 1, 2, 4],
  [0, 0, 1, 1, 1],
  [0, 2, 4, 6, 6],
] as const;

/** Added to a back-to-back clear (a Tetris or line-clearing T-spin after another). */
export const B2B_ATTACK = 1;

/**
 * Added by the combo count of a clearing lock (0 for the first clear of a chain, 1 for the second,
 * …); past the end of the table the last entry holds.
 */
export const COMBO_ATTACK = [0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5] as const;

/** Added when the lock leaves the field empty; on top of the clear's own attack. */
export const PERFECT_CLEAR_ATTACK = 10;

/** The most one lock can send: T-spin triple, back-to-back, the longest combo, perfect clear. */
export const MAX_ATTACK = ATTACK_LINES[2][3] + B2B_ATTACK + COMBO_ATTACK[COMBO_ATTACK.length - 1]! + PERFECT_CLEAR_ATTACK;

const LAST_COMBO = COMBO_ATTACK.length - 1;

/**
 * Garbage lines for one lock. b2bActive: the previous clear was difficult (the same flag scoring
 * uses); combo: this clear's combo count (−1 or 0 when it starts no chain).
 */
export function attackFor(spin: number, lines: number, b2bActive: boolean, combo: number, perfectClear: boolean): number {
  if (lines === 0) return 0;
  let attack: number = (ATTACK_LINES[spin] ?? ATTACK_LINES[0])[Math.min(lines, 4)] ?? 0;
  if (b2bActive && isDifficult(spin, lines)) attack += B2B_ATTACK;
  if (combo > 0) attack += COMBO_ATTACK[Math.min(combo, LAST_COMBO)]!;
  if (perfectClear) attack += PERFECT_CLEAR_ATTACK;
  return attack;
}
