import 'server-only';
import { ReplaySizeBound, VERSUS_RULES_VERSION, type Game, type Handling, type GarbageMessage, type InputEvent, type PieceType, type VersusGame } from '@/lib/engine';
import { HumanInputGate } from '@/lib/input-limits';
import { fromWireEvent, type ServerMessage } from '@/lib/live/protocol';
import type { LivePlayer, LiveStats, WireEvent } from '@/lib/live/wire';
import type { Seat, SeatSoFar, WireGarbage } from '@/lib/live/versus';
import { SeatStream } from '@/lib/server/live/seat-stream';
import type { Owner } from '@/lib/server/games/owner';
import type { BotSpec } from '@/lib/bot/spec';

/** Who sits in a seat, and how they play; `bot`: the server's sparring bot plays it (stored as such). */
export type MatchSeatInfo = { owner: Owner; player: LivePlayer; handling: Handling; nextCount: number; bot?: BotSpec };

/** One batch of a seat's inputs, for game `game` of the set. */
export type BatchIn = { game: number; seq: number; tick: number; events: readonly WireEvent[] };

/** A seat's side of a connection, as the match host sees it (`waitMs`: see Connection.send). */
export type SeatLink = { send(message: ServerMessage, waitMs?: number): void };

/** What a seat's frame carries besides the shared pieces. */
export type SeatFrame = { events: WireEvent[]; garbage: WireGarbage[]; tick: number; stats: LiveStats; meter: number };

/** Garbage in a seat's game: the message id, the tick it joined, its rows and hole column. */
type Joined = { id: number; tick: number; size: number; column: number };

/** Why a batch cannot be played: its inputs are not a person's, or its replay could no longer be stored. */
export type Unplayable = { why: 'inhuman' | 'too_long'; message: string };

/**
 * One seat of a live match for the current game: its connection, resume token and absence, the
 * pieces dealt to it (and from which tick it held each count), its batch numbering, the garbage
 * routed to it, and what it played that others have not been shown yet.
 */
export class MatchSeat {
  link: SeatLink | null = null;
  goneTimer: unknown = null;
  /**
   * The current game's stream (seat-stream.ts): batches, deals, inputs, its clock (started after
   * the countdown) and time away. Its excused time is credit against the lag bound only while the
   * seat is that far behind (MatchHost.inputs).
   */
  stream = new SeatStream(noGameYet, 5, 0);
  /** The game whose `vstart` this seat was sent (-1: none yet); a seat away at the start gets it on its return. */
  startSent = -1;
  /** Time away counted against the budgets (MATCH_TIMING.awayPerGameMs, awayPerMatchMs). */
  awayInGameMs = 0;
  awayInMatchMs = 0;
  /** Garbage in this seat's game so far, in the order it joined. */
  garbage: Joined[] = [];
  /** [tick, pieces dealt]: from `tick` on the seat could know that many pieces (a deal follows the batch that ends there). */
  private knows: Array<[number, number]> = [];
  /** The first entry of `knows` not yet shown: `visible` only grows within a game. */
  private knownShown = 0;
  private shown = { events: 0, garbage: 0, tick: 0, stats: START_STATS, meter: 0 };
  private gate = new HumanInputGate();
  private size = new ReplaySizeBound(VERSUS_RULES_VERSION);

  constructor(
    readonly info: MatchSeatInfo,
    readonly token: string,
  ) {}

  /** A new game of the set: a new stream, whose clock starts at `t0`; a seat still away is away from then on. */
  newGame(draw: () => PieceType, nextCount: number, t0: number, taken: number, rulesVersion: number): void {
    const goneAt = this.stream.goneAt;
    this.stream = new SeatStream(draw, nextCount, t0);
    if (goneAt !== null) this.stream.drop(goneAt);
    this.awayInGameMs = 0;
    this.garbage = [];
    this.knows = [];
    this.knownShown = 0;
    this.shown = { events: 0, garbage: 0, tick: 0, stats: START_STATS, meter: 0 };
    this.gate = new HumanInputGate();
    this.size = new ReplaySizeBound(rulesVersion);
    this.topUp(taken, 0);
  }

  /** The stream's deal (SeatStream.topUp); `tick` is where the seat's stream stands, from which it could know the pieces. */
  topUp(taken: number, tick: number): { from: number; pieces: PieceType[] } | null {
    const deal = this.stream.topUp(taken);
    if (deal) this.knows.push([tick, this.stream.dealt.length]);
    return deal;
  }

