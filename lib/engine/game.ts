import { isKeyed, KEYS, MAX_GARBAGE_SIZE } from './constants';
import { cloneCore } from './clone';
import type { Core } from './core';
import { GameConfigError } from './errors';
import { hashCore } from './hash';
import { InputLog } from './input-log';
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

const KEY_ID: ReadonlyMap<unknown, number> = new Map(KEYS.map((k, i) => [k, i]));

class GameImpl implements Game {
  constructor(
    private readonly core: Core,
    private readonly nextCount: number,
    private readonly config: GameConfig,
    private readonly log = new InputLog(),
    private readonly garbageLog: GarbageEvent[] = [],
  ) {}

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
        const id = KEY_ID.get(key);
        if (id === undefined) throw new GameConfigError(`unknown key '${String(key)}'`);
        if (id >= c.keyCount) throw new GameConfigError(keyNotInRules(key, c.rulesVersion));
        if (c.ended) break;
        this.log.push(c.tickNo, id, down);
        c.input(id, down);
      }
    }
    c.step();
    const out = c.out;
    c.out = null;
    return out ?? NO_EVENTS;
  }

  receiveGarbage(size: number): number {
    const c = this.core;
    if (c.ended || !c.mode.garbage) return -1;
    checkGarbageSize(size);
    this.garbageLog.push({ tick: c.tickNo, size });
    return c.receive(size);
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
    return new GameImpl(cloneCore(this.core), this.nextCount, this.config, this.log.copy(), this.garbageLog.slice());
  }

  /** The log as objects, made for those who ask (the browser) and kept: a server's hosts never ask during play. */
  private view: ReplayEvent[] = [];

  get inputs(): readonly Readonly<ReplayEvent>[] {
    if (this.view.length < this.log.length) for (const e of this.log.events(this.view.length)) this.view.push(e);
    return this.view;
  }

  replay(): Replay {
    const { mode, seed, handling, nextCount } = this.config;
    const versus = isVersusMode(mode);
    return {
      rulesVersion: this.core.rulesVersion,
      mode,
      seed,
      handling: { ...handling },
      ...(nextCount === undefined ? {} : { nextCount }),
      events: this.log.events(),
      ...(versus ? { garbage: this.garbageLog.map((g) => ({ ...g })) } : {}),
      ...seatOf(this.core, this.config.seat),
    };
  }
}

/** A replay's `seat`: there exactly when the rules give each seat its own holes (keyed versus rules). */
export function seatOf(c: Core, seat: 0 | 1 | undefined): { seat?: 0 | 1 } {
  return c.mode.garbage && isKeyed(c.rulesVersion) ? { seat: seat ?? 0 } : {};
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
  const { mode, seed, handling, nextCount, rulesVersion, seat } = replay;
  return { mode, seed, handling, rulesVersion, ...(nextCount ? { nextCount } : {}), ...(seat === undefined ? {} : { seat }) };
}

export function createGame(config: GameConfig): Game {
  const { core, nextCount } = createCore(config, true);
  return new GameImpl(core, nextCount, config);
}
