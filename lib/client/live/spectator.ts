import { createDealtGame, HOLES_AHEAD, restoreDealtGame, type AnyMode, type DealtGame, type GameEvent, type InputEvent, type PieceType, type RoomRules, type Snapshot } from '@/lib/engine';
import { fromWireEvent, type ServerMessage } from '@/lib/live/protocol';
import type { WireEvent } from '@/lib/live/wire';
import type { WireGarbage } from '@/lib/live/versus';
import { TICK_MS } from '@/lib/client/clock';

type Watching = Extract<ServerMessage, { t: 'watching' }>;
type Frame = Extract<ServerMessage, { t: 'frame' }>;
/** Where a feed starts: a solo game's `watching`, or one seat of a versus game (with its garbage). */
export type FeedStart = Pick<Watching, 'handling' | 'nextCount' | 'pieces' | 'holes' | 'events' | 'tick' | 'paused' | 'state'> & {
  mode: AnyMode;
  /** The game's rules when the stream says (a versus match does); the mode's current ones otherwise. */
  rulesVersion?: number;
  /** Versus: garbage that joined the seat's queue, [tick, rows, hole column]; it joins before that tick's inputs. */
  garbage?: readonly WireGarbage[];
  /** A room's seat (rules 7): its room's rules and seat number. */
  room?: { rules: RoomRules; seat: number };
};
export type FeedFrame = Pick<Frame, 'from' | 'holes' | 'events' | 'tick'> & { pieces: readonly PieceType[]; paused?: boolean; garbage?: readonly WireGarbage[] };

/** How far behind the stream a spectator's field runs: input batches arrive every ~100–250 ms. */
export const SPECTATOR_DELAY_TICKS = 18;
/** Further behind than this (a stalled tab, a burst after a slow network) and the view jumps to catch up. */
const MAX_LAG_TICKS = 90;
/** Pieces dealt into the game ahead of its current one (its queue holds at most 16). */
const DEAL_AHEAD = 8;

/**
 * A watched game, re-run from the stream with the same engine as the player's: the pieces the
 * server dealt and the player's inputs, tick by tick. The field is drawn a few hundred ms behind
 * the newest tick received, never ahead of it, at the game's own 60 ticks/s. Pure: the page
 * calls `advance(now)` every animation frame, tests call it with numbers.
 */
export class SpectatorFeed {
  private game: DealtGame;
  private pieces: PieceType[];
  /** Dig: hole columns by row index, as dealt (the player's game is given them as rows rise). */
  private readonly holes: number[] = [];
  private readonly events = new Map<number, InputEvent[]>();
  private readonly garbage = new Map<number, Array<[rows: number, column: number]>>();
  /** The newest tick the stream has reached. */
  latest: number;
  paused: boolean;
  private clock: { at: number; tick: number } | null = null;

  constructor(w: FeedStart) {
    const config = { mode: w.mode, handling: w.handling, nextCount: w.nextCount, ...(w.rulesVersion ? { rulesVersion: w.rulesVersion } : {}), ...(w.room ? { room: w.room } : {}) };
    if (w.state) {
      // The game a moment ago, then what was dealt and played since: `pieces` go on from the state's (by sequence index).
      this.game = restoreDealtGame(config, w.state);
      this.pieces = [];
      const next = [...w.state.next, ...w.pieces];
      for (let i = 0; i < next.length; i++) this.pieces[w.state.taken + i] = next[i]!;
    } else {
      this.pieces = [...w.pieces];
      this.game = createDealtGame(config, w.pieces.slice(0, 1));
    }
    this.addHoles(w.holes);
    this.latest = w.tick;
    this.paused = w.paused;
    this.addEvents(w.events);
    this.addGarbage(w.garbage);
  }

  private addHoles(holes: FeedFrame['holes']): void {
    if (holes) for (let i = 0; i < holes.columns.length; i++) this.holes[holes.from + i] = holes.columns[i]!;
  }

  private addGarbage(garbage: FeedStart['garbage']): void {
    for (const [tick, rows, column] of garbage ?? []) {
      const at = this.garbage.get(tick);
      if (at) at.push([rows, column]);
      else this.garbage.set(tick, [[rows, column]]);
    }
  }

  private addEvents(events: readonly WireEvent[]): void {
    for (const w of events) {
      const e = fromWireEvent(w);
      const at = this.events.get(e.tick);
      if (at) at.push({ key: e.key, down: e.down });
      else this.events.set(e.tick, [{ key: e.key, down: e.down }]);
    }
  }

  /** Adds a frame of the stream: more pieces (from a sequence index), inputs, the newest tick. */
  push(f: FeedFrame): void {
    for (let i = 0; i < f.pieces.length; i++) this.pieces[f.from + i] = f.pieces[i]!;
    this.addEvents(f.events);
    this.addHoles(f.holes);
    this.addGarbage(f.garbage);
    this.latest = Math.max(this.latest, f.tick);
    if (f.paused !== undefined) this.paused = f.paused;
  }

  get tick(): number {
    return this.game.snapshot().tick;
  }

  get over(): boolean {
    return this.game.over;
  }

  snapshot(): Snapshot {
    return this.game.snapshot();
  }

  /** Runs the game up to `tick` (or as far as the stream allows); the events of every tick run. */
  runTo(tick: number): GameEvent[] {
    const g = this.game;
    const target = Math.min(tick, this.latest);
    let out: GameEvent[] = [];
    while (!g.over) {
      const t = this.tick;
      if (t >= target) break;
      const known = this.pieces.length;
      if (g.dealt < known && g.dealt - g.taken < DEAL_AHEAD) g.deal(g.dealt, this.pieces.slice(g.dealt, Math.min(known, g.taken + DEAL_AHEAD)));
      if (this.holes.length > g.holesDealt) g.dealHoles(g.holesDealt, this.holes.slice(g.holesDealt, g.holesRisen + HOLES_AHEAD));
      // Not enough pieces yet for this tick: wait for the next frame of the stream.
      if (!g.ready) break;
      for (const [rows, column] of this.garbage.get(t) ?? []) g.receiveGarbage(rows, column);
      this.garbage.delete(t);
      const evs = g.tick(this.events.get(t));
      this.events.delete(t);
      if (evs.length > 0) out = out.concat(evs);
    }
    return out;
  }

  /**
   * One animation frame at `now` (ms): the field moves on at 60 ticks/s, kept SPECTATOR_DELAY_TICKS
   * behind the newest tick received, jumping forward only when it has fallen far behind.
   */
  advance(now: number): GameEvent[] {
    const target = this.latest - SPECTATOR_DELAY_TICKS;
    if (!this.clock || target - this.tick > MAX_LAG_TICKS) {
      const events = this.runTo(Math.max(this.tick, target));
      this.clock = { at: now, tick: this.tick };
      return events;
    }
    const due = this.clock.tick + Math.floor((now - this.clock.at) / TICK_MS);
    if (due > target) {
      // Caught up with the delay: wait here, and count time from now.
      this.clock = { at: now, tick: this.tick };
      return this.runTo(target);
    }
    return this.runTo(due);
  }
}
