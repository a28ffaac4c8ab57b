import 'server-only';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { holeState, keysOf, pieceSequence, VERSUS_RULES_VERSION, VersusMatch, type Handling, type PieceType, type VersusMode } from '@/lib/engine';
import { BATCH_INTERVAL_MS, type LivePlayer, type ServerMessage, type WireAck, type WireEvent } from '@/lib/live/protocol';
import { VERSUS_MAX_LAG_MS, type Seat } from '@/lib/live/versus';
import type { Owner } from '@/lib/server/games/owner';
import type { LiveBus } from '@/lib/server/live/bus';
import { MatchSeat, type SeatLink } from '@/lib/server/live/match-seat';
import { PACING } from '@/lib/server/live/pacing';
import type { StoreMatchResult } from '@/lib/server/versus/store';
import { endReasonOf, recordOf, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { oneTurnEach } from '@/lib/server/turns';

/** Every match ending in this process starts storing through this, one a turn (turns.ts). */
const storesInTurn = oneTurnEach();

/** A live match's clock, as data (docs/decisions/0017-versus-live.md). */
export const MATCH_TIMING = {
  /** The first game's clock starts this long after `vstart` (the countdown). */
  firstCountdownMs: 3_000,
  /** Between two games of a set: the result is shown, then the next countdown. */
  betweenGamesMs: 2_000,
  /** A dropped player may come back within this long (the solo resume window); after it the game is lost. */
  resumeWindowMs: PACING.resumeWindowMs,
  /** A stream may lead the server's clock by this much (as in solo games); beyond it the seat forfeits. */
  aheadSlackMs: PACING.aheadSlackMs,
  /** A connected seat whose stream trails the clock by more than this (time away excused) loses the
   *  game: otherwise a silent client would hold the opponent's win, and its garbage, forever. */
  maxLagMs: VERSUS_MAX_LAG_MS,
  /** How often the lag is looked at. */
  lagCheckMs: 1_000,
  /**
   * A seat's frame may wait this long for the opponent's next message (its next ack comes within a
   * batch interval) and leave in the same write: the opponent's field is drawn up to this much later,
   * garbage never waits (Connection.send).
   */
  opponentFrameWaitMs: BATCH_INTERVAL_MS,
} as const;

export type MatchSeatInfo = { owner: Owner; player: LivePlayer; handling: Handling; nextCount: number };
export type Timers = { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
type Store = (o: { matchId: string; record: VersusMatchRecord; seats: [Owner, Owner]; ranked: boolean }) => Promise<StoreMatchResult>;

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
  /** The one store path (lib/server/versus/store.ts); tests of the host alone pass their own. */
  store?: Store;
  onClose(host: MatchHost): void;
};

type Fail = { code: 'game_over' | 'out_of_order' | 'bad_inputs' | 'ahead_of_clock'; message: string };
export type BatchIn = { game: number; seq: number; tick: number; events: readonly WireEvent[]; acks: readonly WireAck[] };

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};
const other = (s: Seat): Seat => (s === 0 ? 1 : 0);

/**
 * One live versus match: both players' input streams are fed to the referee (lib/engine/match.ts)
 * as they arrive. The referee computes every attack from its own simulation of the sender (what a
 * client says about attacks is never read); the host sends the receiver each garbage message,
 * passes the receiver's acknowledgements back with its inputs (the referee forces a late one at
 * its deadline), deals each seat its pieces as a solo live game does (never the seed), and sends
 * each seat the opponent's frames. At the end the match is verified and stored through
 * lib/server/versus/store.ts. Knows nothing of sockets: the hub gives it a SeatLink per seat.
 */
export class MatchHost {
  readonly matchId: string;
  readonly startedAt = new Date();
  readonly seats: [MatchSeat, MatchSeat];
  private readonly match: VersusMatch;
  private readonly now: () => number;
  private readonly timers: Timers;
  private phase: 'countdown' | 'playing' | 'between' | 'over' | 'closed' = 'countdown';
  private nextTimer: unknown = null;
  private lagTimer: unknown = null;
  /** Pieces of the current game every seat has been dealt: the most anyone else may see. */
  private shown = 0;
  /** The last game decided, for a seat that comes back between games. */
  private lastGame: Extract<ServerMessage, { t: 'vgame' }> | null = null;
  private shared: PieceType[] = [];
  /** Settles when the match is stored (or refused); tests await it. */
  finished: Promise<StoreMatchResult | null> | null = null;

