/**
 * The server's side of a live game: the seeded engine run incrementally on the input stream as it
 * arrives, with exactly simulateReplay's tick order (inputs of tick t apply at its start, quiet
 * ticks fast-forwarded). Feeding a whole replay's events in any batching ends on the same
 * result and hash as simulateReplay of that replay (tests/engine/deal.test.ts checks it).
 */
import { MAX_REPLAY_EVENTS, MAX_REPLAY_TICKS } from './constants';
import type { Core } from './core';
import { GameConfigError, ReplayError } from './errors';
import { playHashCore } from './hash';
import { createCore } from './setup';
import { keyId } from './keys';
import { resultOf } from './simulate';
import { statsCore } from './snapshot';
import { stateOfCore, type GameState } from './state';
import type { GameConfig, GameStats, PieceType, ReplayEvent, ReplayResult } from './types';
import { keyNotInRules } from './validate';

export interface StreamSim {
  /**
   * Applies `events` (ticks ≥ the current tick, in order, each < upTo) and runs the clock to
   * `upTo`, or to the game's end. Throws ReplayError('invalid_replay') and changes nothing for a
   * bad batch.
   */
  feed(events: readonly ReplayEvent[], upTo: number): void;
  readonly tick: number;
  /** Pieces taken from the sequence so far, the current one included. */
  readonly taken: number;
  readonly ended: boolean;
  /** Events applied so far and events that arrived after the end. */
  readonly applied: number;
  readonly unused: number;
  stats(): GameStats;
  playHash(): string;
  result(): ReplayResult;
  /**
   * The game now as a spectator's starting point (state.ts), `next` being the pieces dealt past the
   * current one and (Dig) `holes` the hole columns dealt past the rows risen.
   */
  state(next: readonly PieceType[], holes?: readonly number[]): GameState;
  /** Dig: rows risen so far (their hole columns are in the field); 0 in other modes. */
  readonly holesRisen: number;
}

const MAX_TICKS: number = MAX_REPLAY_TICKS;

class StreamSimImpl implements StreamSim {
  applied = 0;
  unused = 0;
  constructor(private readonly c: Core) {}

  get tick(): number {
    return this.c.tickNo;
  }
  get taken(): number {
    return this.c.queue.taken;
  }
  get ended(): boolean {
    return this.c.ended;
  }

  feed(events: readonly ReplayEvent[], upTo: number): void {
    const c = this.c;
    if (!Number.isInteger(upTo) || upTo < c.tickNo || upTo > MAX_TICKS) throw new ReplayError('invalid_replay', `tick ${upTo} is behind ${c.tickNo} or out of range`);
    if (this.applied + this.unused + events.length > MAX_REPLAY_EVENTS) throw new ReplayError('invalid_replay', `more than ${MAX_REPLAY_EVENTS} events`);
    // Check the whole batch before touching the state, so a bad batch changes nothing.
    const codes = new Uint8Array(events.length);
    let last = c.tickNo;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const id = keyId(e.key);
      if (!Number.isInteger(e.tick) || e.tick < last || e.tick >= upTo || id < 0 || typeof e.down !== 'boolean')
        throw new ReplayError('invalid_replay', `event ${i} is out of order, past the batch's tick or malformed`);
      if (id >= c.keyCount) throw new ReplayError('invalid_replay', `event ${i}: ${keyNotInRules(e.key, c.rulesVersion)}`);
      codes[i] = id * 2 + (e.down ? 1 : 0);
      last = e.tick;
    }
    let i = 0;
    while (!c.ended && c.tickNo < upTo) {
      const t = c.tickNo;
      while (i < events.length && events[i]!.tick === t && !c.ended) {
        c.input(codes[i]! >> 1, (codes[i]! & 1) === 1);
        i++;
      }
      c.step();
      c.out = null;
      c.skipQuiet(i < events.length ? events[i]!.tick : upTo);
    }
    this.applied += i;
    this.unused += events.length - i;
  }

  stats(): GameStats {
    return statsCore(this.c);
  }

  playHash(): string {
    return playHashCore(this.c);
  }

  result(): ReplayResult {
    return resultOf(this.c, this.unused);
  }

  state(next: readonly PieceType[], holes: readonly number[] = []): GameState {
    return stateOfCore(this.c, next, holes);
  }

  get holesRisen(): number {
    return this.c.cheeseRisen;
  }
}

/** `config.rulesVersion` is the game's (its ticket's): a key that version does not play is a bad batch. */
export function createStreamSim(config: Pick<GameConfig, 'mode' | 'seed' | 'handling' | 'nextCount' | 'rulesVersion'>): StreamSim {
  try {
    return new StreamSimImpl(createCore(config, false).core);
  } catch (e) {
    if (e instanceof GameConfigError) throw new ReplayError('invalid_replay', e.message);
    throw e;
  }
}
