import { COLS, collides, dropDistance, newBoard, TOTAL_ROWS } from './board';
import { garbageDelayOf, keysOf, PIECES } from './constants';
import { END_BLOCK_OUT, END_GOAL, END_NAMES, END_NONE, END_TIME_UP } from './ends';
import { queueGarbage } from './garbage';
import { gravityFor, ONE_ROW, softDropSpeed } from './gravity';
import { lockPiece } from './lock';
import { K_SOFT } from './keys';
import { autoShift, keyEdge } from './moves';
import { LOCK_DELAY, MAX_LOCK_RESETS } from './timing';
import { cheeseOf, drillOf, type CheeseRules, type DrillRules, type ModeRules } from './modes';
import { SPAWN_X, SPAWN_Y } from './pieces';
import type { KeyStream } from './keystream';
import type { DealtQueue, PieceQueue } from './queue';
import { SOFT_DROP_POINTS_PER_ROW } from './scoring';
import { quietTicksBeforeRise, riseOnTime } from './survival';
import type { GameEvent, GameOverReason } from './types';

/** The end reasons a top out (a game over) may carry, by id. */
const GAME_OVER_NAMES: ReadonlyArray<GameOverReason | undefined> = END_NAMES.map((n) => (n === null || n === 'goal' || n === 'timeUp' ? undefined : n));

// Hot-path imports re-bound locally: under tsx / vite-node an imported binding is a getter call.
const hits = collides;
const dropBy = dropDistance;
const lock = lockPiece;
const ONE: number = ONE_ROW;
const SPAWN_COL: number = SPAWN_X;
const SPAWN_ROW: number = SPAWN_Y;
const SOFT_BIT: number = 1 << K_SOFT;
const DELAY: number = LOCK_DELAY;
const RESETS: number = MAX_LOCK_RESETS;
const shiftRepeat = autoShift;
const edge = keyEdge;

export { K_LEFT, K_RIGHT, K_SOFT, K_HARD, K_CW, K_CCW, K_180, K_HOLD, K_ROW_DOWN } from './keys';
export { LOCK_DELAY, MAX_LOCK_RESETS } from './timing';

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
}

/**
 * The whole mutable game state plus the hot per-tick logic. All fields are integers or booleans
 * so the state hashes and clones exactly; nothing here allocates unless `emit` is on.
 */
export class Core {
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
    this.garbageDelay = garbageDelayOf(s.rulesVersion);
    this.cheese = cheeseOf(s.mode);
    this.level = s.mode.startLevel;
    this.gravity = gravityFor(this.level);
    this.softSpeed = softDropSpeed(this.gravity, s.sdf);
  }

  push(e: GameEvent): void {
    (this.out ??= []).push(e);
  }

  setLevel(level: number): void {
    this.level = level;
    this.gravity = gravityFor(level);
    this.softSpeed = softDropSpeed(this.gravity, this.sdf);
  }

  /**
   * Whether the piece rested at the end of the last step (1/0), or -1 when unknown. A cache for
   * skipQuiet only, derived from the state, so it is not part of the hash.
   */
  restingHint = -1;

  /** Step 1 of a tick: one key edge (see moves.ts). */
  input(key: number, down: boolean): void {
    this.restingHint = -1;
    edge(this, key, down);
  }

  /**
   * Versus step of a tick, before its inputs: one garbage message joins the queue, its hole in
   * `column` when given (a dealt game is told it), else drawn. Returns the column; -1 (ignored)
   * once over or in a solo mode.
   */
  receive(size: number, column = -1): number {
    if (this.ended || !this.mode.garbage) return -1;
    return queueGarbage(this, size, column);
  }

  /** Steps 2–5 of a tick (see README): auto-shift, fall, lock delay, clock. */
  step(): void {
    this.restingHint = -1;
    if (!this.ended) {
      if (this.dir !== 0) shiftRepeat(this);
      if (!this.ended) this.fall();
      if (!this.ended) {
        const resting = hits(this.board, this.slot, this.x, this.y - 1);
        if (resting && this.lockOnRest && (this.resets >= RESETS || ++this.lockTimer >= DELAY)) lock(this);
        else this.restingHint = resting ? 1 : 0;
      }
    }
    this.tickNo++;
    // Survival: a row may rise on the clock (survival.ts).
    const rise = this.cheese?.rise;
    if (rise !== undefined) riseOnTime(this, rise);
    const limit = this.mode.timeLimitTicks;
    if (limit !== 0 && !this.ended && this.tickNo >= limit) this.finish(END_TIME_UP);
  }

  /**
   * Fast-forwards up to `until` (exclusive tick number) through ticks that cannot change anything
   * but counters: no direction or soft drop held, no row to fall yet, no lock due, no time limit
   * hit. Produces exactly the state per-tick stepping would; simulateReplay uses it between inputs.
   */
  skipQuiet(until: number): void {
    if (this.ended || this.dir !== 0 || (this.held & SOFT_BIT) !== 0) return;
    let m = until - this.tickNo;
    const limit = this.mode.timeLimitTicks;
    if (limit !== 0 && limit - 1 - this.tickNo < m) m = limit - 1 - this.tickNo;
    const rise = this.cheese?.rise;
    if (rise !== undefined) m = Math.min(m, quietTicksBeforeRise(this, rise));
    const g = this.gravity;
    const toFall = ((ONE - 1 - this.gravAcc) / g) | 0;
    if (toFall < m) m = toFall;
    const grounded = this.restingHint >= 0 ? this.restingHint === 1 : hits(this.board, this.slot, this.x, this.y - 1);
    // Without lock on rest (a drill) a grounded piece's timer stands still, as in step().
    const timed = grounded && this.lockOnRest;
    if (timed) {
      if (this.resets >= RESETS) return;
      if (DELAY - 1 - this.lockTimer < m) m = DELAY - 1 - this.lockTimer;
    }
    if (m <= 0) return;
    this.restingHint = grounded ? 1 : 0;
    this.gravAcc += g * m;
    this.tickNo += m;
    if (timed) this.lockTimer += m;
  }

  private fall(): void {
    const soft = (this.held & SOFT_BIT) !== 0;
    if (soft && this.sdf === 0) {
      const n = dropBy(this.board, this.slot, this.x, this.y);
      if (n > 0) this.fell(n, true);
      return;
    }
    this.gravAcc += soft && this.softSpeed > this.gravity ? this.softSpeed : this.gravity;
    if (this.gravAcc < ONE) return;
    let n = this.gravAcc >>> 16;
    this.gravAcc &= ONE - 1;
    let moved = 0;
    while (n > 0 && !hits(this.board, this.slot, this.x, this.y - moved - 1)) {
      moved++;
      n--;
    }
    if (n > 0) this.gravAcc = 0;
    if (moved > 0) this.fell(moved, soft);
  }

  private fell(rows: number, soft: boolean): void {
    this.y -= rows;
    this.lastRotated = false;
    if (this.y < this.lowestY) {
      this.lowestY = this.y;
      this.resets = 0;
      this.lockTimer = 0;
    }
    if (soft) this.score += rows * SOFT_DROP_POINTS_PER_ROW;
    if (this.emit) this.push(soft ? { type: 'softDrop', rows } : { type: 'move', dx: 0, dy: -rows, source: 'gravity' });
  }

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
