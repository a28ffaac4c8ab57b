import { MODE_NAMES, VERSUS_MODE_NAMES } from './constants';
import type { AnyMode, Mode, VersusMode } from './types';

/**
 * Modes as data. 0 means "none" so every field stays a plain integer.
 * - lineGoal: the game finishes ('goal') on the lock that reaches it.
 * - timeLimitTicks: the game finishes ('timeUp') at the end of that tick.
 * - levelEveryLines: 0 keeps the level fixed at startLevel.
 * - rankBy / better / needsFinish: how a finished game's result ranks on the boards. Every
 *   ranking fact (the board metric in TypeScript and SQL, chart direction, result format)
 *   is derived from these three, so a new mode is one entry here.
 * - cheese (Dig): the field starts with garbage rows and the game finishes ('goal') when the last
 *   is cleared (cheese.ts). Only under keyed rules: the holes come from the seed's hole stream.
 * - ranked (solo, absent = true): false keeps the mode off every board, ticket and live start; it
 *   is played as practice only, on the device (Zen).
 * - drill (solo, absent = none): the counted clears, extra ends and the self-clearing field of the
 *   drill modes (DrillRules); the classic modes have none, so their play and hashes are unchanged.
 * - id: the mode byte of every stored replay, and part of the state hash. This is its only home:
 *   a new mode of either kind takes the next unused id, and no id is ever changed or reused
 *   (tests/engine/mode-ids.test.ts pins them), so no stored replay decodes as another mode.
 */
export const MODES = {
  marathon: { id: 0, kind: 'solo', lineGoal: 150, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 10, maxLevel: 15, garbage: false, rankBy: 'score', better: 'higher', needsFinish: false },
  sprint: { id: 1, kind: 'solo', lineGoal: 40, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: false, rankBy: 'time', better: 'lower', needsFinish: true },
  ultra: { id: 2, kind: 'solo', lineGoal: 0, timeLimitTicks: 7200, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: false, rankBy: 'score', better: 'higher', needsFinish: false },
  // Drills (decision 0030): what counts, what ends the game and what the field does are in `drill`.
  tsd20: {
    id: 5, kind: 'solo', lineGoal: 0, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: false, rankBy: 'time', better: 'lower', needsFinish: true,
    drill: { counts: 'tsd', goal: 20, onlyCounted: true, maxRows: 0, overflow: null },
  },
  pc: {
    id: 6, kind: 'solo', lineGoal: 0, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: false, rankBy: 'clears', better: 'higher', needsFinish: false,
    drill: { counts: 'perfect', goal: 0, onlyCounted: false, maxRows: 4, overflow: null },
  },
  zen: {
    id: 7, kind: 'solo', lineGoal: 0, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: false, rankBy: 'score', better: 'higher', needsFinish: false,
    ranked: false, drill: { counts: null, goal: 0, onlyCounted: false, maxRows: 0, overflow: { at: 16, keep: 8 } },
  },
  battle: { id: 3, kind: 'versus', lineGoal: 0, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: true, win: 'lastStanding', firstTo: 2 },
  race30: { id: 4, kind: 'versus', lineGoal: 30, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: true, win: 'goalOrLastStanding', firstTo: 2 },
  dig10: { id: 8, kind: 'solo', lineGoal: 0, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: false, rankBy: 'time', better: 'lower', needsFinish: true, cheese: { rows: 10, field: 10, messiness: 100 } },
  dig18: { id: 9, kind: 'solo', lineGoal: 0, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: false, rankBy: 'time', better: 'lower', needsFinish: true, cheese: { rows: 18, field: 10, messiness: 100 } },
  dig100: { id: 10, kind: 'solo', lineGoal: 0, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: false, rankBy: 'time', better: 'lower', needsFinish: true, cheese: { rows: 100, field: 10, messiness: 100 } },
  // Survival (survival.ts): rows rise on the clock, every 3 s at first, 0.1 s sooner every 5 rows, down to 0.8 s (from 3:34.5 on).
  survival: {
    id: 11, kind: 'solo', lineGoal: 0, timeLimitTicks: 0, startLevel: 1, levelEveryLines: 0, maxLevel: 1, garbage: false, rankBy: 'time', better: 'higher', needsFinish: false,
    cheese: { rows: 10_000, field: 0, messiness: 30, rise: { start: 180, step: 6, every: 5, min: 48 } },
  },
} as const satisfies { [M in Mode]: SoloRules } & { [M in VersusMode]: VersusRules };

