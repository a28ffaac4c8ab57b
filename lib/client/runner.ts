import { createGame, keyId, keysOf, type Game, type GameEvent, type Handling, type Key, type Mode } from '@/lib/engine';
import { TickClock } from '@/lib/client/clock';
import { HeldKeys, InputQueue } from '@/lib/client/input';

export interface RunnerConfig {
  mode: Mode;
  seed: string;
  handling: Handling;
  nextCount: number;
}

/**
 * One game driven by wall-clock time: key edges are stamped with the tick they happen in and fed to
 * the engine at the start of that tick; `frame(now)` runs every tick that is due. No DOM, no timers:
 * the page calls it from requestAnimationFrame, tests call it with numbers.
 */
export class GameRunner<G extends Pick<Game, 'tick' | 'over'> & { readonly ready?: boolean; readonly rulesVersion?: number } = Game> {
  readonly game: G;
  private readonly clock: TickClock;
  private readonly queue = new InputQueue();
  private readonly held = new HeldKeys();
  private running = false;
  /**
   * A dealt game (a live ranked one) ran out of pieces: the clock stands still until the server
   * deals more, rather than the game guessing or jumping ahead when they arrive.
   */
  private starved = false;

  /** A new game from `config`, or an existing one to play on (the practice sandbox's). */
  constructor(config: RunnerConfig | { game: G }, maxCatchUp?: number) {
    this.game = 'game' in config ? config.game : (createGame({ mode: config.mode, seed: config.seed, handling: config.handling, nextCount: config.nextCount }) as unknown as G);
    this.clock = new TickClock(maxCatchUp);
  }

  get tick(): number {
    return this.clock.done;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Waiting for pieces (only a dealt game ever waits). */
  get waiting(): boolean {
    return this.starved;
  }

  start(now: number): void {
    this.clock.start(now);
    this.running = true;
  }

  /** Stops the clock; every key still down is released at the current tick, since key-ups made while paused never arrive. */
  pause(): void {
    if (!this.running) return;
    this.running = false;
    this.releaseAll(this.clock.done);
  }

  resume(now: number): void {
    if (this.running || this.game.over) return;
    this.clock.resume(now);
    this.running = true;
  }

  /** A physical key went down or up at time `t`. Returns whether the engine key changed. */
  key(key: Key, code: string, down: boolean, t: number): boolean {
    if (!this.running || this.game.over) return false;
    // A game under older rules (a live server that announced them) lacks newer keys: the press does nothing.
    const rules = this.game.rulesVersion;
    if (rules !== undefined && keyId(key) >= keysOf(rules)) return false;
    const changed = down ? this.held.press(key, code) : this.held.release(key, code);
    // While waiting the clock stands still: an edge made then applies on the first tick after.
    if (changed) this.queue.push(this.starved ? this.clock.done : this.clock.tickAt(t), key, down);
    return changed;
  }

  /** Lets go of every key held, at the tick now due, without stopping the clock (versus has no pause). */
  releaseKeys(): void {
    if (this.running) this.releaseAll(this.clock.done);
  }

  private releaseAll(tick: number): void {
    // Queued for the tick the game stopped on: the engine sees them first thing after resuming.
    for (const key of this.held.releaseAll()) this.queue.push(tick, key, false);
  }

  /** Runs the ticks due at `now`; events of every tick, in order (empty array when nothing happened). */
  frame(now: number): GameEvent[] {
    if (!this.running) return [];
    if (this.starved) {
      if (this.game.ready === false) return [];
      // Pieces arrived: time continues from the tick that waited, as after a pause.
      this.starved = false;
      this.clock.resume(now);
    }
    const n = this.clock.due(now);
    if (this.clock.dropped > 0) this.queue.rebase(this.clock.dropped, this.clock.done);
    let events: GameEvent[] = [];
    for (let i = 0; i < n && !this.game.over; i++) {
      if (this.game.ready === false) {
        this.starved = true;
        break;
      }
      const inputs = this.queue.take(this.clock.done);
      const out = this.game.tick(inputs);
      if (out.length > 0) events = events.length === 0 ? [...out] : events.concat(out);
      this.clock.done++;
    }
    if (this.game.over) this.running = false;
    return events;
  }
}
