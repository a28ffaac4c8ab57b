import 'server-only';
import { cheeseOf, createStreamSim, holeSequence, MODES, pieceSequence, ReplayError, TICKS_PER_SECOND } from '@/lib/engine';
import type { GameState, Handling, Mode, Replay, StreamSim } from '@/lib/engine';
import { fromWireEvent, MAX_BATCH_TICKS, toWireEvent, type LiveErrorCode, type ServerMessage, type UnrankedReason } from '@/lib/live/protocol';
import type { LivePlayer, LiveStats, WireEvent } from '@/lib/live/wire';
import type { Owner } from '@/lib/server/games/owner';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { checkLog, InputDigest, type AckCheckpoint } from '@/lib/server/live/solo/ack-digest';
import { CLUSTER } from '@/lib/server/live/cluster/cluster';
import type { LiveBus } from '@/lib/server/live/cluster/bus';
import type { Carried } from '@/lib/server/live/cluster/lease';
import { pauseVerdict, PAUSE_BUDGETS } from '@/lib/live/pauses';
import { PACING, starveCreditOf } from '@/lib/server/live/pacing';
import { SeatStream } from '@/lib/server/live/seat-stream';
import { processStalls } from '@/lib/server/live/stalls';
import { resumeTokenMatches, resumeTokenOf } from '@/lib/server/live/solo/resume-token';
import { giveUpLiveGame, writeAckCheckpoint } from '@/lib/server/live/solo/gathered-writes';
import { finalizeStream, recordStreamEnd, refuseLiveGame, STREAM_STORE } from '@/lib/server/games/streams';
import type { CheckpointRow } from '@/lib/server/live/solo/checkpoints';
import { tellTaken } from '@/lib/server/live/seat-taken';
import { RecentLeast } from '@/lib/server/live/solo/recent-least';
import { CatchUp } from '@/lib/server/live/solo/catch-up';

/** What a shutting-down host answers an input or a pause (shutDown). */
const DRAINING: Fail = { code: 'server_error', message: 'The server is restarting: this goes again once you have reconnected.' };

/**
 * The player's side of a connection, as the host sees it; `roundTrip`, its round trip as the
 * server measures it (round-trip.ts), prices each wait for pieces.
 */
export type Seat = { send(message: ServerMessage): void; readonly roundTrip?: { probe(): void; readonly ms: number | null } };

export type HostOptions = {
  gameId: string;
  seed: string;
  mode: Mode;
  /** The ticket's rules version: announced in `started`, enforced on the stream, written in the replay. */
  rulesVersion: number;
  handling: Handling;
  nextCount: number;
  owner: Owner;
  player: LivePlayer;
  bus: LiveBus;
  /** Milliseconds, monotonic; the data-layer tests drive their own to play at exact pace. */
  now?: () => number;
  /** This process's stalls so far (stalls.ts; ms): the default, unless `now` is a test's own clock (then none but the test's). */
  stalls?: () => number;
  /** Store the stream itself this long after its end if no POST did (default STREAM_STORE.finalizeAfterMs; null: never). */
  finalizeAfterMs?: number | null;
  /**
   * Taken up from the ticket after the host that dealt it was lost (adopt.ts): the clock runs
   * from the ticket's issue (`issuedAtMs`, wall time), and the browser's whole input log up to
   * `catchUpTo` arrives at once, its lateness excused as a reconnect's is. `checkpoint` is how far
   * the lost host had acknowledged: the resent log must begin with exactly that input.
   */
  adopted?: { issuedAtMs: number; catchUpTo: number; carried?: Carried | null; checkpoint?: AckCheckpoint | null };
  /** The page counts down this long before the first tick (`start.countdown`): the clock starts that much after the deal. */
  countdownMs?: number;
  onClose(host: GameHost): void;
};

type Fail = { code: LiveErrorCode; message: string };

/**
 * One live game on the server: runs the seeded engine on the input stream as it arrives,
 * deals the pieces (never more than the preview plus one past the player's current piece),
 * checks the pace, records pauses, feeds spectators, and stores the game when the stream ends
 * (finalize through lib/server/games/submit, the same decision and store as a POSTed replay).
 * Knows nothing of sockets: the hub gives it a Seat; a versus match can hold two of these.
 */