  constructor(private readonly o: MatchHostOptions) {
    this.matchId = o.matchId;
    this.now = o.now ?? (() => performance.now());
    this.timers = o.timers ?? realTimers;
    // The rules announced to both seats (`match`) are the rules the referee enforces.
    this.match = new VersusMatch({ mode: o.mode, seed: o.seed, handling: [o.seats[0].handling, o.seats[1].handling], firstTo: o.firstTo, rulesVersion: VERSUS_RULES_VERSION });
    this.seats = [0, 1].map((s) => new MatchSeat(o.seats[s]!, randomBytes(18).toString('base64url'))) as [MatchSeat, MatchSeat];
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
    if (seat.goneAt !== null) seat.excusedMs += this.now() - seat.goneAt;
    seat.goneTimer = null;
    seat.goneAt = null;
    seat.link = link;
    this.sendMatch(s);
    // What the seat missed while away at a game boundary: the decided game's end, or the next
    // game's start (its countdown may be over already: the browser catches up from its t0).
    if (this.phase === 'between' && this.lastGame) link.send(this.lastGame);
    if ((this.phase === 'countdown' || this.phase === 'playing') && seat.startSent !== this.gameIndex) this.sendStart(s);
    const game = this.match.current;
    link.send({
      t: 'vresumed', matchId: this.matchId, game: this.gameIndex, lastSeq: seat.lastSeq, tick: game.tickOf(s), pieces: seat.dealt.slice(),
      holes: holeState(this.gameSeed()), garbage: seat.applied.slice(), score: this.score, playing: this.phase === 'playing' || this.phase === 'countdown',
      pending: game.awaiting(s).map((m) => ({ id: m.id, size: m.size, deadline: m.deadline })),
    });
    link.send(this.watching());
    this.sendBoth({ t: 'vaway', matchId: this.matchId, seat: s, back: true, windowMs: 0 }, s);
    return true;
  }

