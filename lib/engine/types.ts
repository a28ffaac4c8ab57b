import type { KEYS, MODE_NAMES, PIECES, ROTATIONS, VERSUS_MODE_NAMES } from './constants';
import type { LOCK_RULES } from './timing';

/** A solo mode. Code typed with Mode cannot receive a versus mode by accident. */
export type Mode = (typeof MODE_NAMES)[number];
export type VersusMode = (typeof VERSUS_MODE_NAMES)[number];
/** Any mode the engine plays: what a replay or a game config may carry. */
export type AnyMode = Mode | VersusMode;
export type Key = (typeof KEYS)[number];
export type PieceType = (typeof PIECES)[number];
export type Rotation = (typeof ROTATIONS)[number];
/** How a resting piece locks (timing.ts LOCK_RULES). */
export type LockRule = (typeof LOCK_RULES)[number];

/** das/arr in ticks; sdf a multiple of gravity or 'instant'. Bounds in constants.ts. */
export interface Handling {
  das: number;
  arr: number;
  sdf: number | 'instant';
  dasCut: boolean;
}

export interface InputEvent {
  key: Key;
  down: boolean;
}

export interface ReplayEvent {
  tick: number;
  key: Key;
  down: boolean;
}

/** Garbage that joined the player's queue at `tick` (versus only): the tick the receiver acknowledged it. */
export interface GarbageEvent {
  tick: number;
  size: number;
}

export interface Replay {
  rulesVersion: number;
  mode: AnyMode;
  seed: string;
  handling: Handling;
  nextCount?: number;
  events: ReplayEvent[];
  /** Versus replays only (and always there, possibly empty): incoming garbage in tick order. */
  garbage?: GarbageEvent[];
  /**
   * Versus under a keyed rules version (6) only, and always there: the seat of the match that
   * played it. Each seat's garbage holes are a stream of their own, so neither seat's holes tell
   * the other's (decision 0020).
   */
  seat?: 0 | 1;
  /** Rules 7 only, and always there: the room's rules, this seat and its target changes (room-rules.ts). */
  room?: RoomSeat;
}

/** A seat of a room: its rules, its number (0–15, its own hole stream) and, in its replay, its target changes. */
export interface RoomSeat {
  rules: RoomRules;
  seat: number;
  /** Manual targeting: at `tick` (before that tick's inputs) the seat aims at seat `target`. Tick order. */
  targets: TargetChange[];
}

export interface TargetChange {
  tick: number;
  target: number;
}

export interface PiecePlacement {
  type: PieceType;
  rotation: Rotation;
  x: number;
  y: number;
}

export interface GameConfig {
  mode: AnyMode;
  seed: string;
  handling: Handling;
  nextCount?: number;
  /**
   * The rules to play under; by default what new games of the mode use (RULES_VERSION or
   * VERSUS_RULES_VERSION). Playing back a replay passes the replay's own.
   */
  rulesVersion?: number;
  /**
   * Rows top to bottom, bottom-aligned: up to 20 visible rows, or up to 40 to fill hidden rows too
   * (a position taken from a fumen or a paused game).
   */
  board?: readonly string[];
  /** A piece already in hold (hold is still available to the first piece). */
  hold?: PieceType;
  /** Pieces dealt before the randomizer's first bag. */
  queue?: readonly PieceType[];
  /** Places the first piece directly instead of spawning it. */
  active?: PiecePlacement;
  /** Versus under a keyed rules version: the seat, whose own hole stream the game draws from (0 when absent). */
  seat?: 0 | 1;
  /** Rules 7 (and only there): the room's rules and this seat (its hole stream is 2 + seat). */
  room?: Omit<RoomSeat, 'targets'>;
  /** 'delay' by default; 'hardDrop' for a practice drill (timing.ts LOCK_RULES). Not in a replay. */
  lock?: LockRule;
}

export type Spin = 'none' | 'mini' | 'full';
/**
 * garbageOut: rising garbage pushed the stack past the top of the field (versus). wrongClear and
 * tooHigh: a drill's rule was broken (modes.ts DrillRules); like a top out, the game did not finish.
 */
export type GameOverReason = 'blockOut' | 'lockOut' | 'garbageOut' | 'wrongClear' | 'tooHigh';
export type FinishReason = 'goal' | 'timeUp';
export type EndReason = GameOverReason | FinishReason;

