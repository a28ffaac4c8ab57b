import type { Mode } from './types';

/**
 * Modes as data. 0 means "none" so every field stays a plain integer.
 * - lineGoal: the game finishes ('goal') on the lock that reaches it.
 * - timeLimitTicks: the game finishes ('timeUp') at the end of that tick.
 * - levelEveryLines: 0 keeps the level fixed at startLevel.
 * - rankBy / better / needsFinish: how a finished game's result ranks on the boards. Every
 *   ranking fact (the board metric in TypeScript and SQL, chart direction, result format)
 *   is derived from these three, so a new mode is one entry here.
 */
export const MODES = {
  marathon: { id: 0, lineGoal: 150, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 10, maxLevel: 15, rankBy: 'score', better: 'higher', needsFinish: false },
  sprint: { id: 1, lineGoal: 40, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, rankBy: 'time', better: 'lower', needsFinish: true },
  ultra: { id: 2, lineGoal: 0, timeLimitTicks: 7200, startLevel: 1, levelEveryLines: 0, maxLevel: 1, rankBy: 'score', better: 'higher', needsFinish: false },
} as const satisfies Record<
  Mode,
  {
    id: number;
    lineGoal: number;
    timeLimitTicks: number;
    startLevel: number;
    levelEveryLines: number;
    maxLevel: number;
    /** 'time': the game's ticks; 'score': its points. */
    rankBy: RankBy;
    better: 'lower' | 'higher';
    /** A game that did not finish (a topped-out Sprint) has no result to rank. */
    needsFinish: boolean;
  }
>;

export type ModeRules = (typeof MODES)[Mode];
export type RankBy = 'time' | 'score';

export function levelFor(mode: ModeRules, lines: number): number {
  if (mode.levelEveryLines === 0) return mode.startLevel;
  return Math.min(mode.maxLevel, mode.startLevel + Math.floor(lines / mode.levelEveryLines));
}

/** The number a mode ranks by, as played: ticks for a time, points for a score. */
export function rankValue(mode: Mode, game: { ticks: number; score: number }): number {
  return MODES[mode].rankBy === 'time' ? game.ticks : game.score;
}

/** The board metric: the rank value signed so that lower is better for every mode. */
export function metricOf(mode: Mode, game: { ticks: number; score: number }): number {
  const value = rankValue(mode, game);
  return MODES[mode].better === 'lower' ? value : -value;
}

/** Whether a game has a result its mode ranks (a topped-out Sprint has no time). */
export function isRankable(mode: Mode, game: { finished: boolean }): boolean {
  return !MODES[mode].needsFinish || game.finished;
}
