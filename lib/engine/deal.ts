/**
 * A live game's piece source. In a ranked live game the browser never has the seed: the server
 * deals pieces as the game goes, at most the preview plus one spare ahead of the current piece,
 * and the browser's engine plays exactly those. The sequence is the seed's own (7-bag, rng.ts),
 * so the replay submitted after the seed is revealed verifies like any other, and after
 * `reveal(seed)` the game's hash is the seeded game's hash (under the same rules version).
 *
 * Waiting: a tick runs only when the preview is full and at least two pieces are ahead (`ready`); otherwise the clock stops and
 * the inputs wait for the next tick that runs. Inside a tick, a hard drop or hold press (each may
 * take a piece) is held back to the next tick while fewer than two pieces are ahead, so a tick
 * never needs a piece that was not dealt; in Dig a hard drop also waits while no hole column is
 * left for the row its lock may raise. Held-back inputs are logged at the tick they apply to, so
 * the replay stays exact.
 *
 *   const game = createDealtGame({ mode, handling, nextCount }, firstPieces); // current + preview + 1
 *   game.deal(7, ['T']);          // index of the first piece in the message, then the pieces
 *   if (game.ready) game.tick(inputs);
 *   game.reveal(seed);            // at game over: checks every dealt piece, then hash() is exact
 *
 * The server side: `pieceSequence(seed)` gives the pieces to deal, `playHash` compares states.
 */
import { COLS } from './board';
import { holeSequence, holesToCome } from './cheese';
import { isKeyed, PIECES } from './constants';
import { cloneCore } from './clone';
import type { Core } from './core';
import { GameConfigError } from './errors';
import { GameImpl, NO_EVENTS, NONE, type Game } from './game';
import { hashCore, playHashCore } from './hash';
import { K_HARD, K_HOLD } from './keys';
import { KeyStream, seedKey, STREAM_HOLES } from './keystream';
import { DealtQueue, foldPiece, PieceQueue, seededQueue } from './queue';
import { cheeseOf, MODES } from './modes';
import { createCore } from './setup';
import { InputLog } from './input-log';
import type { GameConfig, GameEvent, GarbageEvent, InputEvent, PieceType } from './types';

/**
 * Dig: the host keeps this many hole columns dealt past the rows already in the field (or all that
 * are left). A lock raises at most one row (cheese.ts), so one is needed for a tick to run and the
 * second is the spare that lets play go on while the next deal is on its way, as for pieces.
 */
export const HOLES_AHEAD = 2;
/** At most this many hole columns may wait in a dealt game: a host that deals further is refused. */
export const HOLES_CAP = 16;

export type DealtGameConfig = Omit<GameConfig, 'seed' | 'queue' | 'board' | 'hold' | 'active'> & {
  /** Dig: the hole columns of the first rows, top row first: the field's rows, and a few more (HOLES_AHEAD). */
  holes?: readonly number[];
  /**
   * At most this many inputs apply on one tick; the rest wait for the next, as inputs held back
   * for a piece do. Inputs that waited join the next tick's, and the server refuses a tick with
   * more than a person could press (lib/input-limits.ts): a browser passes that bound here.
   */
  maxInputsPerTick?: number;
};

export interface DealtGame extends Game {
  /** Adds pieces; `from` is the sequence index of the first (0 = the first piece of the game). Repeats are ignored. */
  deal(from: number, pieces: readonly PieceType[]): void;
  /**
   * Dig: adds hole columns of the rows to come; `from` is the index of the first in the game's
   * sequence of rows (0 = the top row of the starting field). Repeats are ignored.
   */
  dealHoles(from: number, columns: readonly number[]): void;
  /** Dig: hole columns dealt so far (the rows risen and those waiting), and rows risen; 0 in other modes. */
  readonly holesDealt: number;
  readonly holesRisen: number;
  /** True when the preview is full, so the next tick may run; false means waiting for a deal. */
  readonly ready: boolean;
  /** Pieces taken so far (the current piece included) and pieces dealt so far. */
  readonly taken: number;
  readonly dealt: number;
  /** The state hash without the randomizer: equal to the server's seeded game at the same point. */
  playHash(): string;
  /**
   * Versus: a message joins the queue before the next tick, as in Game. Under rules 6 the host
   * tells its hole `column` (a dealt game has no hole generator, as it has no piece generator);
   * under 2 and 4 the column is drawn from the hole state given to createDealtGame.
   */
  receiveGarbage(size: number, column?: number): number;
  /** An independent dealt game in exactly this state, its pieces and log included. */
  clone(): DealtGame;
  /** Inputs waiting for the next tick that runs (held back for a piece, or over maxInputsPerTick). */
  readonly carried: readonly InputEvent[];
  /** Checks the dealt pieces (and hole columns) against the seed and from then on hashes and replays as the seeded game. */
  reveal(seed: string): void;
  readonly seed: string | null;
}

const PIECE_ID: ReadonlyMap<unknown, number> = new Map(PIECES.map((p, i) => [p, i]));
/** Any placeholder passes createCore's checks; the dealt queue replaces the seeded one before the first spawn. */
const NO_SEED = 'dealt';