export class GameHost {
  readonly gameId: string;
  readonly resumeToken: string;
  readonly startedAt: Date;
  private announcedAt = -Infinity;
  private readonly sim: StreamSim;
  /** Batches, deals, the accepted inputs, the clock and time away (seat-stream.ts). */
  private readonly stream: SeatStream;
  private readonly inputDigest = new InputDigest();
  private readonly now: () => number;
  private readonly stalls: () => number;
  /** The process's stalls already excused, or from before the game. */
  private stallsSeen: number;
  private awayMs = 0;
  private starveCreditMs = 0;
  private pauses = 0;
  private pausedAt: number | null = null;
  private goneTimer: NodeJS.Timeout | null = null;
  private unranked: UnrankedReason | null = null;
  private state: 'playing' | 'ended' | 'closed' = 'playing';
  private seat: Seat | null = null;
  /** A taken-up game's resent log up to the tick its resume declared, and the moment after it (catch-up.ts). */
  private readonly catchUp: CatchUp;
  /**
   * How far the game trailed the clock, past what was excused and its waits for pieces, at its
   * batches (`lags`: the least of those that arrived in PACING.carriedLagWindowMs before the last,
   * so batches late on a failing link are not taken for it). Carried on a hand-over, so the host
   * taking it up excuses the gap and not this too (`carriedLagMs`): a client dropping and
   * reconnecting through another instance started from no lag each time, slow motion reset at will.
   */
  private readonly carriedLagMs: number;
  private readonly lags = new RecentLeast(PACING.carriedLagWindowMs);
  /** An adopted game's resent log is checked against this once it reaches the checkpoint's tick. */
  private mustContinue: AckCheckpoint | null;
  private checkpointAt = -Infinity;
  private dealtSinceCheckpoint = false;
  private checkpointWrite: Promise<void> | null = null;
  /** Settles once the stream's end is recorded on the ticket (a POST can then match it), or the host gave up on it. */
  recorded: Promise<void> | null = null;
  /** The stream ended and its end is not on the ticket yet (the database was away): a POST waits for it. */
  recording = false;
  /** Set by shutDown: inputs and pauses are refused from then on. */
  private draining = false;
  /** The refusal or the giving up being written, if any: a shutdown waits for it before the process exits. */
  private closing: Promise<void> | null = null;
  /** Stores the ended stream (once) unless a POST did: after STREAM_STORE.finalizeAfterMs, or at a shutdown. */
  private storeFromStream: (() => Promise<void>) | null = null;
  /** The `over` message once sent: a seat that resumes after the end gets it again. */
  private over: Extract<ServerMessage, { t: 'over' }> | null = null;
  /** Told when `recording` changes, so a POST reaching another instance waits too (lease.ts). */
  onRecordingChange: ((on: boolean) => void) | null = null;
  /** Where a spectator's catch-up starts: the game's state a moment ago, with how far the log and the deals then were. */
  private keyframe!: { state: GameState; tick: number; events: number; dealt: number; holes: number };
  /** The last catch-up built, and the point of the game it describes. */
  private caughtUp: { key: string; message: ServerMessage } | null = null;

