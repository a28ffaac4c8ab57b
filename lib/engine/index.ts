export {
  RULES_VERSION, SUPPORTED_RULES_VERSIONS, TICKS_PER_SECOND, KEYS, PIECES, ROTATIONS, MODE_NAMES,
  MIN_SEED_LENGTH, MAX_SEED_LENGTH, DAS_MIN, DAS_MAX, ARR_MIN, ARR_MAX, SDF_MIN, SDF_MAX,
  NEXT_COUNT_MIN, NEXT_COUNT_MAX, DEFAULT_NEXT_COUNT, MAX_REPLAY_TICKS, MAX_REPLAY_EVENTS,
  MAX_EVENT_TICK, MAX_REPLAY_BYTES, MAX_REPLAY_ENCODED_LENGTH,
} from './constants';
export { MODES, rankValue, metricOf, isRankable, type RankBy } from './modes';
export { GRAVITY } from './gravity';
export { placedCells } from './pieces';
export { LINE_CLEAR_POINTS, PERFECT_CLEAR_POINTS, PERFECT_CLEAR_B2B_TETRIS, COMBO_POINTS } from './scoring';
export { LOCK_DELAY, MAX_LOCK_RESETS } from './core';
export { createGame, NO_EVENTS, type Game } from './game';
export { CELL_CHARS } from './setup';
export { COLS, VISIBLE_ROWS, TOTAL_ROWS } from './board';
export { simulateReplay, type SimulateOptions } from './simulate';
export { encodeReplay, decodeReplay, REPLAY_FORMAT_VERSION } from './codec';
export { ReplayDecodeError, ReplayError, GameConfigError, type ReplayDecodeErrorCode, type ReplayErrorCode } from './errors';
export type {
  Mode, Key, PieceType, Rotation, Handling, InputEvent, ReplayEvent, Replay, GameConfig, PiecePlacement,
  GameEvent, Snapshot, ReplayResult, Spin, EndReason, GameOverReason, FinishReason,
} from './types';
import type { Handling } from './types';

/** Guideline-like defaults: 10-tick DAS (≈167 ms), 2-tick ARR, 20× soft drop, no DAS cut. */
export const DEFAULT_HANDLING: Readonly<Handling> = Object.freeze({ das: 10, arr: 2, sdf: 20, dasCut: false });
