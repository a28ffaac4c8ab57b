import 'server-only';
import type { Game, GarbageMessage, InputEvent, PieceType, VersusGame } from '@/lib/engine';
import { fromWireEvent, type LiveStats, type ServerMessage, type WireAck, type WireEvent } from '@/lib/live/protocol';
import type { Seat, SeatStream } from '@/lib/live/versus';
import { EventLog } from '@/lib/server/live/event-log';
import type { MatchSeatInfo, BatchIn } from '@/lib/server/live/match-host';

/** A seat's side of a connection, as the match host sees it (`waitMs`: see Connection.send). */
export type SeatLink = { send(message: ServerMessage, waitMs?: number): void };

/** What a seat's frame carries besides the shared pieces. */
export type SeatFrame = { events: WireEvent[]; garbage: Array<[number, number]>; tick: number; stats: LiveStats; meter: number };

/**
 * One seat of a live match for the current game: its connection, resume token and absence, the
 * pieces dealt to it, its batch numbering, and what it played since the last frame.
 */
export class MatchSeat {
  link: SeatLink | null = null;
  goneAt: number | null = null;
  goneTimer: unknown = null;
  lastSeq = 0;
  /** When this seat's clock started (after the countdown), in the host's milliseconds. */
  t0 = 0;
  /** The game whose `vstart` this seat was sent (-1: none yet); a seat away at the start gets it on its return. */
  startSent = -1;
  /** Time away (dropped and back within the window) this game, excused from the lag bound. */
  excusedMs = 0;
  dealt: PieceType[] = [];
  /** Garbage in this seat's game so far: [tick, rows]. */
  garbage: Array<[number, number]> = [];
  /** The same garbage with message ids: [id, tick, rows] (a resumed seat rebuilds from it). */
  applied: Array<[number, number, number]> = [];
  private log = new EventLog();
  private framed = { events: 0, garbage: 0 };
  private draw: () => PieceType = () => 'I';
  private nextCount = 5;

  constructor(
    readonly info: MatchSeatInfo,
    readonly token: string,
  ) {}

  newGame(draw: () => PieceType, nextCount: number, t0: number, taken: number): void {
    this.draw = draw;
    this.nextCount = nextCount;
    this.t0 = t0;
    this.excusedMs = 0;
    this.lastSeq = 0;
    this.dealt = [];
    this.garbage = [];
    this.applied = [];
    this.log = new EventLog();
    this.framed = { events: 0, garbage: 0 };
    this.topUp(taken);
  }

  /** Never more than the preview plus one past the current piece, as in a solo live game. */
  topUp(taken: number): { from: number; pieces: PieceType[] } | null {
    const from = this.dealt.length;
    while (this.dealt.length < taken + this.nextCount + 1) this.dealt.push(this.draw());
    return this.dealt.length > from ? { from, pieces: this.dealt.slice(from) } : null;
  }

  /**
   * Plays the batch tick by tick through the referee: at each tick the garbage acknowledged for
   * it, then its inputs. Returns what joined this seat's queue ([id, tick]), forced ones included.
   */
  feed(game: VersusGame, s: Seat, b: BatchIn, from: number, route: (m: GarbageMessage) => void): WireAck[] {
    const applied: WireAck[] = [];
    let e = 0;
    // Most ticks carry no event and no ack: they make no lists (60 ticks a second for every seat).
    for (let t = from; t < b.tick && !game.outcome && !game.game(s).over; t++) {
      let inputs: InputEvent[] | undefined;
      const start = e;
      while (e < b.events.length && b.events[e]![0] === t) (inputs ??= []).push(fromWireEvent(b.events[e++]!));
      let acks: number[] | undefined;
      for (const a of b.acks) if (a[1] === t) (acks ??= []).push(a[0]);
      const r = game.tick(s, inputs, acks);
      this.log.pushWire(b.events, start, e);
      for (const m of r.applied) {
        applied.push([m.id, t]);
        this.garbage.push([t, m.size]);
        this.applied.push([m.id, t, m.size]);
      }
      for (const m of r.sent) route(m);
    }
    // Ticks after this seat's end are not played; the events in them are not part of the game.
    return applied;
  }

  /** What was played since the last frame. */
  takeFrame(game: Game): SeatFrame {
    const frame = {
      events: this.log.wire(this.framed.events), garbage: this.garbage.slice(this.framed.garbage), tick: game.tickNo,
      stats: game.stats(), meter: game.garbageQueued,
    };
    this.framed = { events: this.log.length, garbage: this.garbage.length };
    return frame;
  }

  /** This seat's game from tick 0, with the pieces everyone may see. */
  stream(game: Game, pieces: PieceType[]): SeatStream {
    return {
      player: this.info.player, pieces: pieces.slice(), events: this.log.wire(), garbage: this.garbage.slice(), tick: game.tickNo,
      stats: game.stats(),
    };
  }
}