  constructor(private readonly o: HostOptions) {
    this.gameId = o.gameId;
    this.resumeToken = resumeTokenOf(o.gameId);
    this.now = o.now ?? (() => performance.now());
    this.stalls = o.stalls ?? (o.now ? () => 0 : processStalls);
    this.stallsSeen = this.stalls();
    this.startedAt = o.adopted ? new Date(o.adopted.issuedAtMs) : new Date();
    // Handed over by another instance: its pause count and a lost rank carry on here.
    this.pauses = o.adopted?.carried?.pauses ?? 0;
    this.awayMs = o.adopted?.carried?.awayMs ?? 0;
    this.unranked = (o.adopted?.carried?.unranked as UnrankedReason | null | undefined) ?? null;
    this.mustContinue = o.adopted?.checkpoint ?? null;
    // Never below what the lost host had acknowledged (its browser was at least there): a resume
    // declaring tick 0 had the excuse taken at its first tick, and the rest of its log came as credit.
    // Never past the wall clock since the deal: the catch-up's excuse cannot reach beyond now.
    const declared = o.adopted
      ? Math.min(Math.max(o.adopted.catchUpTo, o.adopted.checkpoint?.tick ?? 0), Math.floor(((Date.now() - o.adopted.issuedAtMs) * TICKS_PER_SECOND) / 1000))
      : -1;
    // Never more than the lag bound: a game past it had lost its rank there already.
    this.carriedLagMs = Math.min(Math.max(0, Number(o.adopted?.carried?.lagMs) || 0), PACING.behindToleranceMs);
    // A key the game's rules lack is a bad batch (stream.ts).
    this.sim = createStreamSim({ mode: o.mode, seed: o.seed, handling: o.handling, nextCount: o.nextCount, rulesVersion: o.rulesVersion });
    const t0 = this.now() - (o.adopted ? Math.max(0, Date.now() - o.adopted.issuedAtMs) : 0) + (o.countdownMs ?? 0);
    // Dig: hole columns are dealt as pieces are, a row or two before they rise (seat-stream.ts).
    const cheese = cheeseOf(MODES[o.mode]);
    this.stream = new SeatStream(pieceSequence(o.seed, o.rulesVersion), o.nextCount, t0, cheese && { draw: holeSequence(o.seed, o.mode), rows: cheese.rows });
    this.stream.topUp(this.sim.taken);
    this.stream.topUpHoles(this.sim.holesRisen);
    this.takeKeyframe();
    this.catchUp = new CatchUp(declared, this.now());
  }

  get owner(): Owner {
    return this.o.owner;
  }
  get ended(): boolean {
    return this.state !== 'playing';
  }

  /** The `started` message: the current piece, the preview and one spare. */
  attach(seat: Seat): void {
    this.seat = seat;
    seat.roundTrip?.probe();
    seat.send({
      t: 'started', gameId: this.gameId, mode: this.o.mode, rulesVersion: this.o.rulesVersion, handling: this.o.handling,
      nextCount: this.o.nextCount, pieces: this.stream.dealt.slice(), ...this.holesSoFar(), resumeToken: this.resumeToken, resumeWindowMs: PACING.resumeWindowMs,
    });
    this.announce();
  }

  /**
   * A reconnect with the token `started` gave, within PACING.resumeWindowMs of the drop; the time
   * away is excused from the pace, up to PACING.maxAwayMs in all.
   */
  resume(seat: Seat, token: string): boolean {
    if (this.state === 'closed' || !resumeTokenMatches(this.gameId, token)) return false;
    if (this.state === 'ended') {
      // Refused (recording that, then closing): nothing to take up.
      if (!this.recorded) return false;
      // Dropped while the end was being recorded, or just after: the new seat gets the seed too
      // (after its resumed, or when finish() sends it), or the player would never learn the
      // result of a game the server stores all the same.
      this.seat = seat;
      const over = this.over;
      if (over) queueMicrotask(() => this.seat === seat && seat.send(over));
      return true;
    }
    const away = this.awaySoFar();
    if (away === null) return false;
    // A drop inside a pause (one can start or end only while seated): the pause excuses that
    // time and counts it against its own budget; excusing it again here was slow motion for free.
    if (this.pausedAt === null) {
      this.stream.excusedMs += away;
      this.chargeAway(away);
    }
    this.stream.back(this.now());
    if (this.goneTimer) clearTimeout(this.goneTimer);
    this.goneTimer = null;
    tellTaken(this.seat, seat, this.gameId);
    this.seat = seat;
    seat.roundTrip?.probe();
    if (this.awayMs > PACING.maxAwayMs) this.loseRank('disconnected'); // told to the new seat
    return true;
  }

  /** Whether `seat` plays this game now: a connection whose seat a later resume took does not. */
  seated(seat: Seat): boolean {
    return this.seat === seat;
  }

  resumed(): Extract<ServerMessage, { t: 'resumed' }> {
    return { t: 'resumed', gameId: this.gameId, lastSeq: this.stream.lastSeq, tick: this.sim.tick, from: 0, pieces: this.stream.dealt.slice(), ...this.holesSoFar() };
  }

  /** Dig: every hole column dealt so far, from the top row of the starting field; nothing in other modes. */
  private holesSoFar(): { holes?: number[] } {
    return this.stream.holes.length > 0 ? { holes: this.stream.holes.slice() } : {};
  }