interface CommonRules {
  /** The binary replay format's mode byte (see MODES). */
  id: number;
  lineGoal: number;
  timeLimitTicks: number;
  startLevel: number;
  levelEveryLines: number;
  maxLevel: number;
  /** Attacks are routed and incoming garbage queues and rises (versus rules version only). */
  garbage: boolean;
}
interface SoloRules extends CommonRules {
  kind: 'solo';
  /** 'time': the game's ticks; 'score': its points. */
  rankBy: RankBy;
  better: 'lower' | 'higher';
  /** A game that did not finish (a topped-out Sprint) has no result to rank. */
  needsFinish: boolean;
  cheese?: CheeseRules;
  ranked?: false;
  drill?: DrillRules;
}
/**
 * Dig's garbage (cheese.ts): `rows` in all, at most `field` of them in the field at once (the rest
 * rise one per lock as rows are cleared); a row's hole is in another column than the hole of the row
 * above it with probability `messiness` %, else in the same one.
 */
export interface CheeseRules {
  rows: number;
  field: number;
  messiness: number;
  /** Survival: rows also rise on the clock (survival.ts); `rows` is then a bound no game reaches in its hour, not a goal. */
  rise?: RiseRules;
}

/** Survival's clock: a row every `start` ticks, `step` ticks sooner every `every` rows, never sooner than every `min`. */
export interface RiseRules {
  start: number;
  step: number;
  every: number;
  min: number;
}

/** What a drill mode adds to the solo rules (lock.ts applies it after a lock's line clears). */
export interface DrillRules {
  /**
   * The clears the game counts (its `clears`): 'tsd', a lock that clears exactly two rows with a
   * full T-spin (a mini double is not one); 'perfect', a lock that leaves the field empty.
   */
  counts: 'tsd' | 'perfect' | null;
  /** The count that finishes the game ('goal'); 0: none. */
  goal: number;
  /** A line clear that is not counted ends the game ('wrongClear', a game over). */
  onlyCounted: boolean;
  /** A lock that leaves a cell in this row (0-based) or above, after its clears, ends the game ('tooHigh'); 0: none. */
  maxRows: number;
  /**
   * Instead of topping out: a lock that leaves a cell in row `at` or above makes the bottom rows
   * vanish until the stack is `keep` rows tall. With `at` ≤ 16 no piece can lock out or block out
   * (a resting piece reaches at most 4 rows above the stack, spawns are in rows 20–21).
   */
  overflow: { at: number; keep: number } | null;
}

/** No drill: a classic mode. */
export const NO_DRILL: DrillRules = Object.freeze({ counts: null, goal: 0, onlyCounted: false, maxRows: 0, overflow: null });

/** A mode's drill rules, NO_DRILL for a classic or versus mode. */
export function drillOf(rules: ModeRules): DrillRules {
  return 'drill' in rules ? rules.drill : NO_DRILL;
}

/** Whether a solo mode has boards (and so tickets and ranked live games); Zen is practice only. */
export function isRanked(mode: Mode): boolean {
  const rules: SoloRules = MODES[mode];
  return rules.ranked !== false;
}

/** The solo modes with boards, in MODE_NAMES order: what every board, period and ticket walk lists. */
export const RANKED_MODE_NAMES: readonly Mode[] = MODE_NAMES.filter(isRanked);
interface VersusRules extends CommonRules {
  kind: 'versus';
  /**
   * lastStanding: a game ends when a player tops out, the other wins it.
   * goalOrLastStanding: also won by the first to reach lineGoal (Race 30, the Game Boy rule).
   */
  win: 'lastStanding' | 'goalOrLastStanding';
  /** Games needed to win the set by default (first to 2 = best of 3); private rooms may pick another. */
  firstTo: number;
}

