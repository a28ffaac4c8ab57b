import { isKeyed, MAX_GARBAGE_SIZE } from './constants';
import { cloneCore } from './clone';
import type { Core } from './core';
import { GameConfigError } from './errors';
import { hashCore } from './hash';
import { FinesseTracker, type FinesseTally } from './finesse';
import { InputLog } from './input-log';
import { keyId } from './keys';
import { isVersusMode } from './modes';
import { createCore } from './setup';
import { keyNotInRules } from './validate';
import { meterCore, snapshotCore, statsCore } from './snapshot';
import type { GameConfig, GameEvent, GameStats, GarbageEvent, InputEvent, Replay, ReplayEvent, Snapshot } from './types';

/** The one shared empty list: a quiet tick's events, inputs and referee lists, so idle ticks allocate none. */
export const NONE: readonly never[] = Object.freeze([]);
/** Returned by every tick that emits nothing. */
export const NO_EVENTS: readonly GameEvent[] = NONE;

export interface Game {
  /** Advances exactly one tick; inputs apply at its start, in order. Does nothing once the game is over. */
  tick(inputs?: readonly InputEvent[]): readonly GameEvent[];
  snapshot(): Snapshot;
  /** The snapshot's counters without its board: a live host reads them every batch. */
  stats(): GameStats;
  hash(): string;
  /** The inputs fed so far, stamped with the tick they applied to. */
  replay(): Replay;
  /**
   * The same inputs as objects, each made once, when first asked for (the log itself is packed:
   * input-log.ts), and never changed: a live game streams the new ones every ~100 ms, and copying
   * the whole log each time made a long game's batches cost ever more. The array is the same one
   * each time, but it takes in new inputs only when read again: read it after ticking.
   */
  readonly inputs: readonly Readonly<ReplayEvent>[];
  /**
   * An independent game in exactly this state (same hash, same future for the same inputs, same
   * replay so far). Cheap: about a kilobyte of typed arrays plus the packed input log; the replay
   * viewer keeps periodic clones to seek without re-simulating from the start.
   */
  clone(): Game;
  /**
   * Finesse faults per placed piece (finesse.ts), counted from the first call on: the game keeps
   * no count until asked, so a server's hosts pay nothing for it. The same tally, growing, on
   * later calls; a clone carries on with a copy of it.
   */
  finesse(): FinesseTally;
  /**
   * Versus: a garbage message of `size` rows joins the queue now, as the first step of the next
   * tick (before its inputs), and is recorded in the replay at that tick (under rules 2 and 4 the
   * receiver's acknowledgement; under 6 the tick it was sent, and it may rise GARBAGE_DELAY ticks
   * later). Returns its hole column, drawn from the seed; -1 (ignored) once the game is over or in
   * a solo mode.
   */
  receiveGarbage(size: number): number;
  readonly over: boolean;
  /** The snapshot's `garbageQueued` (the meter), without building a snapshot. */
  readonly garbageQueued: number;
  /** The tick the next tick() call plays (the snapshot's `tick`, without building a snapshot). */
  readonly tickNo: number;
  /** Pieces taken from the sequence so far, the current one included: what a live host deals past. */
  readonly taken: number;
  /** The rules version played; `tick` throws for a key it does not play (constants.ts RULES). */
  readonly rulesVersion: number;
}

/** What a game's replay repeats of its setup; the seed is asked for (a dealt game learns it at the end). */
export type ReplaySetup = Pick<GameConfig, 'mode' | 'handling' | 'nextCount' | 'seat' | 'room'>;

/**
 * A game on its core. The one path by which inputs reach the engine (`keyOf`, `press`, `step`), the
 * garbage a game receives, its log and its replay: a dealt game (deal.ts) extends this class and
 * adds only what waiting for pieces needs, so a rule fixed here holds for both.
 */
export class GameImpl implements Game {
  constructor(
    protected readonly core: Core,
    protected readonly nextCount: number,
    protected readonly setup: ReplaySetup & { seed?: string },
    protected readonly log = new InputLog(),
    protected readonly garbageLog: GarbageEvent[] = [],
  ) {}

  protected tracker: FinesseTracker | null = null;

  finesse(): FinesseTally {
    return (this.tracker ??= new FinesseTracker(this.core));
  }

  get over(): boolean {
    return this.core.ended;
  }

  get tickNo(): number {
    return this.core.tickNo;
  }

  get garbageQueued(): number {
    return meterCore(this.core);
  }

  get taken(): number {
    return this.core.queue.taken;
  }

  get rulesVersion(): number {
    return this.core.rulesVersion;
  }

  tick(inputs?: readonly InputEvent[]): readonly GameEvent[] {
    const c = this.core;
    if (c.ended) return NO_EVENTS;
    if (inputs) {
      for (const { key, down } of inputs) {
        const id = this.keyOf(key);
        if (c.ended) break;
        this.press(id, down);
      }
    }
    return this.step();
  }

