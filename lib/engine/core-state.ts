import { COLS, collides, newBoard, TOTAL_ROWS } from './board';
import { garbageDelayOf, keysOf, PIECES } from './constants';
import { END_BLOCK_OUT, END_GOAL, END_NAMES, END_NONE } from './ends';
import { gravityFor, softDropSpeed } from './gravity';
import { cheeseOf, drillOf, type CheeseRules, type DrillRules, type ModeRules } from './modes';
import { SPAWN_X, SPAWN_Y } from './pieces';
import type { KeyStream } from './keystream';
import type { DealtQueue, PieceQueue } from './queue';
import type { GameEvent, GameOverReason, RoomRules } from './types';

/** The end reasons a top out (a game over) may carry, by id. */
const GAME_OVER_NAMES: ReadonlyArray<GameOverReason | undefined> = END_NAMES.map((n) => (n === null || n === 'goal' || n === 'timeUp' ? undefined : n));

// Hot-path imports re-bound locally: under tsx / vite-node an imported binding is a getter call.
const hits = collides;
const SPAWN_COL: number = SPAWN_X;
const SPAWN_ROW: number = SPAWN_Y;

export interface CoreSettings {
  mode: ModeRules;
  /** The rules version played (constants.ts RULES): fixed for the game, not part of the state or hash. */
  rulesVersion: number;
  das: number;
  arr: number;
  /** 0 = instant soft drop. */
  sdf: number;
  dasCut: boolean;
  /** False under the 'hardDrop' lock rule (timing.ts LOCK_RULES): a resting piece waits for a hard drop. */
  lockOnRest: boolean;
  emit: boolean;
  /** The seed's pieces under the rules version's randomizer (queue.ts seededQueue). */
  queue: PieceQueue;
  /** mulberry32's hole state (garbage.ts, rules 2 and 4); unused and unhashed in solo modes. */
  holeRng: number;
  /** The keyed hole stream (rules 6, and Dig under 5); null otherwise, and in a dealt game, which is told each column. */
  holeStream: KeyStream | null;
  /** Rules 7: the room's rules (attack, cap, messiness, delay, hold, level); null otherwise. */
  room: RoomRules | null;
}

/**
 * The whole mutable game state and the steps every part of a tick shares (spawn, top out, finish,
 * events). All fields are integers or booleans so the state hashes and clones exactly; nothing
 * here allocates unless `emit` is on. The per-tick logic is Core's (core.ts); the steps it calls
 * (moves.ts, lock.ts, garbage.ts, cheese.ts, survival.ts) take this type, so none of them imports
 * core.ts, which imports them.
 */
export class CoreState {
  readonly mode: ModeRules;
  /** The mode's drill rules (NO_DRILL for a classic mode): read on every lock, so looked up once. */
  readonly drill: DrillRules;
  readonly rulesVersion: number;
  /** Key ids below this are keys of the rules version; callers refuse the others before input(). */
  readonly keyCount: number;
  readonly das: number;
  readonly arr: number;
  readonly sdf: number;
  readonly dasCut: boolean;
  readonly lockOnRest: boolean;
  readonly emit: boolean;
  out: GameEvent[] | null = null;

  board: Int32Array = newBoard();
  /** Piece id + 1 per cell (8 = garbage), row-major from the bottom: for rendering and hashing. */
  colors = new Uint8Array(TOTAL_ROWS * COLS);
  /** Seeded (replays, practice, the server) or dealt (a live game in the browser, deal.ts). */
  queue: PieceQueue | DealtQueue;

  piece = -1;
  rot = 0;
  x = 0;
  y = 0;
  slot = 0;
  hold = -1;
  holdUsed = false;

  tickNo = 0;
  score = 0;
  lines = 0;
  level: number;
  combo = -1;
  b2b = false;
  pieces = 0;
  keys = 0;
  ended = false;
  toppedOut = false;
  reason = END_NONE;

  held = 0;
  dir = 0;
  dasTicks = 0;
  arrTimer = 0;

  gravity: number;
  softSpeed: number;
  gravAcc = 0;
  lockTimer = 0;
  resets = 0;
  lowestY = 0;
  lastRotated = false;
  lastKick = 0;
  lastTurn = 0;