  /** The connection dropped: wait the resume window, then give the game up. */
  detach(seat: Seat): void {
    if (this.seat !== seat) return;
    this.seat = null;
    if (this.state !== 'playing') return;
    this.stream.drop(this.now());
    this.goneTimer = setTimeout(() => this.close(), PACING.resumeWindowMs);
    this.goneTimer.unref();
  }

  inputs(seq: number, tick: number, wire: readonly WireEvent[], hash?: string): Fail | null {
    if (this.state !== 'playing') return { code: 'game_over', message: 'This game is over.' };
    if (this.draining) return DRAINING;
    const order = this.stream.order(seq);
    if (order === 'again') {
      this.send({ t: 'ack', stream: this.gameId, seq, tick: this.sim.tick }); // a resend after a reconnect
      return null;
    }
    if (order !== 'next') return order;
    if (this.pausedAt !== null) return { code: 'out_of_order', message: 'The game is paused: send unpause first.' };
    if (tick - this.sim.tick > MAX_BATCH_TICKS) return { code: 'bad_inputs', message: `A batch may run the clock at most ${MAX_BATCH_TICKS} ticks.` };
    const now = this.now();
    const elapsedMs = Math.max(0, now - this.stream.t0);
    // A stall of ours since the last batch is nobody's lag: this batch may have waited behind it (stalls.ts).
    const stalled = this.stalls() - this.stallsSeen;
    this.stallsSeen += stalled;
    if (stalled > 0) this.stream.excuseStall(stalled, now);
    // An adopted game's log up to where the browser was arrives late by however long the server
    // was away: excused once, at the batch that reaches the declared tick (catch-up.ts). The excuse
    // this batch shows the game is owed: the gap, not the lag it had before it (carried by a
    // hand-over, or kept with its last checkpoint).
    const owed = elapsedMs - (tick * 1000) / TICKS_PER_SECOND - this.carriedLagMs;
    const step = this.catchUp.batch(tick, now, owed, this.stream.excusedMs);
    this.stream.excusedMs = step.excusedMs;
    if (step.kind === 'reached') {
      this.awayMs += step.awayMs;
      if (this.awayMs > PACING.maxAwayMs) this.loseRank('disconnected');
    }
    const catchingUp = step.kind === 'resent';
    const heldBack = step.kind === 'held';
    // Judged from the clock's start at the earliest: a batch of the first tick sent before a countdown's end is not ahead of anything.
    const pace = this.stream.pace(tick, Math.max(now, this.stream.t0), PACING.behindToleranceMs + this.starveCreditMs);
    if (pace === 'ahead') {
      this.refuse('ahead_of_clock', `The game reached tick ${tick} after only ${Math.round(elapsedMs)} ms.`);
      return { code: 'ahead_of_clock', message: 'The game ran ahead of the wall clock, so it was ended and not stored.' };
    }
    const events = wire.map(fromWireEvent);
    const ahead = this.stream.ahead(this.sim.taken);
    try {
      this.sim.feed(events, tick);
    } catch (error) {
      if (error instanceof ReplayError) return { code: 'bad_inputs', message: error.message };
      throw error;
    }
    this.stream.accept(seq);
    this.stream.settleStalls(this.sim.tick, now);
    // Events after the game's end are not part of it (the replay's unusedEvents would say so).
    const used = events.slice(0, this.sim.applied - this.stream.log.length);
    this.stream.log.pushEvents(used);
    this.inputDigest.add(used);
    // Checked before anything of this batch is acknowledged or dealt: a log replaced after the
    // pieces were seen never gets a piece further.
    if (this.mustContinue) {
      // Up to the first input past the checkpoint: all that checkLog reads.
      const verdict = checkLog(this.stream.log.events(0, this.mustContinue.inputs + 1), this.sim.tick, this.sim.ended, this.mustContinue);
      if (verdict === 'differs') {
        this.refuse('resume_mismatch', `The resent log is not the one acknowledged up to tick ${this.mustContinue.tick} before the game was taken up.`);
        return { code: 'resume_failed', message: 'The resent inputs differ from the ones the server had acknowledged, so the game was ended and not stored.' };
      }
      if (verdict === 'continues') this.mustContinue = null;
    }
    // Short of pieces after this batch: the browser waits a round trip for the deal, clock stopped.
    // Not after a batch of a catch-up's resent history, nor of play held back past it (its pieces were
    // played before): cut fine, each earned a credit and wiped the lag a take-up keeps. The one reaching
    // the declared tick waits as any.
    if (!catchingUp && !heldBack && ahead - this.stream.ahead(this.sim.taken) > 0 && this.stream.ahead(this.sim.taken) < Math.max(this.o.nextCount, 2))
      this.starveCreditMs += starveCreditOf(this.seat?.roundTrip?.ms ?? null);
    this.seat?.roundTrip?.probe();
    if (pace === 'behind' && !catchingUp) this.loseRank('too_slow');
    if (!catchingUp) this.lags.add(now, Math.max(0, this.stream.lag(this.sim.tick, Math.max(now, this.stream.t0)) - this.starveCreditMs));
    this.send({ t: 'ack', stream: this.gameId, seq, tick: this.sim.tick });
    const from = this.stream.dealt.length;
    const deal = this.stream.topUp(this.sim.taken);
    const holes = this.stream.topUpHoles(this.sim.holesRisen);
    if (deal || holes) {
      this.send({ t: 'deal', stream: this.gameId, from, pieces: deal?.pieces ?? [], ...(holes ? { holes } : {}) });
      this.dealtSinceCheckpoint = true;
    }
    if (this.sim.tick - this.keyframe.tick >= LIVE_LIMITS.catchUpStateEveryTicks || this.stream.log.length - this.keyframe.events >= LIVE_LIMITS.catchUpStateEveryInputs) this.takeKeyframe();
    // Built only for someone to see it: most games are played unwatched.
    if (this.o.bus.subscribers(this.gameId) > 0)
      this.o.bus.publish(this.gameId, {
        t: 'frame', gameId: this.gameId, from, pieces: deal?.pieces ?? [], ...(holes ? { holes } : {}), events: used.map(toWireEvent),
        tick: this.sim.tick, stats: this.stats(), paused: false,
      });
    if (hash !== undefined && hash !== this.sim.playHash() && !this.sim.ended)
      this.send({ t: 'error', code: 'desync', message: `At tick ${this.sim.tick} the browser's state differs from the server's.`, gameId: this.gameId, seq });
    if (this.sim.ended) this.recorded = this.finish();
    else {
      // "Live now" is read every few seconds and merged across instances every listEveryMs: a
      // fresher entry per batch was a summary object per batch that nobody read.
      if (this.now() - this.announcedAt >= CLUSTER.listEveryMs) this.announce();
      this.checkpoint();
    }
    return null;
  }