/**
 * Game's own tick, log and garbage (game.ts), plus what dealt pieces need: the deal, waiting, inputs
 * carried to a later tick, and the reveal.
 */
class DealtGameImpl extends GameImpl implements DealtGame {
  constructor(
    core: Core,
    nextCount: number,
    private readonly config: DealtGameConfig,
    log?: InputLog,
    private carry: readonly InputEvent[] = NONE,
    public seed: string | null = null,
    garbageLog?: GarbageEvent[],
    /** Each message's hole column as given, for reveal() to check against the seed. */
    private readonly columns: number[] = [],
    /** Dig: every hole column dealt, in order, for reveal() to check. */
    private readonly holeLog: number[] = [...(config.holes ?? [])],
  ) {
    super(core, nextCount, config, log, garbageLog);
  }

  override receiveGarbage(size: number, column?: number): number {
    const c = this.core;
    if (c.ended || !c.mode.garbage) return -1;
    const keyed = isKeyed(c.rulesVersion);
    if (keyed !== (column !== undefined)) throw new GameConfigError(keyed ? 'a dealt game under keyed rules must be told each hole column' : 'this game draws its own hole columns');
    if (column !== undefined) checkColumn(column);
    const col = this.takeGarbage(size, column);
    this.columns.push(col);
    return col;
  }

  get carried(): readonly InputEvent[] {
    return this.carry;
  }

  get ready(): boolean {
    const c = this.core;
    // Two at least, so a tick's own lock always finds its next piece (see the header); in Dig one
    // hole column, for the row a lock may raise (cheese.ts), unless the seed's own stream has it.
    if (c.ended) return true;
    return this.ahead() >= Math.max(this.nextCount, 2) && this.holeAhead();
  }

  /** Dig: whether a lock now finds the column of the row it may raise (a hard drop waits otherwise, as for a piece). */
  private holeAhead(): boolean {
    const c = this.core;
    return c.holeStream !== null || c.givenHoles.length > 0 || holesToCome(c) === 0;
  }

  get holesRisen(): number {
    return this.core.cheeseRisen;
  }

  get holesDealt(): number {
    const c = this.core;
    return c.cheese ? c.cheeseRisen + c.givenHoles.length : 0;
  }

  dealHoles(from: number, columns: readonly number[]): void {
    const c = this.core;
    if (!c.cheese || c.holeStream) return;
    const dealt = this.holesDealt;
    if (!Number.isInteger(from) || from < 0 || from > dealt) throw new GameConfigError(`hole deal starts at row ${from}, expected at most ${dealt}`);
    const fresh = columns.slice(dealt - from);
    if (dealt + fresh.length > c.cheese.rows) throw new GameConfigError(`more hole columns than the ${c.cheese.rows} rows of ${this.config.mode}`);
    if (c.givenHoles.length + fresh.length > HOLES_CAP) throw new GameConfigError(`more than ${HOLES_CAP} hole columns dealt ahead`);
    for (const col of fresh) checkColumn(col);
    c.givenHoles.push(...fresh);
    this.holeLog.push(...fresh);
  }

  get dealt(): number {
    const q = this.core.queue;
    return q instanceof DealtQueue ? q.dealt : q.taken + q.len;
  }

  private ahead(): number {
    const q = this.core.queue;
    return q instanceof DealtQueue ? q.len : Infinity;
  }

  deal(from: number, pieces: readonly PieceType[]): void {
    const q = this.core.queue;
    if (!(q instanceof DealtQueue)) return;
    if (!Number.isInteger(from) || from < 0 || from > q.dealt) throw new GameConfigError(`deal starts at piece ${from}, expected at most ${q.dealt}`);
    for (let i = q.dealt - from; i < pieces.length; i++) {
      const id = PIECE_ID.get(pieces[i]);
      if (id === undefined) throw new GameConfigError(`deal holds an unknown piece '${String(pieces[i])}'`);
      q.push(id);
    }
  }

  override tick(inputs?: readonly InputEvent[]): readonly GameEvent[] {
    const c = this.core;
    if (c.ended) return NO_EVENTS;
    // Every tick of every bot and browser passes here: a quiet one allocates nothing.
    const all = this.carry.length > 0 ? [...this.carry, ...(inputs ?? NONE)] : inputs ?? NONE;
    this.carry = NONE;
    if (!this.ready) {
      this.carry = all.slice();
      return NO_EVENTS;
    }
    const most = this.config.maxInputsPerTick ?? Infinity;
    for (let i = 0; i < all.length; i++) {
      const { key, down } = all[i]!;
      const id = this.keyOf(key);
      if (c.ended) break;
      if (i >= most || (down && (id === K_HARD || id === K_HOLD) && this.ahead() < 2) || (down && id === K_HARD && !this.holeAhead())) {
        this.carry = all.slice(i);
        break;
      }
      this.press(id, down);
    }
    return this.step();
  }

  override hash(): string {
    return this.core.queue instanceof PieceQueue ? hashCore(this.core) : playHashCore(this.core);
  }

  playHash(): string {
    return playHashCore(this.core);
  }