  /**
   * Whether the batch's inputs could be a person's (HUMAN_INPUT) and its game could still be
   * stored with them (ReplaySizeBound): checked before anything is played, as the batch arrives.
   * A padded stream is refused here, not discovered when the match is stored.
   */
  admit(b: BatchIn, targets?: ReadonlyMap<number, number>): Unplayable | null {
    // A room seat's target changes go in its replay too (rules 7): they count against the same bound.
    if (targets) for (const [t, to] of targets) this.size.addTarget(t, to);
    for (const [t, , down] of b.events) {
      const why = this.gate.add(t, down === 1);
      if (why) return { why: 'inhuman', message: why };
      this.size.addEvent(t);
    }
    return this.size.fits ? null : { why: 'too_long', message: 'This game holds more inputs than a replay can store.' };
  }

  /** Garbage the referee routed to this seat: it is in the seat's game from `tick` on. */
  joined(m: GarbageMessage): Joined {
    const j = { id: m.id, tick: m.sentAt, size: m.size, column: m.column };
    this.garbage.push(j);
    this.size.addGarbage(j.tick, j.size);
    return j;
  }

  /** Plays the batch tick by tick through the referee; what this seat's locks sent is handed to `route`. */
  feed(game: VersusGame, s: Seat, b: BatchIn, from: number, route: (m: GarbageMessage) => void): void {
    let e = 0;
    // Most ticks carry no event: they make no lists (60 ticks a second for every seat).
    for (let t = from; t < b.tick && !game.outcome && !game.game(s).over; t++) {
      let inputs: InputEvent[] | undefined;
      const start = e;
      while (e < b.events.length && b.events[e]![0] === t) (inputs ??= []).push(fromWireEvent(b.events[e++]!));
      const r = game.tick(s, inputs);
      this.stream.log.pushWire(b.events, start, e);
      for (const m of r.sent) route(m);
    }
    // Ticks after this seat's end are not played; the events in them are not part of the game.
  }

  /**
   * What was played since the last frame, up to the first tick from which this seat held more than
   * `visible` pieces (what every seat has been dealt): inputs made while looking at pieces the other
   * seat has not seen yet would tell it what is coming, so they wait. Null when nothing is new.
   */
  takeFrame(game: Game, visible: number): SeatFrame | null {
    const cut = this.cutAt(game.tickNo, visible);
    // Nothing new: the cut has not moved, and (if nothing is held back) the counters are shown.
    if (cut === this.shown.tick && (cut < game.tickNo || this.shown.stats.tick === game.tickNo)) return null;
    const upTo = this.eventsBefore(cut, this.shown.events);
    const gUpTo = this.garbageBefore(cut, this.shown.garbage);
    // Counters are the game's now: they can be shown only when nothing is held back.
    if (cut === game.tickNo) this.shown = { ...this.shown, stats: game.stats(), meter: game.garbageQueued };
    const frame: SeatFrame = {
      events: this.stream.log.wire(this.shown.events, upTo), garbage: this.garbage.slice(this.shown.garbage, gUpTo).map(wire), tick: cut,
      stats: this.shown.stats, meter: this.shown.meter,
    };
    this.shown = { ...this.shown, events: upTo, garbage: gUpTo, tick: cut };
    return frame;
  }

  /** This seat's game from tick 0, as far as `visible` pieces allow, with the pieces everyone may see. */
  soFar(game: Game, pieces: PieceType[], visible: number): SeatSoFar {
    const cut = this.cutAt(game.tickNo, visible);
    const upTo = this.eventsBefore(cut, this.shown.events);
    return {
      player: this.info.player, pieces: pieces.slice(), events: this.stream.log.wire(0, upTo), garbage: this.garbage.slice(0, this.garbageBefore(cut, this.shown.garbage)).map(wire),
      tick: cut, stats: cut === game.tickNo ? game.stats() : this.shown.stats,
    };
  }

  private cutAt(tick: number, visible: number): number {
    while (this.knownShown < this.knows.length && this.knows[this.knownShown]![1] <= visible) this.knownShown++;
    const held = this.knows[this.knownShown];
    return held ? Math.min(held[0], tick) : tick;
  }

  /** How many entries are before `tick`, counting on from `from` (all before it already were): only what is new is read. */
  private eventsBefore(tick: number, from: number): number {
    let i = from;
    while (i < this.stream.log.length && this.stream.log.tickAt(i) < tick) i++;
    return i;
  }

  private garbageBefore(tick: number, from: number): number {
    let i = from;
    while (i < this.garbage.length && this.garbage[i]!.tick < tick) i++;
    return i;
  }
}

const wire = (g: Joined): WireGarbage => [g.tick, g.size, g.column];
/** The stream a seat holds before its first game: it deals nothing (newGame replaces it before any deal). */
const noGameYet = (): never => {
  throw new Error('A match seat deals only once its first game has started.');
};
const START_STATS: LiveStats = { score: 0, lines: 0, level: 1, pieces: 0, tick: 0 };
