import 'server-only';
import { HOLES_AHEAD, TICKS_PER_SECOND, type PieceType } from '@/lib/engine';
import { EventLog } from '@/lib/server/live/event-log';
import { paceOf, type Pace } from '@/lib/server/live/pacing';

/** A batch that is not the next one: the browser resends from its last acknowledged batch. */
export type OutOfOrder = { code: 'out_of_order'; message: string };

/**
 * One player's stream of play as the server takes it, the part a solo live game (solo/game-host.ts)
 * and each seat of a match (match/match-seat.ts) share: numbered batches, the pieces dealt (never
 * more than the preview plus one past the current piece), the accepted inputs, the clock the
 * stream is paced against, and time away; in Dig the hole columns too, dealt the same way. What the stream is played on (a solo simulation or the
 * referee) and what follows from falling behind or staying away (a lost rank, a lost game) are
 * the host's.
 */
export class SeatStream {
  private seq = 0;
  /** The inputs the game accepted, in order. */
  readonly log = new EventLog();
  readonly dealt: PieceType[] = [];
  /** Time away and paused, excused from the pace (monotonic ms). */
  excusedMs = 0;
  /** Our own stalls, excused from the pace apart from time away (excuseStall); never checkpointed. */
  private stallMs = 0;
  private gone: number | null = null;

  /** Dig: the hole columns dealt, from the top row of the starting field (holes()). */
  readonly holes: number[] = [];

  constructor(
    private readonly draw: () => PieceType,
    private readonly nextCount: number,
    /** When the stream's clock started (its tick 0), in the host's milliseconds. */
    readonly t0: number,
    /** Dig: the seed's hole columns and how many rows the game has; none in other modes. */
    private readonly holeSupply: { draw: () => number; rows: number } | null = null,
  ) {}

  /** When the player's connection dropped, in the host's milliseconds; null while seated. */
  get goneAt(): number | null {
    return this.gone;
  }

  /** The last batch taken; a batch at or below it is a resend after a reconnect. */
  get lastSeq(): number {
    return this.seq;
  }

  /** Batch `seq` (the one order() called next) was played. */
  accept(seq: number): void {
    this.seq = seq;
  }

  /** 'again' for a batch already taken (acknowledge it again), 'next' for the one expected. */
  order(seq: number): 'again' | 'next' | OutOfOrder {
    if (seq <= this.seq) return 'again';
    if (seq === this.seq + 1) return 'next';
    return { code: 'out_of_order', message: `Batch ${seq} arrived, ${this.seq + 1} was expected.` };
  }

  /**
   * Deals up to the preview plus one past the current piece (`taken`: pieces the game has taken
   * from the queue, the current one included): what was dealt now, or null. Never further: a
   * piece dealt is a piece seen.
   */
  topUp(taken: number): { from: number; pieces: PieceType[] } | null {
    const from = this.dealt.length;
    while (this.dealt.length < taken + this.nextCount + 1) this.dealt.push(this.draw());
    return this.dealt.length === from ? null : { from, pieces: this.dealt.slice(from) };
  }

  /**
   * Dig: deals hole columns up to HOLES_AHEAD past the rows risen (`risen`: the field's rows and
   * those risen since), never further: a column dealt is a hole seen before its row rises, and a
   * lock raises one row at most (lib/engine/cheese.ts). What was dealt now, or null.
   */
  topUpHoles(risen: number): { from: number; columns: number[] } | null {
    const supply = this.holeSupply;
    if (!supply) return null;
    const from = this.holes.length;
    while (this.holes.length < Math.min(supply.rows, risen + HOLES_AHEAD)) this.holes.push(supply.draw());
    return this.holes.length === from ? null : { from, columns: this.holes.slice(from) };
  }

  /** Pieces dealt that the game has not taken yet. */
  ahead(taken: number): number {
    return this.dealt.length - taken;
  }

  /**
   * This process stalled `ms` (pacing.ts lateBy) as of `now`: the stream is not charged for it,
   * nor for any of it before its clock started.
   */
  excuseStall(ms: number, now: number): void {
    this.stallMs += Math.min(ms, Math.max(0, now - this.t0));
  }

  /** What our stalls excuse now (excuseStall, as settled). */
  get stalledMs(): number {
    return this.stallMs;
  }

  /**
   * Excused time (away, a stall of ours) is credit only while the stream trails the clock that far:
   * a client that played on meanwhile and sends it all at once keeps no credit to think with later.
   */
  settle(tick: number, now: number): void {
    this.excusedMs = Math.min(this.excusedMs, this.trail(tick, now));
    this.settleStalls(tick, now);
  }

  /** The same for our stalls' credit alone (a solo game's pauses and gaps keep theirs: its browser's clock stopped for them). */
  settleStalls(tick: number, now: number): void {
    this.stallMs = Math.min(this.stallMs, Math.max(0, this.trail(tick, now) - this.excusedMs));
  }

  /** How far the stream at `tick` trails the clock at `now` past everything excused (0 if it does not). */
  lag(tick: number, now: number): number {
    return Math.max(0, this.trail(tick, now) - this.excusedMs - this.stallMs);
  }

  private trail(tick: number, now: number): number {
    return Math.max(0, now - this.t0 - (tick * 1000) / TICKS_PER_SECOND);
  }

  /** The stream at `tick` against the clock at `now`, allowed to trail by `behindToleranceMs` (pacing.ts paceOf). */
  pace(tick: number, now: number, behindToleranceMs: number): Pace {
    return paceOf({ tick, elapsedMs: now - this.t0, excusedMs: this.excusedMs + this.stallMs }, behindToleranceMs);
  }

  /** The connection dropped at `at` (never before the clock's start: a countdown is nobody's time away). */
  drop(at: number): void {
    this.gone = Math.max(at, this.t0);
  }

  /** Away since the drop, as of `now`: 0 while seated. */
  awayFor(now: number): number {
    return this.gone === null ? 0 : Math.max(0, now - this.gone);
  }

  /** Time away so far has been charged (a hand-over, a shutdown): a player still away is counted afresh from `now`. */
  chargedAway(now: number): void {
    if (this.gone !== null) this.gone = now;
  }

  /** Seated again: how long the player was away (0 if they were not). */
  back(now: number): number {
    const away = this.awayFor(now);
    this.gone = null;
    return away;
  }
}