  /** The seat's socket dropped: the game waits for it the resume window, then is lost. */
  detach(s: Seat, link: SeatLink): void {
    const seat = this.seats[s];
    if (seat.link !== link) return;
    seat.link = null;
    if (this.ended) return;
    seat.goneAt = this.now();
    seat.goneTimer = this.timers.set(() => this.timeOut(s), MATCH_TIMING.resumeWindowMs);
    this.sendBoth({ t: 'vaway', matchId: this.matchId, seat: s, back: false, windowMs: MATCH_TIMING.resumeWindowMs }, s);
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
      seat.link?.send({ t: 'vack', matchId: this.matchId, game: b.game, seq: b.seq, tick: b.tick, applied: [] }); // the game was decided meanwhile
      return null;
    }
    if (b.game > this.gameIndex) return { code: 'bad_inputs', message: `Game ${b.game} has not started.` };
    if (b.seq <= seat.lastSeq) {
      seat.link?.send({ t: 'vack', matchId: this.matchId, game: b.game, seq: b.seq, tick: this.match.current.tickOf(s), applied: [] });
      return null;
    }
    if (b.seq !== seat.lastSeq + 1) return { code: 'out_of_order', message: `Batch ${b.seq} arrived, ${seat.lastSeq + 1} was expected.` };
    const game = this.match.current;
    const from = game.tickOf(s);
    const bad = checkBatch(b, from, VERSUS_RULES_VERSION);
    if (bad) return { code: 'bad_inputs', message: bad };
    const elapsedMs = this.now() - seat.t0;
    // A batch that plays no tick (an empty one during the countdown, say) cannot run ahead.
    if (b.tick > from && (b.tick * 1000) / 60 > elapsedMs + MATCH_TIMING.aheadSlackMs) {
      this.leave(s);
      return { code: 'ahead_of_clock', message: `The game reached tick ${b.tick} after only ${Math.max(0, Math.round(elapsedMs))} ms: the match is forfeited.` };
    }
    seat.lastSeq = b.seq;
    if (this.phase === 'countdown') this.phase = 'playing';
    const applied = seat.feed(game, s, b, from, (m) => this.route(m.to, m.id, m.size, m.deadline));
    const deal = seat.topUp(game.game(s).taken);
    seat.link?.send({ t: 'vack', matchId: this.matchId, game: b.game, seq: b.seq, tick: game.tickOf(s), applied });
    if (deal) seat.link?.send({ t: 'vdeal', matchId: this.matchId, game: b.game, from: deal.from, pieces: deal.pieces });
    this.publishFrame(s, seat.takeFrame(game.game(s)));
    // The "Live now" summary (players, score, spectators) changes with a game's end, not a batch.
    if (game.outcome) this.endGame();
    return null;
  }

  /**
   * Everything a spectator needs to draw both fields of the current game from its first tick.
   * Between games the seats still hold the game just decided, so that one is described, with its
   * own holes; the next game's start sends its own.
   */
  watching(): ServerMessage {
    const index = this.phase === 'between' ? this.gameIndex - 1 : this.gameIndex;
    const game = this.match.games[index]!;
    return {
      t: 'vwatching', matchId: this.matchId, mode: this.o.mode, firstTo: this.match.firstTo, game: index, score: this.score,
      nextCount: Math.max(this.o.seats[0].nextCount, this.o.seats[1].nextCount),
      handling: [this.o.seats[0].handling, this.o.seats[1].handling], holes: holeState(this.gameSeed(index)),
      seats: [0, 1].map((s) => this.seats[s as Seat].stream(game.game(s as Seat), this.shared)) as never,
    };
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
    this.o.bus.withdrawMatch(this.matchId);
    this.o.onClose(this);
  }

  private gameSeed(index = this.gameIndex): string {
    return `${this.o.seed}.${index}`;
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
    const away = ([0, 1] as const).find((s) => this.seats[s].link === null && this.seats[s].goneTimer === null && this.seats[s].goneAt !== null);
    if (away !== undefined) return this.leave(away);
    this.phase = 'countdown';
    const seed = this.gameSeed();
    const t0 = this.now() + countdownMs;
    this.shown = 0;
    this.shared = [];
    for (const s of [0, 1] as const) {
      const seat = this.seats[s];
      seat.newGame(pieceSequence(seed, VERSUS_RULES_VERSION), this.o.seats[s].nextCount, t0, this.match.current.game(s).taken);
      this.sendStart(s);
    }
    this.o.bus.publish(this.matchId, this.watching());
    this.announce();
    this.checkLag();
  }

  /** The current game's start to a seat: its pieces so far and the time left to its clock's start (past it: negative). */
  private sendStart(s: Seat): void {
    const seat = this.seats[s];
    if (!seat.link) return;
    seat.startSent = this.gameIndex;
    seat.link.send({
      t: 'vstart', matchId: this.matchId, game: this.gameIndex, pieces: seat.dealt.slice(), holes: holeState(this.gameSeed()),
      startsInMs: seat.t0 - this.now(), score: this.score,
    });
  }

  /** Every lagCheckMs while a game runs: a connected seat too far behind the clock loses the game. */
  private checkLag(): void {
    if (this.lagTimer !== null) this.timers.clear(this.lagTimer);
    this.lagTimer = null;
    if (this.ended || this.phase === 'between') return;
    const game = this.match.current;
    for (const s of [0, 1] as const) {
      const seat = this.seats[s];
      if (seat.link === null || game.game(s).over) continue;
      const lag = this.now() - seat.t0 - seat.excusedMs - (game.tickOf(s) * 1000) / 60;
      if (lag > MATCH_TIMING.maxLagMs) {
        game.forfeit(s);
        return this.endGame();
      }
    }
    this.lagTimer = this.timers.set(() => this.checkLag(), MATCH_TIMING.lagCheckMs);
  }

  /** A garbage message the referee routed: the receiver acknowledges it with its inputs. */
  private route(to: Seat, id: number, size: number, deadline: number): void {
    this.seats[to].link?.send({ t: 'garbage', matchId: this.matchId, game: this.gameIndex, id, size, deadline });
  }

  /** To the opponent and the spectators; pieces only as far as both seats were dealt (the sequence is shared). */
  private publishFrame(s: Seat, frame: ReturnType<MatchSeat['takeFrame']>): void {
    const visible = Math.min(this.seats[0].dealt.length, this.seats[1].dealt.length);
    const from = this.shown;
    while (this.shared.length < visible) this.shared.push(this.seats[0].dealt[this.shared.length]!);
    this.shown = visible;
    const message: ServerMessage = { t: 'vframe', matchId: this.matchId, game: this.gameIndex, seat: s, from, pieces: this.shared.slice(from), ...frame };
    this.seats[other(s)].link?.send(message, MATCH_TIMING.opponentFrameWaitMs);
    this.o.bus.publish(this.matchId, message);
  }

  /** The current game is decided: count it, then the next game or the end of the set. */
  private endGame(): void {
    const game = this.match.current;
    const outcome = game.outcome!;
    const index = this.gameIndex;
    const ticks: [number, number] = [game.tickOf(0), game.tickOf(1)];
    // Decided: the rest of the game's pieces can no longer help anyone, and the leader's field
    // (held back while the other seat had not been dealt them) can be drawn to its end.
    const longer = this.seats[0].dealt.length >= this.seats[1].dealt.length ? this.seats[0] : this.seats[1];
    const from = this.shown;
    const more = this.match.advance();
    const message: Extract<ServerMessage, { t: 'vgame' }> = {
      t: 'vgame', matchId: this.matchId, game: index, winner: outcome.winner, reason: outcome.reason, score: this.score, ticks, from, pieces: longer.dealt.slice(from),
    };
    this.lastGame = message;
    this.sendBoth(message);
    this.o.bus.publish(this.matchId, message);
    if (!more) return this.finish();
    this.announce();
    this.phase = 'between';
    this.nextTimer = this.timers.set(() => {
      this.nextTimer = null;
      if (!this.ended) this.startGame(MATCH_TIMING.betweenGamesMs);
    }, MATCH_TIMING.betweenGamesMs);
  }

  /** The resume window ran out: the opponent wins this game; still away at the next one, the match. */
  private timeOut(s: Seat): void {
    this.seats[s].goneTimer = null;
    if (this.ended) return;
    if (this.phase === 'between') return; // the next game's start finds the seat away and ends the set
    this.match.current.forfeit(s);
    this.endGame();
  }

  private finish(): void {
    if (this.ended) return;
    this.phase = 'over';
    if (this.nextTimer !== null) this.timers.clear(this.nextTimer);
    if (this.lagTimer !== null) this.timers.clear(this.lagTimer);
    this.o.bus.withdrawMatch(this.matchId);
    const base = { t: 'vover' as const, matchId: this.matchId, winner: this.match.winner!, score: this.score, reason: endReasonOf(this.match), ranked: this.o.ranked };
    // Stored in turn with the other matches ending now (encoding, verifying and writing it takes
    // milliseconds on this thread): players dropped together forfeit together.
    this.finished = storesInTurn(() => this.store(recordOf(this.match, this.o.seed, this.o.mode))).then(
      (result) => {
        const ratings = result.ok && result.ratings ? result.ratings : null;
        if (!result.ok) console.error(`[live] match ${this.matchId} was not stored: ${result.code} ${result.message}`);
        const message: ServerMessage = {
          ...base, stored: result.ok,
          ...(ratings ? { ratings: ratings.map((r) => ({ before: r.before.rating, after: r.after.rating, rdAfter: r.after.rd })) as never } : {}),
        };
        this.sendBoth(message);
        this.o.bus.publish(this.matchId, message);
        return result;
      },
      (error: unknown) => {
        console.error(`[live] storing match ${this.matchId} failed:`, error);
        this.sendBoth({ ...base, stored: false });
        return null;
      },
    ).finally(() => this.close());
  }

  private async store(record: VersusMatchRecord): Promise<StoreMatchResult> {
    const store = this.o.store ?? (await import('@/lib/server/versus/store')).storeMatch;
    return store({ matchId: this.matchId, record, seats: [this.o.seats[0].owner, this.o.seats[1].owner], ranked: this.o.ranked });
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

/** Events in order within [from, tick); acks at most one per message, within the same ticks. */
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
  const ids = new Set<number>();
  for (const [id, t] of b.acks) {
    if (t < from || t >= b.tick || ids.has(id)) return 'An acknowledgement is outside the batch or repeated.';
    ids.add(id);
  }
  return null;
}
