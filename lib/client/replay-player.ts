import { createGame, type Game, type GameEvent, type InputEvent, type Replay, type Snapshot } from '@/lib/engine';

/**
 * Plays a replay back through the same engine that verified it, one tick at a time, and can
 * seek anywhere (backwards by replaying from the start: a whole game re-simulates in well under
 * a millisecond, so there is no need to keep checkpoints).
 */
export class ReplayPlayer {
  private game!: Game;
  private next = 0;
  // Counted here rather than read from snapshot(), which builds the whole board as text.
  private ticks = 0;

  constructor(private readonly replay: Replay) {
    this.restart();
  }

  get tick(): number {
    return this.ticks;
  }

  get over(): boolean {
    return this.game.over;
  }

  restart(): void {
    const { mode, seed, handling, nextCount } = this.replay;
    this.game = createGame({ mode, seed, handling, ...(nextCount ? { nextCount } : {}) });
    this.next = 0;
    this.ticks = 0;
  }

  /** Advances one tick with the inputs recorded for it; returns that tick's events. */
  step(): readonly GameEvent[] {
    if (this.over) return [];
    const now = this.ticks;
    const events = this.replay.events;
    const inputs: InputEvent[] = [];
    while (this.next < events.length && events[this.next]!.tick === now) {
      const e = events[this.next++]!;
      inputs.push({ key: e.key, down: e.down });
    }
    const out = this.game.tick(inputs);
    this.ticks++;
    return out;
  }

  /** Jumps to a tick (clamped to the game's end); events on the way are not reported. */
  seek(target: number): void {
    if (target < this.tick) this.restart();
    while (this.tick < target && !this.over) this.step();
  }

  snapshot(): Snapshot {
    return this.game.snapshot();
  }
}