  reveal(seed: string): void {
    const q = this.core.queue;
    if (!(q instanceof DealtQueue)) return;
    const holes = this.revealHoles(seed) ?? this.revealCheese(seed);
    const seeded = seededQueue(seed, this.core.rulesVersion);
    let digest = 0x811c9dc5;
    for (let i = 0; i < q.taken; i++) digest = foldPiece(digest, seeded.take());
    let same = digest === q.takenDigest;
    for (let i = 0; i < q.len && same; i++) same = seeded.peek(i) === q.peek(i);
    if (!same) throw new GameConfigError('the dealt pieces are not the sequence of this seed');
    this.core.queue = seeded;
    if (holes) this.core.holeStream = holes;
    this.seed = seed;
  }

  /** Under keyed versus rules: the seed's hole stream past every column given, checked one by one. */
  private revealHoles(seed: string): KeyStream | null {
    const c = this.core;
    if (!c.mode.garbage || !isKeyed(c.rulesVersion)) return null;
    const stream = new KeyStream(seedKey(seed), STREAM_HOLES + (this.config.seat ?? 0));
    let prev = -1;
    for (const given of this.columns) {
      const draw = stream.next();
      prev = prev < 0 ? draw % COLS : (prev + 1 + (draw % (COLS - 1))) % COLS;
      if (prev !== given) throw new GameConfigError('the hole columns are not those of this seed');
    }
    return stream;
  }

  /**
   * Dig: every hole column dealt (risen or waiting) checked against the seed's, then the seed's
   * hole stream left where the seeded game's stands: past the rows risen.
   */
  private revealCheese(seed: string): KeyStream | null {
    const c = this.core;
    if (!c.cheese || c.holeStream) return null;
    const next = holeSequence(seed, this.config.mode);
    for (const given of this.holeLog) if (given !== next()) throw new GameConfigError('the hole columns are not those of this seed');
    const stream = new KeyStream(seedKey(seed), STREAM_HOLES);
    for (let i = 0; i < c.cheeseRisen; i++) stream.next();
    c.givenHoles = [];
    return stream;
  }

  override clone(): DealtGame {
    return this.carryTracker(
      new DealtGameImpl(cloneCore(this.core), this.nextCount, this.config, this.log.copy(), this.carry.slice(), this.seed, this.garbageLog.slice(), this.columns.slice(), this.holeLog.slice()),
    );
  }

  /** Empty until reveal(). */
  protected override replaySeed(): string {
    return this.seed ?? '';
  }
}

/**
 * A game that plays dealt pieces; `first` must hold at least the first piece. Under keyed versus
 * rules (6) each garbage message comes with its hole column (receiveGarbage). Under rules 2 and 4
 * a versus game needs the hole generator's state instead (`holes`), which the seed gives away.
 */
export function createDealtGame(config: DealtGameConfig, first: readonly PieceType[], holes?: number): DealtGame {
  if (first.length === 0) throw new GameConfigError('a dealt game needs its first piece');
  const queue = new DealtQueue();
  for (const p of first.slice(0, 16)) {
    const id = PIECE_ID.get(p);
    if (id === undefined) throw new GameConfigError(`deal holds an unknown piece '${String(p)}'`);
    queue.push(id);
  }
  const columns = config.holes ?? [];
  const cheese = cheeseOf(MODES[config.mode]);
  const field = cheese ? Math.min(cheese.field, cheese.rows) : 0;
  if (!cheese && columns.length > 0) throw new GameConfigError(`${config.mode} has no garbage rows to deal holes for`);
  if (columns.length < field) throw new GameConfigError(`a ${config.mode} game starts with the hole columns of its first ${field} rows`);
  if (cheese && columns.length > cheese.rows) throw new GameConfigError(`more hole columns than the ${cheese.rows} rows of ${config.mode}`);
  if (columns.length - field > HOLES_CAP) throw new GameConfigError(`more than ${HOLES_CAP} hole columns dealt ahead`);
  for (const col of columns) checkColumn(col);
  // A room's seat (rules 7) plays its room's rules: garbage delay and cap, attack tables, hold.
  const { core, nextCount } = createCore({ mode: config.mode, handling: config.handling, nextCount: config.nextCount, rulesVersion: config.rulesVersion, seed: NO_SEED, ...(config.room ? { room: config.room } : {}) }, true, queue, columns);
  if (holes !== undefined) core.holeRng = holes | 0;
  return new DealtGameImpl(core, nextCount, config);
}

/** A dealt game around a state built elsewhere (state.ts restores a spectator's game). */
export function dealtGameOf(core: Core, nextCount: number, config: DealtGameConfig): DealtGame {
  return new DealtGameImpl(core, nextCount, config);
}

function checkColumn(col: unknown): void {
  if (!(Number.isInteger(col) && (col as number) >= 0 && (col as number) < COLS)) throw new GameConfigError(`a hole column is an integer 0–${COLS - 1}`);
}

/** The seed's piece sequence under a rules version, one piece at a time: what the server deals. */
export function pieceSequence(seed: string, rulesVersion: number): () => PieceType {
  const q = seededQueue(seed, rulesVersion);
  return () => PIECES[q.take()]!;
}