export type GameEvent =
  | { type: 'spawn'; piece: PieceType; x: number; y: number }
  | { type: 'move'; dx: number; dy: number; source: 'tap' | 'das' | 'gravity' }
  | { type: 'rotate'; from: Rotation; to: Rotation; kick: number; x: number; y: number }
  | { type: 'hold'; piece: PieceType; swappedFor: PieceType | null }
  | { type: 'softDrop'; rows: number }
  | { type: 'hardDrop'; rows: number }
  | {
      type: 'lock';
      piece: PieceType;
      rotation: Rotation;
      x: number;
      y: number;
      cells: Array<[number, number]>;
      linesCleared: number;
      clearedRows: number[];
      spin: Spin;
      b2b: boolean;
      combo: number;
      perfectClear: boolean;
      points: number;
      /** Garbage lines this lock is worth by the attack table (attack.ts), in every mode. */
      attack: number;
      /** What is left of `attack` after cancelling queued incoming garbage: sent to the opponent. 0 in solo modes. */
      sent: number;
    }
  | { type: 'garbageQueued'; size: number; column: number }
  | { type: 'garbageRise'; rows: number; queued: number }
  | { type: 'levelUp'; level: number }
  | { type: 'gameOver'; reason: GameOverReason }
  | { type: 'finished'; reason: FinishReason };

/** The counters a live frame and the live list show: what `stats()` reads without building a snapshot. */
export interface GameStats {
  score: number;
  lines: number;
  level: number;
  pieces: number;
  tick: number;
}

/** Everything a renderer draws, and GameStats' counters. */
export interface Snapshot extends GameStats {
  board: string[];
  active: PiecePlacement | null;
  ghost: PiecePlacement | null;
  hold: PieceType | null;
  holdUsed: boolean;
  next: PieceType[];
  /** Consecutive clearing pieces minus one; -1 when no chain is running. */
  combo: number;
  /** True when the next difficult clear scores back-to-back. */
  b2b: boolean;
  /** Key presses that changed a key's state so far (KPP = keys / pieces). */
  keys: number;
  /** Keys held down after this tick's inputs, in KEYS order: the replay viewer's input display. */
  held: Key[];
  over: boolean;
  finished: boolean;
  toppedOut: boolean;
  reason: EndReason | null;
  /** What the mode's goal counts so far (modes.ts goalOf): lines cleared, or in Dig the garbage rows dug out. */
  progress: number;
  /** Incoming garbage rows waiting to rise (the meter beside the field); 0 in solo modes. */
  garbageQueued: number;
  /** The clears a drill counts (T-spin doubles, perfect clears: modes.ts DrillRules); 0 elsewhere. */
  clears: number;
  /**
   * Of those, the rows no longer in flight: what the next lock that clears nothing raises (up to the
   * rise cap). All of them under rules without a garbage delay; under rules 6 the rest land within
   * GARBAGE_DELAY ticks, the same for everyone (the meter shows both).
   */
  garbageReady: number;
}

export interface ReplayResult {
  score: number;
  lines: number;
  level: number;
  ticks: number;
  pieces: number;
  /** Key-down events that changed a key's state. */
  keys: number;
  /** Pieces per second × 1000, floored. */
  pps: number;
  /** Keys per piece × 1000, floored; 0 before the first piece locks. */
  kpp: number;
  finished: boolean;
  toppedOut: boolean;
  /** The game finished or topped out within maxTicks. */
  ended: boolean;
  reason: EndReason | null;
  hash: string;
  /** Replay events that were never applied because the game had ended (or maxTicks ran out). */
  unusedEvents: number;
  /** Versus replays only: garbage rows sent (after cancelling), received, and still queued at the end. */
  versus?: { sent: number; received: number; queued: number; unusedGarbage: number };
  /** Drill modes only (modes.ts DrillRules, so every other result is as it was): the clears the mode counts. */
  clears?: number;
}

/** How a room picks whom an attack goes to (room-rules.ts TARGETINGS lists them, targeting.ts plays them). */
export type Targeting = 'even' | 'random' | 'kos' | 'attackers' | 'manual';
/** The names of room-rules.ts's back-to-back and combo tables; the tables must have exactly these keys. */
export type B2BTable = 'guideline' | 'none' | 'double';
export type ComboTable = 'guideline' | 'none' | 'steep';

/**
 * A room's rules, as data (rules version 7, decision 0031). Every field is an integer, a boolean
 * or a name from a short list, so a rules object is stored with the match and every seat's game
 * re-simulates from it exactly. room-rules.ts holds the limits, the defaults and the checks.
 */
export interface RoomRules {
  targeting: Targeting;
  /** null: free-for-all (each seat its own team); else one team number per seat, 0–7. */
  teams: readonly number[] | null;
  /** Ticks from an attack joining the receiver's queue to when it may rise. */
  garbageDelay: number;
  /** Most queued rows one lock that clears nothing raises. */
  garbageCap: number;
  /** Percent chance that each row of a message after the first moves its hole (0: one hole per message). */
  messiness: number;
  /** Attack × this / 100, rounded down. */
  attackPercent: number;
  b2b: B2BTable;
  combo: ComboTable;
  /** Pieces shown ahead; every seat plays with this preview. */
  preview: number;
  hold: boolean;
  startLevel: number;
  /** 0: gravity follows the level; else fixed at this level's gravity. */
  gravityLevel: number;
  /** Games a team must win to take the set. */
  firstTo: number;
  /** Ticks a game may last (0: none); at the limit the team that sent the most rows wins, a tie is a draw. */
  timeLimitTicks: number;
}