  pause(): Fail | null {
    if (this.state !== 'playing') return { code: 'game_over', message: 'This game is over.' };
    if (this.draining) return DRAINING;
    if (this.pausedAt !== null) return null;
    this.pausedAt = this.now();
    const lost = pauseVerdict(this.o.mode, ++this.pauses);
    if (lost) this.loseRank(lost);
    this.sendStatus();
    return null;
  }

  unpause(): Fail | null {
    if (this.state !== 'playing') return { code: 'game_over', message: 'This game is over.' };
    if (this.draining) return DRAINING;
    if (this.pausedAt === null) return null;
    this.chargePause();
    // Only from the clock's start: a pause during the countdown is not also excused its part of it.
    this.stream.excusedMs += Math.max(0, this.now() - Math.max(this.pausedAt, this.stream.t0));
    this.pausedAt = null;
    this.sendStatus();
    return null;
  }

  /**
   * Everything a spectator needs to draw the game from now on: its state at the last keyframe and
   * what was dealt and played since (at most LIVE_LIMITS.catchUpStateEveryTicks or …Inputs and one
   * batch), so it costs the same however long the game. Built once per point of the game: every
   * spectator arriving meanwhile gets the same message (its JSON too: connection.ts), spectator
   * count included.
   */
  watching(): ServerMessage {
    const key = `${this.sim.tick}:${this.stream.log.length}:${this.stream.dealt.length}:${this.stream.holes.length}:${this.pausedAt !== null}`;
    if (this.caughtUp?.key === key) return this.caughtUp.message;
    const k = this.keyframe;
    const message: ServerMessage = {
      t: 'watching', gameId: this.gameId, player: this.o.player, mode: this.o.mode, handling: this.o.handling, nextCount: this.o.nextCount,
      state: k.state, pieces: this.stream.dealt.slice(k.dealt), ...(this.stream.holes.length > k.holes ? { holes: { from: k.holes, columns: this.stream.holes.slice(k.holes) } } : {}),
      events: this.stream.log.wire(k.events), tick: this.sim.tick, stats: this.stats(),
      spectators: this.o.bus.subscribers(this.gameId), paused: this.pausedAt !== null,
    };
    this.caughtUp = { key, message };
    return message;
  }

