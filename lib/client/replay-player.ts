import { createGame, MAX_REPLAY_TICKS, replayConfig, type Game, type GameEvent, type GarbageEvent, type InputEvent, type Replay, type Snapshot } from '@/lib/engine';
import { NO_TALLY, tallyEvents, type StatsTally } from '@/lib/versus/stats';

/** The attack and garbage cleared from a tick on (lib/versus/stats.ts). */
export type TallyMark = { tick: number; attack: number; garbageCleared: number };

/** Ticks between checkpoints: a seek simulates at most this many ticks after restoring one. */
export const CHECKPOINT_INTERVAL = 300;

/**
 * Plays a replay back through the same engine that verified it, and seeks anywhere fast. On
 * construction it plays the game through once, keeping a clone of the engine every
 * CHECKPOINT_INTERVAL ticks and the tick each piece appeared on (the seek bar's markers). A seek
 * restores the nearest checkpoint at or before the target and simulates forward, so the state
 * after a seek is exactly the engine's state at that tick, whatever the route to it.
 *
 * A versus replay plays the same way: its garbage joins the queue at the ticks it records, before
 * that tick's inputs, as in simulateReplay. The winner's game of a versus game never ends on its
 * own, so the caller passes `limit` (lib/versus/replay-span.ts).
 */
export class ReplayPlayer {
  private game: Game;
  private readonly at: ReplayCursor = { tick: 0, next: 0, nextGarbage: 0 };
  private readonly checkpoints: Game[] = [];
  /** Tick on which each piece after the first appeared (the tick after the previous one locked). */
  readonly pieceTicks: readonly number[];
  /** Versus: every tick whose locks sent garbage to the opponent, with the rows sent (after cancelling). */
  readonly sends: ReadonlyArray<GarbageEvent>;
  /** The tick the game ended on (or the last tick simulated). */
  readonly endTick: number;
  /** Whether the game ended by topping out (block out, lock out or garbage out). */
  readonly toppedOut: boolean;
  /** The tick the last piece played appeared: the one that locked on the final tick, else the one in play at the end. */
  readonly lastMove: number;
  /** Each tick after which the attack or garbage cleared changed, in order: the stats at any tick without replaying to it. */
  private readonly marks: readonly TallyMark[];

  constructor(
    private readonly replay: Replay,
    private readonly interval = CHECKPOINT_INTERVAL,
    /** Ticks to play at most; a verified solo game always ends before the re-simulation limit. */
    private readonly limit = MAX_REPLAY_TICKS,
  ) {
    this.game = this.fresh();
    const pieces: number[] = [];
    const sends: GarbageEvent[] = [];
    let pieceStart = 0;
    let lastMove = 0;
    const marks: TallyMark[] = [];
    let tally: StatsTally = NO_TALLY;
    while (!this.over) {
      if (this.tick % interval === 0) this.checkpoints.push(this.game.clone());
      const tick = this.tick;
      const events = this.step();
      lastMove = pieceStart;
      if (events.some((e) => e.type === 'lock')) {
        pieces.push(this.tick);
        pieceStart = this.tick;
      }
      let sent = 0;
      for (const e of events) if (e.type === 'lock') sent += e.sent;
      if (sent > 0) sends.push({ tick, size: sent });
      if (events.length === 0) continue;
      const before = tally;
      tally = tallyEvents(tally, events);
      if (tally.attack !== before.attack || tally.garbageCleared !== before.garbageCleared) marks.push({ tick: this.tick, attack: tally.attack, garbageCleared: tally.garbageCleared });
    }
    this.pieceTicks = pieces;
    this.sends = sends;
    this.marks = marks;
    this.endTick = this.tick;
    this.toppedOut = this.game.over && this.game.snapshot().toppedOut;
    // A game cut by the limit ends with a piece in play; one that ended on a lock ends with that piece.
    this.lastMove = this.game.over ? lastMove : pieceStart;
    this.restore(0);
  }

