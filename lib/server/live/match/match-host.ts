import 'server-only';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { keysOf, pieceSequence, VERSUS_RULES_VERSION, VersusMatch, type GarbageMessage, type PieceType, type ReplayEvent, type VersusMode } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import type { Seat } from '@/lib/live/versus';
import type { Owner } from '@/lib/server/games/owner';
import type { LiveBus } from '@/lib/server/live/cluster/bus';
import type { WireEvent } from '@/lib/live/wire';
import { CHECKPOINT_EVERY_MS, MatchRestoreError, type CheckpointGame, type MatchCheckpoint, type MatchCheckpoints, type Placed, type VgameMessage } from '@/lib/server/live/match/match-checkpoint';
import { MatchSeat, type BatchIn, type MatchSeatInfo, type SeatLink } from '@/lib/server/live/match/match-seat';
import { storeRetrying, voverOf, type Store } from '@/lib/server/live/match/match-store';
import { MATCH_TIMING, realTimers, type Timers } from '@/lib/server/live/match/match-timing';
import { processStalls } from '@/lib/server/live/stalls';
import type { SeatOwner, StoreMatchResult } from '@/lib/server/versus/store';
import { endReasonOf, recordOf, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { tellTaken } from '@/lib/server/live/seat-taken';

// The match's clock and timers (match-timing.ts) and its store (match-store.ts) live beside it; importers find them here too.
export { MATCH_TIMING, realTimers, type Timers };

export type MatchHostOptions = {
  matchId: string;
  /** From the server's CSPRNG; game n is played on `${seed}.${n}`, revealed to nobody while it runs. */
  seed: string;
  mode: VersusMode;
  firstTo: number;
  ranked: boolean;
  seats: [MatchSeatInfo, MatchSeatInfo];
  bus: LiveBus;
  /** Milliseconds, monotonic; tests drive their own. */
  now?: () => number;
  timers?: Timers;
  /** This process's stalls so far (stalls.ts; ms): the default, unless `now` is a test's own clock (then none but the test's). */
  stalls?: () => number;
  /** The one store path (lib/server/versus/store.ts); tests of the host alone pass their own. */
  store?: Store;
  /** Where the match is written as it goes, for another instance to take it up (match-checkpoint.ts). */
  checkpoints?: MatchCheckpoints;
  /** A leased match (several instances): held() false once another instance may have it; lost() stops it here. */
  lease?: { held(matchId: string): boolean; lost(matchId: string): void };
  /** The seats' resume tokens: a restored match keeps the ones its browsers hold. */
  tokens?: [string, string];
  /** Placed here by the versus home (several instances): kept in its checkpoints for whoever takes it up. */
  placed?: Placed;
  onClose(host: MatchHost): void;
};

/** A restored match's options: everything else comes from the checkpoint. */
export type RestoreOptions = Omit<MatchHostOptions, 'matchId' | 'seed' | 'mode' | 'firstTo' | 'ranked' | 'seats' | 'tokens' | 'placed'>;

type Fail = { code: 'game_over' | 'out_of_order' | 'bad_inputs' | 'ahead_of_clock'; message: string };

const other = (s: Seat): Seat => (s === 0 ? 1 : 0);
/** Garbage joined to a seat, as a checkpoint holds it: [id, tick, size, column]. */
type Joins = Array<[number, number, number, number]>;

/**
 * One live versus match: both players' input streams are fed to the referee (lib/engine/match.ts)
 * as they arrive. The referee computes every attack from its own simulation of the sender (what a
 * client says about attacks is never read) and puts it in the receiver's game at once (rules 6:
 * it rises a fixed delay later, and crossing attacks cancel); the host tells the receiver each
 * message with its hole column, deals each seat its pieces as a solo live game does (never the
 * seed nor any generator state), and shows each seat the opponent's play only as far as it has
 * been dealt the same pieces. At the end the match is verified and stored through
 * lib/server/versus/store.ts. Knows nothing of sockets: the hub gives it a SeatLink per seat.
 */
export class MatchHost {
  readonly matchId: string;
  readonly startedAt = new Date();
  readonly seats: [MatchSeat, MatchSeat];
  private readonly match: VersusMatch;
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly stalls: () => number;
  /** The process's stalls already excused, or from before the match. */
  private stallsSeen: number;
  private phase: 'countdown' | 'playing' | 'between' | 'over' | 'closed' = 'countdown';
  /**
   * Closed here while the match goes on elsewhere (handed over at a shutdown, or its lease lost):
   * nothing that follows a match's end (an offer, a room, a report to the home) follows.
   */
  goesOn = false;
  private nextTimer: unknown = null;
  private lagTimer: unknown = null;
  /** Pieces of the current game every seat has been dealt: the most anyone else may see. */
  private shown = 0;
  /** The last game decided, for a seat that comes back between games. */
  private lastGame: Extract<ServerMessage, { t: 'vgame' }> | null = null;
  private shared: PieceType[] = [];
  /** The order the current game's batches were fed to the referee ([seat, tick played to]): what decides its garbage joins. */
  private feeds: Array<[Seat, number]> = [];
  /** A seat the host made lose the current game (window, lag, replay size): the referee's forfeit, recorded. */
  private forfeited: Seat | null = null;
  /** The current game's inputs and joins in their checkpoint form, extended as it goes (rebuilt whole each second, a long game cost ~8 ms a write). */
  private wired: { events: [WireEvent[], WireEvent[]]; joins: [Joins, Joins] } = { events: [[], []], joins: [[], []] };
  /** The games decided so far, as a checkpoint holds them. */
  private readonly done: CheckpointGame[] = [];
  private savedAt = -Infinity;
  /** The game whose seats were dealt its start; between games, the next one is not yet. */
  private started = -1;
  /** When the next game starts (between games). */
  private nextAt: number | null = null;
  /** Settles when the match is stored (or refused); tests await it. */
  finished: Promise<StoreMatchResult | null> | null = null;

  constructor(private readonly o: MatchHostOptions) {
    this.matchId = o.matchId;
    this.now = o.now ?? (() => performance.now());
    this.timers = o.timers ?? realTimers;
    this.stalls = o.stalls ?? (o.now ? () => 0 : processStalls);
    this.stallsSeen = this.stalls();
    // The rules announced to both seats (`match`) are the rules the referee enforces.
    this.match = new VersusMatch({ mode: o.mode, seed: o.seed, handling: [o.seats[0].handling, o.seats[1].handling], firstTo: o.firstTo, rulesVersion: VERSUS_RULES_VERSION });
    this.seats = [0, 1].map((s) => new MatchSeat(o.seats[s]!, o.tokens?.[s] ?? randomBytes(18).toString('base64url'))) as [MatchSeat, MatchSeat];
  }

  /**
   * A match taken up from its checkpoint (another instance's, after a hand-over or a crash): the
   * referee is fed the same batches in the same order, so it stands exactly where the original
   * did, and plays on as it would have. Its seats are away until they `vresume` (`awaitSeats`).
   * Throws MatchRestoreError if the checkpoint does not replay to the garbage and deals it records.
   */
  static restore(cp: MatchCheckpoint, o: RestoreOptions): MatchHost {
    if (cp.rulesVersion !== VERSUS_RULES_VERSION) throw new MatchRestoreError(`The match was played under versus rules ${cp.rulesVersion}; this server plays ${VERSUS_RULES_VERSION}.`);
    const host = new MatchHost({
      ...o, matchId: cp.matchId, seed: cp.seed, mode: cp.mode, firstTo: cp.firstTo, ranked: cp.ranked, seats: cp.seats, tokens: [cp.state[0].token, cp.state[1].token],
      ...(cp.placed ? { placed: cp.placed } : {}),
    });
    // Its first write starts the match's lists afresh: this instance may have written it before, and others since.
    o.checkpoints?.forget(cp.matchId);
    host.replay(cp);
    return host;
  }

  get ended(): boolean {
    return this.phase === 'over' || this.phase === 'closed';
  }
  get gameIndex(): number {
    return this.match.games.length - 1;
  }
  get score(): [number, number] {
    return [this.match.score[0], this.match.score[1]];
  }
  get ranked(): boolean {
    return this.o.ranked;
  }

  owner(s: Seat): Owner {
    return this.o.seats[s].owner;
  }
  /** The seat's current connection, null while it is away. */
  link(s: Seat): SeatLink | null {
    return this.seats[s].link;
  }
  /** Whether `link` is the seat's current connection (after a resume, an older socket is not). */
  holds(s: Seat, link: SeatLink): boolean {
    return this.seats[s].link === link;
  }

  /** Both seats are connected: tell them the match and start the first game's countdown. */
  begin(links: [SeatLink, SeatLink]): void {
    for (const s of [0, 1] as const) {
      this.seats[s].link = links[s];
      this.sendMatch(s);
    }
    this.startGame(MATCH_TIMING.firstCountdownMs);
  }

  /** A reconnect with the seat's token; the opponent hears the player is back. */
  resume(s: Seat, link: SeatLink, token: string): boolean {
    const seat = this.seats[s];
    const a = Buffer.from(token);
    const b = Buffer.from(seat.token);
    if (this.ended || a.length !== b.length || !timingSafeEqual(a, b)) return false;
    if (seat.goneTimer !== null) this.timers.clear(seat.goneTimer);
    // Within both budgets: what is beyond them counts against the lag bound.
    const away = Math.min(seat.stream.back(this.now()), this.awayLeft(s));
    seat.stream.excusedMs += away;
    seat.awayInGameMs += away;
    seat.awayInMatchMs += away;
    seat.goneTimer = null;
    tellTaken(seat.link, link, this.matchId);
    seat.link = link;
    this.sendMatch(s);
    // What the seat missed while away at a game boundary: the decided game's end, or the next
    // game's start (its countdown may be over already: the browser catches up from its t0).
    if (this.phase === 'between' && this.lastGame) link.send(this.lastGame);
    if ((this.phase === 'countdown' || this.phase === 'playing') && seat.startSent !== this.gameIndex) this.sendStart(s);
    const game = this.match.current;
    link.send({
      t: 'vresumed', matchId: this.matchId, game: this.gameIndex, lastSeq: seat.stream.lastSeq, tick: game.tickOf(s), pieces: seat.stream.dealt.slice(),
      garbage: seat.garbage.map((g) => [g.id, g.tick, g.size, g.column]), score: this.score, playing: this.phase === 'playing' || this.phase === 'countdown',
    });
    link.send(this.watching());
    this.sendBoth({ t: 'vaway', matchId: this.matchId, seat: s, back: true, windowMs: 0 }, s);
    return true;
  }

  /**
   * The server's own seat (the sparring bot's), seated again on the instance that took its match
   * up, as a player is by `vresume`: nobody else can, since its token goes to no client and the
   * seat has no owner to match. False for a seat a person plays.
   */
  resumeBot(s: Seat, link: SeatLink): boolean {
    return this.o.seats[s].bot !== undefined && this.resume(s, link, this.seats[s].token);
  }

  /**
   * What seat s played of the current game and when its clock started: what a browser keeps across
   * a resume, and a seat rebuilt on another instance (the bot's) needs besides `vresumed`.
   */
  ownPlay(s: Seat): { inputs: ReplayEvent[]; startsInMs: number } {
    const stream = this.seats[s].stream;
    return { inputs: stream.log.events(), startsInMs: stream.t0 - this.now() };
  }

  /** The seat's socket dropped: the game waits for it the resume window (at most its time away left), then is lost. */
  detach(s: Seat, link: SeatLink): void {
    const seat = this.seats[s];
    if (seat.link !== link) return;
    seat.link = null;
    if (this.ended) return;
    this.away(s, this.now());
  }

  /** A restored match: its seats are away until their browsers come back (a seat away already keeps its time away). */
  awaitSeats(): void {
    if (this.ended) return;
    for (const s of [0, 1] as const) if (this.seats[s].link === null && this.seats[s].goneTimer === null) this.away(s, this.seats[s].stream.goneAt ?? this.now());
  }

  /** Seat s is away since `at`: the game waits for it its window, the opponent hears it. */
  private away(s: Seat, at: number): void {
    const seat = this.seats[s];
    // Counted from the game clock's start for a drop during the countdown (SeatStream.drop).
    seat.stream.drop(at);
    // The budget's rest, and then as long as the seat may lag: past that it has lost the game anyway.
    const windowMs = Math.min(MATCH_TIMING.resumeWindowMs, this.awayLeft(s) + MATCH_TIMING.maxLagMs[this.o.mode]);
    seat.goneTimer = this.timers.set(() => this.timeOut(s), seat.stream.goneAt! - this.now() + windowMs);
    // Whole milliseconds on the wire: the host's clock has fractions, and time away carries them into the budgets.
    this.sendBoth({ t: 'vaway', matchId: this.matchId, seat: s, back: false, windowMs: Math.ceil(windowMs) }, s);
  }

  /** Time away seat s may still be excused: what is left of this game's budget and of the match's. */
  private awayLeft(s: Seat): number {
    const seat = this.seats[s];
    return Math.max(0, Math.min(MATCH_TIMING.awayPerGameMs - seat.awayInGameMs, MATCH_TIMING.awayPerMatchMs - seat.awayInMatchMs));
  }

  /** Leaving loses the match (ranked or not): the current game and the set go to the opponent. */
  leave(s: Seat): void {
    if (this.ended) return;
    this.match.forfeit(s);
    this.finish();
  }

  /** One batch of a seat's inputs with the garbage it acknowledged; null when it was taken. */
  inputs(s: Seat, b: BatchIn): Fail | null {
    const seat = this.seats[s];
    if (this.ended) return { code: 'game_over', message: 'This match is over.' };
    if (b.game < this.gameIndex || (b.game === this.gameIndex && this.phase === 'between')) {
      seat.link?.send({ t: 'ack', stream: this.matchId, game: b.game, seq: b.seq, tick: b.tick }); // the game was decided meanwhile
      return null;
    }
    if (b.game > this.gameIndex) return { code: 'bad_inputs', message: `Game ${b.game} has not started.` };
    const order = seat.stream.order(b.seq);
    if (order === 'again') {
      seat.link?.send({ t: 'ack', stream: this.matchId, game: b.game, seq: b.seq, tick: this.match.current.tickOf(s) });
      return null;
    }
    if (order !== 'next') return order;
    const game = this.match.current;
    const from = game.tickOf(s);
    const bad = checkBatch(b, from, VERSUS_RULES_VERSION);
    if (bad) return { code: 'bad_inputs', message: bad };
    // Inputs no person makes (a padded stream) end the match; a game whose replay could no longer
    // be stored ends there, lost by its seat: never a match nobody can be rated for.
    const unplayable = seat.admit(b);
    if (unplayable?.why === 'inhuman') {
      this.leave(s);
      return { code: 'bad_inputs', message: `${unplayable.message} The match is forfeited.` };
    }
    if (unplayable) {
      this.forfeitGame(s);
      this.endGame();
      return { code: 'bad_inputs', message: `${unplayable.message} The game is forfeited.` };
    }
    const now = this.now();
    const elapsedMs = now - seat.stream.t0;
    // A batch that plays no tick (an empty one during the countdown, say) cannot run ahead; the
    // lag bound is checked on its own timer (checkLag).
    if (b.tick > from && seat.stream.pace(b.tick, now, Infinity) === 'ahead') {
      this.leave(s);
      return { code: 'ahead_of_clock', message: `The game reached tick ${b.tick} after only ${Math.max(0, Math.round(elapsedMs))} ms: the match is forfeited.` };
    }
    seat.stream.accept(b.seq);
    if (this.phase === 'countdown') this.phase = 'playing';
    this.feed(s, b, from, (m) => this.route(m));
    seat.stream.settle(game.tickOf(s), now);
    const deal = seat.topUp(game.game(s).taken, game.tickOf(s));
    seat.link?.send({ t: 'ack', stream: this.matchId, game: b.game, seq: b.seq, tick: game.tickOf(s) });
    if (deal) seat.link?.send({ t: 'deal', stream: this.matchId, game: b.game, from: deal.from, pieces: deal.pieces });
    // This seat's frame; and the other's, whose play held back may be shown now this seat was dealt more.
    this.publishFrames(s, this.visible());
    // The "Live now" summary (players, score, spectators) changes with a game's end, not a batch.
    if (game.outcome) this.endGame();
    else if (now - this.savedAt >= CHECKPOINT_EVERY_MS) this.save();
    return null;
  }

  /**
   * Everything a spectator needs to draw both fields of the current game from its first tick, as
   * far as every seat has been dealt the pieces (a player may watch their own match). Between
   * games the seats still hold the game just decided, so that one is described, whole.
   */
  watching(): ServerMessage {
    const between = this.phase === 'between';
    const index = between ? this.gameIndex - 1 : this.gameIndex;
    const game = this.match.games[index]!;
    const visible = between ? Infinity : this.visible();
    const pieces = between ? this.longer().stream.dealt : this.shared;
    return {
      t: 'vwatching', matchId: this.matchId, mode: this.o.mode, firstTo: this.match.firstTo, game: index, score: this.score,
      nextCount: Math.max(this.o.seats[0].nextCount, this.o.seats[1].nextCount),
      handling: [this.o.seats[0].handling, this.o.seats[1].handling], rulesVersion: VERSUS_RULES_VERSION,
      seats: [this.seats[0].soFar(game.game(0), pieces, visible), this.seats[1].soFar(game.game(1), pieces, visible)],
    };
  }

  /**
   * The instance is going (a deploy): the match's last checkpoint is written and the host closes
   * without a result, its lease let go (onClose), so the instance its players reconnect to takes it
   * up. False for a match that cannot be (no checkpoints: one instance).
   */
  handOver(): boolean {
    if (this.ended || !this.o.checkpoints) return false;
    this.save();
    this.letGo();
    return true;
  }

  /** Closes the host without ending the match: it is (or will be) taken up elsewhere. */
  letGo(): void {
    this.goesOn = true;
    this.close();
  }

  spectatorsChanged(): void {
    this.announce();
  }

  close(): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    if (this.nextTimer !== null) this.timers.clear(this.nextTimer);
    if (this.lagTimer !== null) this.timers.clear(this.lagTimer);
    for (const seat of this.seats) if (seat.goneTimer !== null) this.timers.clear(seat.goneTimer);
    // Handed over, lost or over: whatever this instance wrote is no base for a write it makes if it takes the match back.
    this.o.checkpoints?.forget(this.matchId);
    this.o.bus.withdrawMatch(this.matchId);
    this.o.onClose(this);
  }

  private gameSeed(index = this.gameIndex): string {
    return `${this.o.seed}.${index}`;
  }

  /** Pieces of the current game every seat has been dealt: the most anyone may be shown. */
  private visible(): number {
    return Math.min(this.seats[0].stream.dealt.length, this.seats[1].stream.dealt.length);
  }

  private longer(): MatchSeat {
    return this.seats[0].stream.dealt.length >= this.seats[1].stream.dealt.length ? this.seats[0] : this.seats[1];
  }

  private sendMatch(s: Seat): void {
    const o = this.o;
    this.seats[s].link?.send({
      t: 'match', matchId: this.matchId, seat: s, players: [o.seats[0].player, o.seats[1].player], mode: o.mode, firstTo: this.match.firstTo,
      ranked: o.ranked, rulesVersion: VERSUS_RULES_VERSION, handling: [o.seats[0].handling, o.seats[1].handling], nextCount: o.seats[s].nextCount,
      resumeToken: this.seats[s].token, resumeWindowMs: MATCH_TIMING.resumeWindowMs,
    });
  }

  /** Deals the current game's first pieces to both seats; each seat's clock starts after the countdown. */
  private startGame(countdownMs: number): void {
    // A player still away when a game would start has left.
    const away = ([0, 1] as const).find((s) => this.seats[s].link === null && this.seats[s].goneTimer === null && this.seats[s].stream.goneAt !== null);
    if (away !== undefined) return this.leave(away);
    this.phase = 'countdown';
    this.started = this.gameIndex;
    this.feeds = [];
    this.forfeited = null;
    this.wired = { events: [[], []], joins: [[], []] };
    const seed = this.gameSeed();
    const t0 = this.now() + countdownMs;
    // Both seats are dealt as far ahead as the longer preview: either player could have chosen it,
    // and a seat that held more pieces than the other would have its play held back all game.
    const ahead = Math.max(this.o.seats[0].nextCount, this.o.seats[1].nextCount);
    for (const s of [0, 1] as const) {
      const seat = this.seats[s];
      // Time away before the clock starts is not this game's to excuse (newGame).
      seat.newGame(pieceSequence(seed, VERSUS_RULES_VERSION), ahead, t0, this.match.current.game(s).taken, VERSUS_RULES_VERSION);
      this.sendStart(s);
    }
    // The first pieces, dealt to both: a spectator's game starts from them.
    this.shared = this.seats[0].stream.dealt.slice(0, this.visible());
    this.shown = this.shared.length;
    this.o.bus.publish(this.matchId, this.watching());
    this.announce();
    this.checkLag();
  }

  /** The current game's start to a seat: its pieces so far and the time left to its clock's start (past it: negative). */
  private sendStart(s: Seat): void {
    const seat = this.seats[s];
    if (!seat.link) return;
    seat.startSent = this.gameIndex;
    seat.link.send({ t: 'vstart', matchId: this.matchId, game: this.gameIndex, pieces: seat.stream.dealt.slice(), startsInMs: seat.stream.t0 - this.now(), score: this.score });
  }

  /** Every lagCheckMs while a game runs: a connected seat too far behind the clock loses the game. */
  private checkLag(): void {
    if (this.lagTimer !== null) this.timers.clear(this.lagTimer);
    this.lagTimer = null;
    if (this.ended || this.phase === 'between') return;
    const now = this.now();
    // A stall of ours since the last check is nobody's lag (stalls.ts); a seat away is counted by its away budget instead.
    const stalled = this.stalls() - this.stallsSeen;
    this.stallsSeen += stalled;
    const game = this.match.current;
    for (const s of [0, 1] as const) {
      const seat = this.seats[s];
      if (seat.link === null) continue;
      if (stalled > 0) seat.stream.excuseStall(stalled, now);
      if (game.game(s).over) continue;
      if (seat.stream.pace(game.tickOf(s), now, MATCH_TIMING.maxLagMs[this.o.mode]) === 'behind') {
        this.forfeitGame(s);
        return this.endGame();
      }
    }
    this.lagTimer = this.timers.set(() => this.checkLag(), MATCH_TIMING.lagCheckMs);
  }

  /** A garbage message the referee routed: it is in the receiver's game from its tick; the receiver hears of it now. */
  private route(m: GarbageMessage): void {
    const j = this.seats[m.to].joined(m);
    this.seats[m.to].link?.send({ t: 'garbage', matchId: this.matchId, game: this.gameIndex, id: j.id, size: j.size, column: j.column, tick: j.tick });
  }

  /**
   * Frames for the opponent and the spectators: seat s's first, then the other's if anything of it
   * may be shown now; each up to where the seat held only pieces both seats have (`visible`).
   * Pieces go out as far as both seats were dealt them (the sequence is shared).
   */
  private publishFrames(s: Seat, visible: number): void {
    for (const x of [s, other(s)]) {
      const frame = this.seats[x].takeFrame(this.match.current.game(x), visible);
      if (!frame) continue;
      const to = Math.min(visible, this.longer().stream.dealt.length);
      const from = this.shown;
      while (this.shared.length < to) this.shared.push(this.longer().stream.dealt[this.shared.length]!);
      this.shown = to;
      const message: ServerMessage = { t: 'vframe', matchId: this.matchId, game: this.gameIndex, seat: x, from, pieces: this.shared.slice(from), ...frame };
      this.seats[other(x)].link?.send(message, MATCH_TIMING.opponentFrameWaitMs);
      this.o.bus.publish(this.matchId, message);
    }
  }

  /** The current game is decided: count it, then the next game or the end of the set. */
  private endGame(): void {
    const game = this.match.current;
    const outcome = game.outcome!;
    const index = this.gameIndex;
    const ticks: [number, number] = [game.tickOf(0), game.tickOf(1)];
    // Decided: the rest of the game's pieces can no longer help anyone, and the play held back
    // (while the other seat had not been dealt the pieces) can be shown, so both fields can be drawn to their ends.
    this.publishFrames(0, Infinity);
    const longer = this.longer();
    const from = this.shown;
    this.done.push(this.gameRecord());
    const more = this.match.advance();
    const message: Extract<ServerMessage, { t: 'vgame' }> = {
      t: 'vgame', matchId: this.matchId, game: index, winner: outcome.winner, reason: outcome.reason, score: this.score, ticks, from, pieces: longer.stream.dealt.slice(from),
    };
    this.lastGame = message;
    this.sendBoth(message);
    this.o.bus.publish(this.matchId, message);
    if (!more) return this.finish();
    this.announce();
    this.phase = 'between';
    this.startNextIn(MATCH_TIMING.betweenGamesMs);
    this.save();
  }

  private startNextIn(ms: number): void {
    this.nextAt = this.now() + ms;
    this.nextTimer = this.timers.set(() => {
      this.nextTimer = null;
      this.nextAt = null;
      if (!this.ended) this.startGame(MATCH_TIMING.betweenGamesMs);
    }, ms);
  }

  /** The resume window ran out: the opponent wins this game; still away at the next one, the match. */
  private timeOut(s: Seat): void {
    this.seats[s].goneTimer = null;
    if (this.ended) return;
    if (this.phase === 'between') return; // the next game's start finds the seat away and ends the set
    this.forfeitGame(s);
    this.endGame();
  }

  private finish(): void {
    if (this.ended) return;
    // A timer that fired after a stall past the lease: another instance may host the match now; it decides and stores it.
    if (this.o.lease && !this.o.lease.held(this.matchId)) return this.o.lease.lost(this.matchId);
    this.phase = 'over';
    if (this.nextTimer !== null) this.timers.clear(this.nextTimer);
    if (this.lagTimer !== null) this.timers.clear(this.lagTimer);
    this.nextAt = null;
    // Decided but not yet stored: an instance that dies now leaves it to another to store (once: by its id).
    this.save();
    this.o.bus.withdrawMatch(this.matchId);
    const base = { t: 'vover' as const, matchId: this.matchId, winner: this.match.winner!, score: this.score, reason: endReasonOf(this.match), ranked: this.o.ranked };
    const record = recordOf(this.match, this.o.seed, this.o.mode);
    const late = () => {
      // The seats hear it is not stored yet; the store goes on being tried, its checkpoint kept alive for whoever takes it up if this instance goes.
      this.sendBoth({ ...base, stored: false, pending: true });
    };
    const again = () => {
      if (this.phase === 'closed') return false;
      this.save();
      return true;
    };
    this.finished = storeRetrying({ matchId: this.matchId, store: () => this.store(record), timers: this.timers, late, again }).then(
      (result) => {
        if (!result.ok) console.error(`[live] match ${this.matchId} was not stored: ${result.code} ${result.message}`);
        const message = voverOf(base, result);
        this.sendBoth(message);
        this.o.bus.publish(this.matchId, message);
        // Stored, or refused for good (a retry would be refused again): nothing is left to take up.
        this.o.checkpoints?.drop(this.matchId);
        return result;
      },
      (error: unknown) => {
        // Let go while it was tried (its lease lost, or this process closing): the checkpoint stays, and
        // the instance that takes the decided match up stores it (by its id, once). A store failing
        // otherwise would fail there too: only a player's resume takes it up now.
        if (this.phase !== 'closed') this.o.checkpoints?.unlist(this.matchId);
        console.error(`[live] match ${this.matchId} could not be stored; its checkpoint is kept:`, error);
        this.sendBoth({ ...base, stored: false });
        return null;
      },
    ).finally(() => this.close());
  }

  private async store(record: VersusMatchRecord): Promise<StoreMatchResult> {
    const store = this.o.store ?? (await import('@/lib/server/versus/store')).storeMatch;
    const owner = (s: Seat): SeatOwner => {
      const info = this.o.seats[s];
      return info.bot ? { ...info.owner, bot: info.bot } : info.owner;
    };
    return store({ matchId: this.matchId, record, seats: [owner(0), owner(1)], ranked: this.o.ranked });
  }

  /** Seat s's batch through the referee, its place in the order recorded (a run of one seat's batches is one feed). */
  private feed(s: Seat, b: BatchIn, from: number, route: (m: GarbageMessage) => void): void {
    this.seats[s].feed(this.match.current, s, b, from, route);
    const last = this.feeds[this.feeds.length - 1];
    if (last && last[0] === s) last[1] = b.tick;
    else this.feeds.push([s, b.tick]);
  }

  /** The host decides seat s loses the current game (window, lag, replay size): recorded, as the referee's input it is. */
  private forfeitGame(s: Seat): void {
    this.match.current.forfeit(s);
    this.forfeited ??= s;
  }

  /** The current game as a checkpoint holds it: the seats' streams are this game's until the next one starts. */
  private gameRecord(): CheckpointGame {
    const w = this.wired;
    for (const s of [0, 1] as const) {
      const { stream, garbage } = this.seats[s];
      if (w.events[s].length < stream.log.length) w.events[s].push(...stream.log.wire(w.events[s].length));
      for (let i = w.joins[s].length; i < garbage.length; i++) w.joins[s].push([garbage[i]!.id, garbage[i]!.tick, garbage[i]!.size, garbage[i]!.column]);
    }
    const last = this.feeds.length - 1;
    // Copies: a checkpoint handed out stays as it was while the game goes on (the last feed still grows).
    const feeds = this.feeds.slice();
    if (last >= 0) feeds[last] = [this.feeds[last]![0], this.feeds[last]![1]];
    return {
      feeds, events: [w.events[0].slice(), w.events[1].slice()], joins: [w.joins[0].slice(), w.joins[1].slice()], forfeit: this.forfeited,
      dealt: [this.seats[0].stream.dealt.length, this.seats[1].stream.dealt.length],
    };
  }

  /** The match as another instance would take it up (match-checkpoint.ts). */
  checkpoint(): MatchCheckpoint {
    const now = this.now();
    // The current game is in `done` once decided; between games the next one has not started.
    const current = this.started === this.gameIndex && this.done.length === this.gameIndex;
    const o = this.o;
    return {
      v: 1, matchId: this.matchId, seed: o.seed, mode: o.mode, firstTo: this.match.firstTo, ranked: o.ranked, rulesVersion: VERSUS_RULES_VERSION,
      seats: [o.seats[0], o.seats[1]], games: current ? [...this.done, this.gameRecord()] : this.done.slice(),
      phase: this.phase === 'closed' ? 'over' : this.phase, left: this.match.forfeitedBy, elapsedMs: now - this.seats[0].stream.t0,
      nextInMs: this.nextAt === null ? 0 : Math.max(0, this.nextAt - now),
      state: [this.seatState(0, now), this.seatState(1, now)], lastGame: this.lastGame, writtenAt: Date.now(),
      ...(o.placed ? { placed: o.placed } : {}),
    };
  }

  private seatState(s: Seat, now: number): MatchCheckpoint['state'][number] {
    const seat = this.seats[s];
    return {
      token: seat.token, lastSeq: seat.stream.lastSeq, excusedMs: seat.stream.excusedMs, awayInGameMs: seat.awayInGameMs, awayInMatchMs: seat.awayInMatchMs,
      awayForMs: seat.stream.goneAt === null ? null : seat.stream.awayFor(now), startSent: seat.startSent,
    };
  }

  private save(): void {
    if (!this.o.checkpoints || this.started < 0) return;
    this.savedAt = this.now();
    this.o.checkpoints.save(this.checkpoint());
  }

  /**
   * Feeds the referee the checkpoint's batches in their order, game by game, and sets the host's
   * clock, seats and phase where the original's stood, moved on by the time since it was written
   * (`sinceWritten`): the browsers played on meanwhile, and their batches are judged against the
   * clock they played to. Sends nothing: no seat is connected yet.
   */
  private replay(cp: MatchCheckpoint): void {
    const now = this.now();
    const gap = sinceWritten(cp);
    const ahead = Math.max(this.o.seats[0].nextCount, this.o.seats[1].nextCount);
    const last = cp.games.length - 1;
    cp.games.forEach((g, index) => {
      if (index !== this.gameIndex) throw new MatchRestoreError(`Game ${index} of the checkpoint follows an undecided game.`);
      const game = this.match.current;
      const cursor: [number, number] = [0, 0];
      for (const s of [0, 1] as const) this.seats[s].newGame(pieceSequence(this.gameSeed(), VERSUS_RULES_VERSION), ahead, index === last ? now - cp.elapsedMs - gap : now, game.game(s).taken, VERSUS_RULES_VERSION);
      this.started = index;
      this.feeds = [];
      this.forfeited = null;
      this.wired = { events: [[], []], joins: [[], []] };
      for (const [s, tick] of g.feeds) {
        const events = g.events[s];
        const start = cursor[s];
        while (cursor[s] < events.length && events[cursor[s]]![0] < tick) cursor[s]++;
        const b: BatchIn = { game: index, seq: 0, tick, events: events.slice(start, cursor[s]) };
        const from = game.tickOf(s);
        this.seats[s].admit(b);
        this.feed(s, b, from, (m) => void this.seats[m.to].joined(m));
        this.seats[s].topUp(game.game(s).taken, game.tickOf(s));
      }
      if (g.forfeit !== null) this.forfeitGame(g.forfeit);
      const replayed = this.gameRecord();
      if (JSON.stringify([replayed.joins, replayed.dealt, replayed.events]) !== JSON.stringify([g.joins, g.dealt, g.events]))
        throw new MatchRestoreError(`Game ${index} of match ${cp.matchId} does not replay to the garbage, deals and inputs its checkpoint records.`);
      if (!game.outcome) return;
      this.done.push(replayed);
      this.match.advance();
    });
    if (cp.left !== null) this.match.forfeit(cp.left);
    for (const s of [0, 1] as const) {
      const seat = this.seats[s];
      const state = cp.state[s];
      seat.stream.accept(state.lastSeq);
      seat.stream.excusedMs = state.excusedMs;
      seat.awayInGameMs = state.awayInGameMs;
      seat.awayInMatchMs = state.awayInMatchMs;
      seat.startSent = state.startSent;
      // Nobody heard from the seat since the checkpoint: the gap is its time away, excused within its
      // budgets like any other when it resumes, so a seat that stopped playing gains nothing by it.
      seat.stream.drop(now - gap - (state.awayForMs ?? 0));
    }
    this.lastGame = cp.lastGame?.t === 'vgame' ? (cp.lastGame as VgameMessage) : null;
    this.savedAt = now;
    switch (cp.phase) {
      case 'countdown':
      case 'playing': {
        if (this.match.current.outcome || this.started !== this.gameIndex) throw new MatchRestoreError(`Match ${cp.matchId}'s checkpoint says a game is in play, and none is.`);
        this.phase = cp.phase;
        const visible = this.visible();
        this.shared = this.longer().stream.dealt.slice(0, visible);
        this.shown = this.shared.length;
        // What was played is the catch-up's: frames carry on from here.
        for (const s of [0, 1] as const) this.seats[s].takeFrame(this.match.current.game(s), visible);
        this.announce();
        return this.checkLag();
      }
      case 'between':
        this.phase = 'between';
        this.announce();
        return this.startNextIn(Math.max(0, cp.nextInMs - gap));
      case 'over':
        // Decided before the instance that held it could store it: stored here (by its id, once).
        return this.finish();
      default:
        cp.phase satisfies never;
    }
  }

  private sendBoth(message: ServerMessage, except?: Seat): void {
    for (const s of [0, 1] as const) if (s !== except) this.seats[s].link?.send(message);
  }

  private announce(): void {
    const o = this.o;
    this.o.bus.announceMatch({
      matchId: this.matchId, mode: o.mode, players: [o.seats[0].player, o.seats[1].player], score: this.score, firstTo: this.match.firstTo,
      ranked: o.ranked, spectators: o.bus.subscribers(this.matchId), startedAt: this.startedAt.toISOString(),
    });
  }
}

/**
 * How long ago a checkpoint was written, by the wall clocks of the instance that wrote it and this
 * one: at least 0, at most a resume window (a seat away longer has lost its game anyway, and a clock
 * far off must not move a match by minutes).
 */
function sinceWritten(cp: MatchCheckpoint): number {
  return Math.min(Math.max(0, Date.now() - cp.writtenAt), MATCH_TIMING.resumeWindowMs);
}

/** Events in order within [from, tick), of keys the rules play. */
function checkBatch(b: BatchIn, from: number, rulesVersion: number): string | null {
  if (b.tick < from) return `The batch ends at tick ${b.tick}, before tick ${from} the game is at.`;
  let last = from;
  // The wire admits every id in KEYS; the match's rules may play fewer (the referee would throw mid-batch).
  const keyCount = keysOf(rulesVersion);
  for (const [t, key] of b.events) {
    if (t < last || t >= b.tick) return 'Events are out of order or past the batch tick.';
    if (key >= keyCount) return `Key ${key} is not played under rules version ${rulesVersion}.`;
    last = t;
  }
  return null;
}