  /** A key's id, once it is known to be a key this game's rules version plays. */
  protected keyOf(key: unknown): number {
    const id = keyId(key);
    if (id < 0) throw new GameConfigError(`unknown key '${String(key)}'`);
    if (id >= this.core.keyCount) throw new GameConfigError(keyNotInRules(String(key), this.core.rulesVersion));
    return id;
  }

  /** Applies one input at the start of the current tick and logs it there. */
  protected press(id: number, down: boolean): void {
    const c = this.core;
    this.log.push(c.tickNo, id, down);
    const t = this.tracker;
    if (t === null) return c.input(id, down);
    t.press(c, id, down);
    c.input(id, down);
    t.after(c, c.tickNo);
  }

  /** Plays the tick and hands over what it emitted. */
  protected step(): readonly GameEvent[] {
    const c = this.core;
    const t = this.tracker;
    if (t === null) c.step();
    else {
      const tick = c.tickNo;
      t.step(c);
      c.step();
      t.after(c, tick);
    }
    const out = c.out;
    c.out = null;
    return out ?? NO_EVENTS;
  }

  receiveGarbage(size: number): number {
    return this.takeGarbage(size);
  }

  /** A message joins the queue before the next tick and is logged at it; -1 once over or in a solo mode. */
  protected takeGarbage(size: number, column?: number): number {
    const c = this.core;
    if (c.ended || !c.mode.garbage) return -1;
    checkGarbageSize(size);
    this.garbageLog.push({ tick: c.tickNo, size });
    return c.receive(size, column);
  }

  snapshot(): Snapshot {
    return snapshotCore(this.core, this.nextCount);
  }

  stats(): GameStats {
    return statsCore(this.core);
  }

  hash(): string {
    return hashCore(this.core);
  }

  clone(): Game {
    return GameImpl.copyOf(this).game;
  }

  /** A copy typed as the plain game it is, with its core: the referee's clone keeps both (referee.ts). */
  static copyOf(game: GameImpl): { game: GameImpl; core: Core } {
    const core = cloneCore(game.core);
    return { game: game.carryTracker(new GameImpl(core, game.nextCount, game.setup, game.log.copy(), game.garbageLog.slice())), core };
  }

  /** A clone's copy of the finesse count, when this game keeps one. */
  protected carryTracker<G extends GameImpl>(copy: G): G {
    copy.tracker = this.tracker?.copy() ?? null;
    return copy;
  }

  /** The log as objects, made for those who ask (the browser) and kept: a server's hosts never ask during play. */
  private view: ReplayEvent[] = [];

  get inputs(): readonly Readonly<ReplayEvent>[] {
    if (this.view.length < this.log.length) for (const e of this.log.events(this.view.length)) this.view.push(e);
    return this.view;
  }

  /** The seed a replay names: the game's own (a dealt game's is empty until revealed). */
  protected replaySeed(): string {
    return this.setup.seed ?? '';
  }

  replay(): Replay {
    const { mode, handling, nextCount } = this.setup;
    return {
      rulesVersion: this.core.rulesVersion,
      mode,
      seed: this.replaySeed(),
      handling: { ...handling },
      ...(nextCount === undefined ? {} : { nextCount }),
      events: this.log.events(),
      ...(isVersusMode(mode) ? { garbage: this.garbageLog.map((g) => ({ ...g })) } : {}),
      ...seatOf(this.core, this.setup.seat),
      ...(this.setup.room ? { room: { rules: this.setup.room.rules, seat: this.setup.room.seat, targets: [] } } : {}),
    };
  }
}

/** A replay's `seat`: there exactly when the rules give each seat its own holes (keyed versus rules). */
export function seatOf(c: Core, seat: 0 | 1 | undefined): { seat?: 0 | 1 } {
  return c.mode.garbage && isKeyed(c.rulesVersion) && !c.room ? { seat: seat ?? 0 } : {};
}

/** Shared with DealtGame: one bound for a message's rows. */
export function checkGarbageSize(size: number): void {
  if (!Number.isInteger(size) || size < 1 || size > MAX_GARBAGE_SIZE) throw new GameConfigError(`garbage size must be an integer 1–${MAX_GARBAGE_SIZE}`);
}

/**
 * The setup a replay was played with, for a game that plays it back (viewers, play from here,
 * ghosts): its rules version, preview and (keyed versus) seat, none of which may be left out.
 */
export function replayConfig(replay: Replay): GameConfig {
  const { mode, seed, handling, nextCount, rulesVersion, seat, room } = replay;
  return {
    mode, seed, handling, rulesVersion, ...(nextCount ? { nextCount } : {}), ...(seat === undefined ? {} : { seat }),
    ...(room ? { room: { rules: room.rules, seat: room.seat } } : {}),
  };
}

export function createGame(config: GameConfig): Game {
  const { core, nextCount } = createCore(config, true);
  return new GameImpl(core, nextCount, config);
}