  /** A few microseconds (the board as text and some counters), every ~2 s of play. */
  private takeKeyframe(): void {
    const taken = this.sim.taken;
    const holes = this.stream.holes;
    this.keyframe = {
      state: this.sim.state(this.stream.dealt.slice(taken), holes.slice(this.sim.holesRisen)), tick: this.sim.tick, events: this.stream.log.length, dealt: this.stream.dealt.length, holes: holes.length,
    };
  }

  spectatorsChanged(): void {
    this.sendStatus();
    this.announce();
  }

  /**
   * Asked for by another instance, where the player came back: what goes with the game, the time
   * away so far counted in. Null when the player came back past the resume window: the game is
   * given up here instead, as the window's timer would have done had it fired on time.
   */
  handOver(): Carried | null {
    const away = this.awaySoFar();
    if (away === null) return null;
    // A pause going on never ends here: it is charged as far as it went (and a drop inside it is its time).
    this.chargePause();
    if (this.pausedAt === null) this.chargeAway(away);
    this.stream.chargedAway(this.now());
    // Still seated here (another tab resumed it through another instance): that socket stops playing it.
    tellTaken(this.seat, null, this.gameId);
    return this.carried();
  }

  /**
   * How long the player has been away (0 if seated), or null once that is past the resume window:
   * the game is then given up, as the window's timer would have done. The window is this clock's,
   * not the timer's alone: a timer fires late on a busy event loop.
   */
  private awaySoFar(): number | null {
    if (this.stream.goneAt === null) return 0;
    const away = this.stream.awayFor(this.now());
    if (away <= PACING.resumeWindowMs) return away;
    this.close();
    return null;
  }

  /** What another instance taking the game over needs besides the ticket and the browser's log. */
  carried(): Carried {
    return { pauses: this.pauses, unranked: this.unranked, ack: this.mustContinue ?? this.ackState(), awayMs: this.awayCounted(), lagMs: this.lagNow() };
  }

  /** The time away so far, a catch-up under way counted in as far as the player was there (CatchUp.underWay). */
  private awayCounted(): number {
    return this.awayMs + this.catchUp.underWay(this.stream.goneAt ?? this.now());
  }

  /** A drop's time, charged as time away at the resume or the hand-over that ends it (never in a pause: that is the pause's). */
  private chargeAway(ms: number): void {
    this.awayMs += ms;
    this.catchUp.away(ms);
  }

  /** The lag a host taking the game up is to keep (`lags`): its batches' here, or what it came with. */
  private lagNow(): number {
    return this.lags.least() ?? this.carriedLagMs;
  }

  /** Settles once the checkpoint being written (if any) is on the ticket. */
  async saved(): Promise<void> {
    await this.checkpointWrite;
  }

  /**
   * This process is about to exit (a deploy). A game in play writes its checkpoint now, however
   * recent the last, so whoever takes it up checks the resent log up to the last acknowledged
   * batch rather than up to 2 s before it; it returns what it carries, for the hub to hand the
   * game over with. A stream that ended is stored now rather than when its POST is late. Null
   * unless the game is still in play.
   */
  async shutDown(): Promise<Carried | null> {
    if (this.state !== 'playing') {
      await this.closing; // a refusal or a giving up is written before the exit
      await this.recorded;
      await this.storeFromStream?.();
      return null;
    }
    // Frozen from here: what is written is what is carried, and a batch refused now stays
    // unacknowledged in the browser, which sends it again once it has reconnected.
    this.draining = true;
    // A drop still going on counts as far as it went, a pause too; the host taking the game up goes on from there.
    this.chargePause();
    if (this.stream.goneAt !== null) {
      if (this.pausedAt === null) this.chargeAway(this.stream.awayFor(this.now()));
      this.stream.chargedAway(this.now());
    }
    // Not while an adopted log is still unchecked: the checkpoint it must continue stays.
    if (!this.mustContinue) {
      await this.checkpointWrite;
      await writeAckCheckpoint(this.checkpointRow())
        .catch((error: unknown) => console.error(`[live] could not write the last checkpoint of game ${this.gameId}:`, error));
    }
    return this.state === 'playing' ? this.carried() : null;
  }

