import { KEYS, RULES_VERSION } from './constants';
import { cloneCore } from './clone';
import type { Core } from './core';
import { GameConfigError } from './errors';
import { hashCore } from './hash';
import { createCore } from './setup';
import { snapshotCore } from './snapshot';
import type { GameConfig, GameEvent, InputEvent, Replay, ReplayEvent, Snapshot } from './types';

/** Returned by every tick that emits nothing, so idle ticks allocate nothing. */
export const NO_EVENTS: readonly GameEvent[] = Object.freeze([]);

export interface Game {
  /** Advances exactly one tick; inputs apply at its start, in order. Does nothing once the game is over. */
  tick(inputs?: readonly InputEvent[]): readonly GameEvent[];
  snapshot(): Snapshot;
  hash(): string;
  /** The inputs fed so far, stamped with the tick they applied to. */
  replay(): Replay;
  /**
   * An independent game in exactly this state (same hash, same future for the same inputs, same
   * replay so far). Cheap: about a kilobyte of typed arrays plus the input log's array; the replay
   * viewer keeps periodic clones to seek without re-simulating from the start.
   */
  clone(): Game;
  readonly over: boolean;
}

const KEY_ID: ReadonlyMap<unknown, number> = new Map(KEYS.map((k, i) => [k, i]));

class GameImpl implements Game {
  constructor(
    private readonly core: Core,
    private readonly nextCount: number,
    private readonly config: GameConfig,
    // Entries are never mutated (replay() copies them), so clones may share them.
    private readonly log: ReplayEvent[] = [],
  ) {}

  get over(): boolean {
    return this.core.ended;
  }

  tick(inputs?: readonly InputEvent[]): readonly GameEvent[] {
    const c = this.core;
    if (c.ended) return NO_EVENTS;
    if (inputs) {
      for (const { key, down } of inputs) {
        const id = KEY_ID.get(key);
        if (id === undefined) throw new GameConfigError(`unknown key '${String(key)}'`);
        if (c.ended) break;
        this.log.push({ tick: c.tickNo, key, down });
        c.input(id, down);
      }
    }
    c.step();
    const out = c.out;
    c.out = null;
    return out ?? NO_EVENTS;
  }

  snapshot(): Snapshot {
    return snapshotCore(this.core, this.nextCount);
  }

  hash(): string {
    return hashCore(this.core);
  }

  clone(): Game {
    return new GameImpl(cloneCore(this.core), this.nextCount, this.config, this.log.slice());
  }

  replay(): Replay {
    const { mode, seed, handling, nextCount } = this.config;
    return {
      rulesVersion: RULES_VERSION,
      mode,
      seed,
      handling: { ...handling },
      ...(nextCount === undefined ? {} : { nextCount }),
      events: this.log.map((e) => ({ ...e })),
    };
  }
}

export function createGame(config: GameConfig): Game {
  const { core, nextCount } = createCore(config, true);
  return new GameImpl(core, nextCount, config);
}
