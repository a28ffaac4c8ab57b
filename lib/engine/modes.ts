import type { Mode } from './types';

/**
 * Modes as data. 0 means "none" so every field stays a plain integer.
 * - lineGoal: the game finishes ('goal') on the lock that reaches it.
 * - timeLimitTicks: the game finishes ('timeUp') at the end of that tick.
 * - levelEveryLines: 0 keeps the level fixed at startLevel.
 */
export const MODES = {
  marathon: { id: 0, lineGoal: 150, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 10, maxLevel: 15, result: 'score' },
  sprint: { id: 1, lineGoal: 40, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, result: 'time' },
  ultra: { id: 2, lineGoal: 0, timeLimitTicks: 7200, startLevel: 1, levelEveryLines: 0, maxLevel: 1, result: 'score' },
} as const satisfies Record<
  Mode,
  {
    id: number;
    lineGoal: number;
    timeLimitTicks: number;
    startLevel: number;
    levelEveryLines: number;
    maxLevel: number;
    result: 'score' | 'time';
  }
>;

export type ModeRules = (typeof MODES)[Mode];

export function levelFor(mode: ModeRules, lines: number): number {
  if (mode.levelEveryLines === 0) return mode.startLevel;
  return Math.min(mode.maxLevel, mode.startLevel + Math.floor(lines / mode.levelEveryLines));
}