/** Whether a mode name is a versus mode; narrows for the compiler. */
export function isVersusMode(mode: AnyMode): mode is VersusMode {
  return MODES[mode].kind === 'versus';
}

/** Every mode, solo then versus, each list in its own order. */
export const ALL_MODE_NAMES: readonly AnyMode[] = [...MODE_NAMES, ...VERSUS_MODE_NAMES];

/** Modes by id, built from MODES: an id given twice is a mistake no replay may meet. */
const BY_ID: ReadonlyMap<number, AnyMode> = (() => {
  const byId = new Map<number, AnyMode>();
  for (const mode of ALL_MODE_NAMES) {
    const id = MODES[mode].id;
    const taken = byId.get(id);
    if (taken) throw new Error(`modes ${taken} and ${mode} share the replay id ${id}`);
    byId.set(id, mode);
  }
  return byId;
})();

/** The mode with a given format id, or undefined. */
export function modeById(id: number): AnyMode | undefined {
  return BY_ID.get(id);
}

export type ModeRules = (typeof MODES)[AnyMode];

/** What a mode's goal counts to (the snapshot's `progress` counts toward it): its line goal, Dig's rows, or 0 for none (Survival's rows are no goal). */
export function goalOf(mode: ModeRules): number {
  const cheese = cheeseOf(mode);
  if (cheese) return cheese.rise ? 0 : cheese.rows;
  return mode.lineGoal;
}

/** A mode's Dig garbage, or null: the one way code asks whether a mode digs. */
export function cheeseOf(mode: ModeRules): CheeseRules | null {
  return 'cheese' in mode ? mode.cheese : null;
}

/** 'time': the game's ticks (fewer or, with better 'higher', more: Survival); 'score': its points; 'clears': its counted clears, then fewer ticks. */
export type RankBy = 'time' | 'score' | 'clears';

/**
 * Ranking by clears then time packs both into one integer: clears × CLEAR_SPAN − ticks, so more
 * clears always win and, for the same count, fewer ticks. CLEAR_SPAN exceeds any game's ticks
 * (MAX_REPLAY_TICKS is one hour: 216 000), and the 32-bit metric holds CLEAR_CAP clears: a count
 * past it (a bot at the input limit could reach one in an hour) ranks as the cap, never overflows.
 */
export const CLEAR_SPAN = 262_144;
export const CLEAR_CAP = 8191;

export function levelFor(mode: ModeRules, lines: number): number {
  if (mode.levelEveryLines === 0) return mode.startLevel;
  return Math.min(mode.maxLevel, mode.startLevel + Math.floor(lines / mode.levelEveryLines));
}

/** What a stored or played game ranks by; a game without a count (a classic mode's) counts 0 clears. */
export type RankedGame = { ticks: number; score: number; clears?: number };

/** The number a mode ranks by, as played: ticks for a time, points for a score, clears and ticks packed for clears (CLEAR_SPAN). */
export function rankValue(mode: Mode, game: RankedGame): number {
  const rankBy = MODES[mode].rankBy;
  switch (rankBy) {
    case 'time':
      return game.ticks;
    case 'score':
      return game.score;
    case 'clears':
      return Math.min(game.clears ?? 0, CLEAR_CAP) * CLEAR_SPAN - Math.min(game.ticks, CLEAR_SPAN - 1);
    default:
      return rankBy satisfies never;
  }
}

/** The board metric: the rank value signed so that lower is better for every mode. */
export function metricOf(mode: Mode, game: RankedGame): number {
  const value = rankValue(mode, game);
  return MODES[mode].better === 'lower' ? value : -value;
}

/** Whether a game has a result its mode ranks (a topped-out Sprint has no time). */
export function isRankable(mode: Mode, game: { finished: boolean }): boolean {
  return !MODES[mode].needsFinish || game.finished;
}