  stats(): LiveStats {
    return this.sim.stats();
  }

  /**
   * Ends the host: the game stays wherever it got to (a stream that ended is stored). A game
   * closed before its end is given up on its ticket, so nobody takes it up again, unless it is
   * handed over to another instance that hosts it on. The hub keeps the closed host until the
   * ticket says so: a resume meanwhile meets the closed host, never the ticket as it was.
   */
  close(how: 'give_up' | 'hand_over' = 'give_up'): void {
    if (this.state === 'closed') return;
    const unfinished = this.state === 'playing';
    this.state = 'closed';
    if (this.goneTimer) clearTimeout(this.goneTimer);
    this.o.bus.withdraw(this.gameId);
    if (!unfinished || how === 'hand_over') return this.o.onClose(this);
    // Retried while the database is away, as a game's end is: until it is written, this closed
    // host stays in the hub and answers any resume, so the game cannot be taken up from its ticket.
    this.closing = this.whileAway(() => giveUpLiveGame(this.gameId))
      .then((done) => void (done === null && console.error(`[live] could not mark game ${this.gameId} given up; its last checkpoint still holds`)))
      .finally(() => this.o.onClose(this));
  }

  private checkpointRow(): CheckpointRow {
    return { gameId: this.gameId, checkpoint: this.ackState(), pauses: this.pauses, unranked: this.unranked, awayMs: this.awayCounted(), lagMs: this.lagNow() };
  }

  private ackState(): AckCheckpoint {
    return { tick: this.sim.tick, inputs: this.inputDigest.inputs, digest: this.inputDigest.digest() };
  }

  /**
   * Writes how far the game has been acknowledged on its ticket, for a host that takes it up if
   * this one is lost: only once pieces were dealt since the last write (what a replaced log could
   * exploit is pieces seen), at most every PACING.checkpointEveryMs, one write at a time. A write
   * that fails is skipped: the next one carries everything. Not while an adopted log is still
   * unchecked: it has not yet shown it continues the last one.
   */
  private checkpoint(): void {
    if (!this.dealtSinceCheckpoint || this.checkpointWrite || this.mustContinue || this.now() - this.checkpointAt < PACING.checkpointEveryMs) return;
    this.dealtSinceCheckpoint = false;
    this.checkpointAt = this.now();
    this.checkpointWrite = writeAckCheckpoint(this.checkpointRow())
      .catch((error: unknown) => console.error(`[live] could not write the checkpoint of game ${this.gameId}:`, error))
      .finally(() => (this.checkpointWrite = null));
  }

  /** The pause going on, as long as it has lasted, against its mode's budget (lib/live/pauses.ts). */
  private chargePause(): void {
    if (this.pausedAt === null) return;
    const lost = pauseVerdict(this.o.mode, this.pauses, this.now() - this.pausedAt);
    if (lost) this.loseRank(lost);
  }

  private loseRank(reason: UnrankedReason): void {
    if (this.unranked) return;
    this.unranked = reason;
    this.sendStatus();
  }

  private sendStatus(): void {
    this.send({
      t: 'status', gameId: this.gameId, ranked: this.unranked === null, ...(this.unranked ? { reason: this.unranked } : {}),
      pauses: this.pauses, pausesLeft: Math.max(0, PAUSE_BUDGETS[this.o.mode].pauses - this.pauses), spectators: this.o.bus.subscribers(this.gameId),
    });
  }

