export {
  RULES, keysOf, isKeyed, isRoomRules, garbageDelayOf, type RulesVersion, RULES_VERSION, SUPPORTED_RULES_VERSIONS, VERSUS_RULES_VERSION, VERSUS_RULES_VERSIONS, TICKS_PER_SECOND, KEYS, PIECES,
  ROTATIONS, MODE_NAMES, VERSUS_MODE_NAMES, MAX_GARBAGE_SIZE,
  MIN_SEED_LENGTH, MAX_SEED_LENGTH, DAS_MIN, DAS_MAX, ARR_MIN, ARR_MAX, SDF_MIN, SDF_MAX,
  NEXT_COUNT_MIN, NEXT_COUNT_MAX, DEFAULT_NEXT_COUNT, MAX_REPLAY_TICKS, MAX_REPLAY_EVENTS,
  MAX_EVENT_TICK, MAX_REPLAY_BYTES, MAX_REPLAY_ENCODED_LENGTH,
} from './constants';
export {
  MODES, ALL_MODE_NAMES, RANKED_MODE_NAMES, CLEAR_SPAN, CLEAR_CAP, cheeseOf, goalOf, modeById, rankValue, metricOf, isRankable, isRanked, isVersusMode, drillOf,
  type RankBy, type RankedGame, type DrillRules, type ModeRules,
} from './modes';
export { END_NAMES } from './ends';
export { ATTACK_LINES, B2B_ATTACK, COMBO_ATTACK, PERFECT_CLEAR_ATTACK, MAX_ATTACK, attackFor } from './attack';
export { GARBAGE_RISE_CAP, holeState } from './garbage';
export { GRAVITY } from './gravity';
export { placedCells } from './pieces';
export { LINE_CLEAR_POINTS, PERFECT_CLEAR_POINTS, PERFECT_CLEAR_B2B_TETRIS, COMBO_POINTS } from './scoring';
export { LOCK_DELAY, MAX_LOCK_RESETS } from './core';
export { LOCK_RULES } from './timing';
export { createGame, NO_EVENTS, replayConfig, type Game } from './game';
export { InputLog } from './input-log';
export { type FinesseTally, type PieceFinesse } from './finesse';
export { FINESSE_MOVES, type FinesseMove } from './finesse-table';
export { finesseOfReplay } from './finesse-replay';
export {
  VersusGame, VersusMatch, ACK_DEADLINE_TICKS, MAX_MATCH_SEED_LENGTH, MAX_FIRST_TO,
  type Player, type GarbageMessage, type GameOutcome, type GameEndReason, type RefereeTick, type VersusGameConfig, type MatchConfig,
} from './match';
export {
  DEFAULT_ROOM_RULES, ROOM_RULE_LIMITS, TARGETINGS, B2B_TABLES, COMBO_TABLES, MIN_SEATS, MAX_SEATS, MAX_TEAMS, checkRoomRules, teamsOf, roomAttack,
  type RoomRules, type Targeting, type B2BTable, type ComboTable,
} from './room-rules';
export { RoomGame, RoomInputError, ROOM_RULES_VERSION, type RoomGameConfig, type RoomAttack, type RoomTick, type RoomOutcome, type RoomEndReason } from './referee';
export { RoomMatch } from './room-match';
export { feedRoomTick, replayRoom, roomCursor, type RoomCursor, type RoomLeave, type RoomRerun } from './room-replay';
export { CELL_CHARS } from './setup';
export { COLS, VISIBLE_ROWS, TOTAL_ROWS } from './board';
export { simulatePacked, simulateReplay, type SimulateOptions } from './simulate';
export { keyId } from './keys';
export { createDealtGame, HOLES_AHEAD, pieceSequence, type DealtGame, type DealtGameConfig } from './deal';
export { holeSequence } from './cheese';
export { createStreamSim, type StreamSim } from './stream';
export { restoreDealtGame, type GameState } from './state';
export {
  encodeReplay, decodeReplay, decodeSoloReplay, decodePackedReplay, decodeSoloPacked, packEvents, unpackReplay, ReplaySizeBound, REPLAY_FORMAT_VERSION, VERSUS_REPLAY_FORMAT_VERSION,
  type PackedInputs, type PackedReplay, type SoloReplay,
} from './codec';
export { ReplayDecodeError, ReplayError, GameConfigError, type ReplayDecodeErrorCode, type ReplayErrorCode } from './errors';
export type {
  Mode, VersusMode, AnyMode, GarbageEvent, Key, PieceType, Rotation, Handling, InputEvent, ReplayEvent, Replay, GameConfig, PiecePlacement,
  LockRule, GameEvent, RoomSeat, TargetChange, GameStats, Snapshot, ReplayResult, Spin, EndReason, GameOverReason, FinishReason,
} from './types';
import type { Handling } from './types';

/** Guideline-like defaults: 10-tick DAS (≈167 ms), 2-tick ARR, 20× soft drop, no DAS cut. */
export const DEFAULT_HANDLING: Readonly<Handling> = Object.freeze({ das: 10, arr: 2, sdf: 20, dasCut: false });