  // Versus only (mode.garbage); hashed only then, so solo states and goldens are unchanged.
  /** Incoming messages waiting to rise, oldest first, each rows × 16 + hole column (garbage.ts). */
  garbageQueue: number[] = [];
  /**
   * Rules with a garbage delay (6): the tick each queued message may rise from, in step with
   * garbageQueue. Empty under the others, where a queued message may rise at once.
   */
  garbageLands: number[] = [];
  /** Ticks from a message joining the queue to when it may rise; null: at once (rules 2 and 4). */
  readonly garbageDelay: number | null;
  /** Rules 7: the room's rules, fixed for the game (room-rules.ts); null under every other version. */
  readonly room: RoomRules | null;
  holeRng: number;
  holeStream: KeyStream | null;
  /** The last message's hole column; -1 before the first. */
  holeCol = -1;
  /** Garbage rows sent so far (attack left after cancelling) and received into the queue. */
  sent = 0;
  received = 0;
  /** Drills only (hashed only then): the clears the mode counts (T-spin doubles, perfect clears). */
  clears = 0;

  // Dig only (mode.cheese, cheese.ts); hashed only then, so every other hash is unchanged.
  readonly cheese: CheeseRules | null;
  /** Garbage rows in the field now (rows 0 … cheeseIn − 1), risen so far (the first ones included) and cleared. */
  cheeseIn = 0;
  cheeseRisen = 0;
  cheeseCleared = 0;
  /** A dealt game's hole columns given by the host and not yet risen, in order (a seeded game draws instead). */
  givenHoles: number[] = [];

  constructor(s: CoreSettings) {
    this.mode = s.mode;
    this.drill = drillOf(s.mode);
    this.rulesVersion = s.rulesVersion;
    this.keyCount = keysOf(s.rulesVersion);
    this.das = s.das;
    this.arr = s.arr;
    this.sdf = s.sdf;
    this.dasCut = s.dasCut;
    this.lockOnRest = s.lockOnRest;
    this.emit = s.emit;
    this.queue = s.queue;
    this.holeRng = s.holeRng;
    this.holeStream = s.holeStream;
    this.room = s.room;
    this.garbageDelay = s.room ? s.room.garbageDelay : garbageDelayOf(s.rulesVersion);
    this.cheese = cheeseOf(s.mode);
    this.level = s.room ? s.room.startLevel : s.mode.startLevel;
    this.gravity = gravityFor(s.room?.gravityLevel || this.level);
    this.softSpeed = softDropSpeed(this.gravity, s.sdf);
  }

  push(e: GameEvent): void {
    (this.out ??= []).push(e);
  }

  setLevel(level: number): void {
    this.level = level;
    this.gravity = gravityFor(this.room?.gravityLevel || level);
    this.softSpeed = softDropSpeed(this.gravity, this.sdf);
  }

  /**
   * Whether the piece rested at the end of the last step (1/0), or -1 when unknown. A cache for
   * skipQuiet only, derived from the state, so it is not part of the hash.
   */
  restingHint = -1;
  /** Spawn rows 21–22, then one row down at once if free; overlapping at spawn is a block out. */
  spawn(piece: number): void {
    this.piece = piece;
    this.rot = 0;
    this.slot = piece * 4;
    this.x = SPAWN_COL;
    this.y = SPAWN_ROW;
    this.place();
    if (hits(this.board, this.slot, this.x, this.y)) {
      this.topOut(END_BLOCK_OUT);
      return;
    }
    if (!hits(this.board, this.slot, this.x, this.y - 1)) this.y--;
    this.lowestY = this.y;
    if (this.emit) this.push({ type: 'spawn', piece: PIECES[piece]!, x: this.x, y: this.y });
  }

  /** Fresh per-piece state, shared by spawning and by placing a configured piece. */
  place(): void {
    this.lockTimer = 0;
    this.resets = 0;
    this.gravAcc = 0;
    this.lastRotated = false;
    this.lastKick = 0;
    this.lastTurn = 0;
    this.lowestY = this.y;
    if (this.dasCut) {
      this.dasTicks = -1;
      this.arrTimer = 0;
    }
  }

  topOut(reason: number): void {
    this.ended = true;
    this.toppedOut = true;
    this.reason = reason;
    if (this.emit) this.push({ type: 'gameOver', reason: GAME_OVER_NAMES[reason] ?? 'lockOut' });
  }

  finish(reason: number): void {
    this.ended = true;
    this.reason = reason;
    if (this.emit) this.push({ type: 'finished', reason: reason === END_GOAL ? 'goal' : 'timeUp' });
  }
}