  get tick(): number {
    return this.at.tick;
  }

  get over(): boolean {
    return this.game.over || this.at.tick >= this.limit;
  }

  /** Advances one tick with the garbage and inputs recorded for it; returns that tick's events. */
  step(): readonly GameEvent[] {
    if (this.over) return [];
    return stepReplay(this.game, this.replay, this.at);
  }

  /** Jumps to a tick (clamped to 0 and the end); events on the way are not reported. */
  seek(target: number): void {
    const to = Math.max(0, Math.min(Math.floor(target), this.endTick));
    // Forward within one interval: cheaper to simulate on than to restore.
    if (to < this.tick || to - this.tick > this.interval) this.restore(Math.floor(to / this.interval));
    while (this.tick < to && !this.game.over) this.step();
  }

  /** The attack and garbage cleared once `tick` ticks are played. */
  tallyAt(tick: number): { attack: number; garbageCleared: number } {
    const i = firstAt(this.marks, tick + 1) - 1;
    const mark = this.marks[i];
    return mark ? { attack: mark.attack, garbageCleared: mark.garbageCleared } : { attack: 0, garbageCleared: 0 };
  }

  /** The first piece boundary after (dir 1) or before (dir -1) the current tick; 0 and the end count. */
  pieceBoundary(dir: 1 | -1): number {
    const marks = [0, ...this.pieceTicks, this.endTick];
    if (dir === 1) return marks.find((t) => t > this.tick) ?? this.endTick;
    return marks.findLast((t) => t < this.tick) ?? 0;
  }

  snapshot(): Snapshot {
    return this.game.snapshot();
  }

  hash(): string {
    return this.game.hash();
  }

  private fresh(): Game {
    return createGame(replayConfig(this.replay));
  }

  /** Continues from a copy of checkpoint i, so the checkpoint itself stays untouched. */
  private restore(i: number): void {
    const index = Math.min(i, this.checkpoints.length - 1);
    const checkpoint = this.checkpoints[index];
    this.game = checkpoint ? checkpoint.clone() : this.fresh();
    this.at.tick = checkpoint ? index * this.interval : 0;
    this.at.next = firstAt(this.replay.events, this.at.tick);
    this.at.nextGarbage = firstAt(this.replay.garbage ?? [], this.at.tick);
  }
}

/** Where a playback is in its replay: the tick to play next, and the next input and garbage events. */
export interface ReplayCursor {
  tick: number;
  next: number;
  nextGarbage: number;
}

/**
 * Plays the replay's tick `at.tick` on `game` and moves the cursor on: the tick's garbage joins the
 * queue first, then its inputs apply, as in simulateReplay. The one way a replay is played back
 * here, by the viewers and by the sandbox that continues a replay's moment.
 */
export function stepReplay(game: Game, replay: Replay, at: ReplayCursor): readonly GameEvent[] {
  const now = at.tick;
  takeArrivedGarbage(game, replay, at);
  const events = replay.events;
  const inputs: InputEvent[] = [];
  while (at.next < events.length && events[at.next]!.tick === now) {
    const e = events[at.next++]!;
    inputs.push({ key: e.key, down: e.down });
  }
  at.tick++;
  return game.tick(inputs);
}

/**
 * The garbage the replay records for tick `at.tick` joins the queue (once): it was sent before
 * that tick, so a game stopped at its start (play from here) holds it queued, as the room's
 * referee does once it has routed the tick before.
 */
export function takeArrivedGarbage(game: Game, replay: Replay, at: ReplayCursor): void {
  const garbage = replay.garbage ?? [];
  while (at.nextGarbage < garbage.length && garbage[at.nextGarbage]!.tick === at.tick) game.receiveGarbage(garbage[at.nextGarbage++]!.size);
}

/** Index of the first event on or after `tick` (events are sorted by tick). */
function firstAt(events: ReadonlyArray<{ tick: number }>, tick: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid]!.tick < tick) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