  private announce(): void {
    this.announcedAt = this.now();
    this.o.bus.announce({
      gameId: this.gameId, player: this.o.player, mode: this.o.mode, stats: this.stats(),
      spectators: this.o.bus.subscribers(this.gameId), startedAt: this.startedAt.toISOString(),
    });
  }

  private send(message: ServerMessage): void {
    this.seat?.send(message);
  }

  private replay(): Replay {
    return { rulesVersion: this.o.rulesVersion, mode: this.o.mode, seed: this.o.seed, handling: this.o.handling, nextCount: this.o.nextCount, events: this.stream.log.events() };
  }

  /**
   * The stream reached its end: record the end on the ticket (retrying while the database is
   * away), reveal the seed, and store the stream itself if no POST has come by then. The seed
   * waits for the record, because the browser POSTs its replay the moment it has the seed, and a
   * POST that finds no recorded end is held as stream_incomplete: a ranked game off the boards.
   * It waits PACING.revealWaitMs at most, so a database that is away does not keep the seed from
   * the browser, which then queues its POST.
   */
  private async finish(): Promise<void> {
    this.state = 'ended';
    this.recording = true;
    this.onRecordingChange?.(true);
    this.o.bus.withdraw(this.gameId);
    const result = this.sim.result();
    const ranked = this.unranked === null;
    const recorded = this.record();
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([recorded, new Promise((resolve) => (waited = setTimeout(resolve, PACING.revealWaitMs)))]);
    clearTimeout(waited);
    this.over = {
      t: 'over', gameId: this.gameId, seed: this.o.seed, ranked, ...(this.unranked ? { reason: this.unranked } : {}),
      result: { ...this.stats(), finished: result.finished, toppedOut: result.toppedOut, reason: result.reason, hash: result.hash },
    };
    this.send(this.over);
    this.o.bus.publish(this.gameId, { t: 'ended', gameId: this.gameId, stats: this.stats(), replayId: this.gameId });
    const encoded = await recorded;
    this.recording = false;
    this.onRecordingChange?.(false);
    const after = this.o.finalizeAfterMs === undefined ? STREAM_STORE.finalizeAfterMs : this.o.finalizeAfterMs;
    if (encoded === null || after === null) return this.close();
    let stored: Promise<void> | null = null;
    // Once, whether the timer or a shutdown comes first.
    this.storeFromStream = () =>
      (stored ??= finalizeStream({ gameId: this.gameId, owner: this.o.owner, encoded, result })
        .then(
          (outcome) => void (!outcome.ok && console.error(`[live] game ${this.gameId} was not stored from its stream: ${outcome.code} ${outcome.message}`)),
          (error: unknown) => console.error(`[live] storing game ${this.gameId} from its stream failed:`, error),
        )
        .finally(() => this.close()));
    setTimeout(this.storeFromStream, after).unref();
  }

  /** The encoded stream once its end is on the ticket; null if the database stayed away too long. */
  private async record(): Promise<string | null> {
    const encoded = await this.whileAway(() => recordStreamEnd({ gameId: this.gameId, replay: this.replay(), unranked: this.unranked }));
    if (encoded === null) console.error(`[live] could not record the end of game ${this.gameId}; its POST will be held as stream_incomplete`);
    return encoded;
  }

  /** A write retried while the database is away (backing off to PACING.recordRetryMaxMs, for PACING.recordRetryForMs); null if it never went through. */
  private async whileAway<T>(write: () => Promise<T>): Promise<T | null> {
    const giveUpAt = this.now() + PACING.recordRetryForMs;
    for (let wait = 250; ; wait = Math.min(wait * 2, PACING.recordRetryMaxMs)) {
      try {
        return await write();
      } catch (error) {
        if (this.now() + wait > giveUpAt) {
          console.error(`[live] game ${this.gameId}: the database stayed away:`, error);
          return null;
        }
        await new Promise((resolve) => setTimeout(resolve, wait).unref());
      }
    }
  }

  private refuse(code: string, message: string): void {
    this.state = 'ended';
    this.closing = refuseLiveGame({ gameId: this.gameId, owner: this.o.owner, code, message })
      // The database was away: the game is refused all the same (never stored from this stream).
      .catch((error: unknown) => console.error(`[live] recording the refusal of game ${this.gameId} failed:`, error))
      .finally(() => this.close());
  }
}
