/**
 * A seat's own game in a live match the server deals and referees, without DOM or socket: the
 * dealt game (pieces as they come), garbage put in at the server's tick with the server's hole
 * column, and the numbered batches of what was played. The server's copy runs behind the
 * browser's (batches are in flight), so garbage usually names a tick already played: the game is
 * then played again from its checkpoint, the tick the server last acknowledged, which no later
 * message can precede. Versus (versus-seat.ts) and rooms (room-seat.ts) map their messages here.
 * docs/decisions/0017-versus-live.md.
 */
import { batchCuts } from '@/lib/client/live/batch-cuts';
import { createDealtGame, keyId } from '@/lib/engine';
import type { DealtGame, DealtGameConfig, GameEvent, InputEvent, PieceType, ReplayEvent } from '@/lib/engine';
import { HUMAN_INPUT } from '@/lib/input-limits';
import { RESEND_AFTER_MS, RESEND_AT_MOST, type ServerMessage } from '@/lib/live/protocol';
import type { WireEvent } from '@/lib/live/wire';

export type SeatBatch = { game: number; seq: number; tick: number; events: WireEvent[] };
/** The server's answers to a stream's batches (protocol 2), naming the stream. */
export type StreamAnswer = Extract<ServerMessage, { t: 'ack' | 'deal' }>;
/** A garbage message: `id` orders messages of one tick as the server does. */
export type SeatGarbage = { id: number; tick: number; size: number; column: number };

/** What a seat is rebuilt from (DealtSeat.restore): the server's copy's pieces, garbage, acknowledged batch and tick, and its own inputs. */
export type SeatRebuild = {
  pieces: readonly PieceType[];
  garbage: readonly SeatGarbage[];
  lastSeq: number;
  tick: number;
  inputs: ReadonlyArray<Readonly<ReplayEvent>>;
  startsInMs: number;
};

/** Batches kept unacknowledged at most: a minute's at BATCH_INTERVAL_MS. */
const UNACKED_AT_MOST = 600;

/** At most this many pieces are dealt into a game ahead of its current one (its queue holds 16). */
const DEAL_AHEAD = 12;

/** `B`: a batch as the seat sends it (a room's carries its target changes, room-seat.ts). */
export abstract class DealtSeat<B extends SeatBatch = SeatBatch> {
  /** The match this seat plays: its stream's id. */
  matchId = '';
  gameIndex = -1;
  game: DealtGame | null = null;
  /** The current game's countdown end, in the caller's clock. */
  startsAt = 0;
  seq = 0;
  /** How often a message named a tick already played, so the game was played again from the checkpoint. */
  replayed = 0;
  protected pieces: PieceType[] = [];
  /** Every message in the current game, by tick then id: the server's order. */
  protected garbage: SeatGarbage[] = [];
  /** The game at the tick the server last acknowledged, and how far into the inputs and garbage it is. */
  private checkpoint: { game: DealtGame; inputs: number; garbage: number } | null = null;
  /** How many of `garbage` the game has taken: a message that names a tick still ahead waits for it. */
  private taken = 0;
  /**
   * Inputs already played (and perhaps sent) that a replay could not reach yet, waiting for
   * pieces: each goes in again at its own tick, so the game stays the stream the server has.
   */
  private backlog: Array<Readonly<ReplayEvent>> = [];
  private sentEvents = 0;
  /** The tick of the last batch sent: a replay that stopped short sends nothing until it is past it again. */
  protected sentTick = 0;
  /** The server decided the current game: no more ticks are played in it. */
  protected decided = false;
  /**
   * Batches sent that the server has not acknowledged, as sent: should it refuse one (out of
   * order, or unread past its message budget), they all go again the same, and it acknowledges
   * again those it holds (resends). Never one batch in place of several: the server would take
   * its number as the first's and never read what the others had.
   */
  private unacked: B[] = [];
  /** When the refused batches go again (refused), or null. */
  private resendAt: number | null = null;

  /** The current game's pieces dealt so far, in order (every seat of a match plays the same sequence). */
  get sequence(): readonly PieceType[] {
    return this.pieces;
  }

  /** Called when a new game starts or the game is played again (a planner's plan is then stale). */
  onReset: () => void = () => {};

  constructor(protected readonly clock: () => number = () => performance.now()) {}

  /** A game of the set begins its countdown, `startsInMs` from now, on its first dealt pieces. */
  protected begin(game: number, config: DealtGameConfig, pieces: readonly PieceType[], startsInMs: number): void {
    this.gameIndex = game;
    this.pieces = pieces.slice();
    this.garbage = [];
    this.taken = 0;
    this.backlog = [];
    this.seq = 0;
    this.sentEvents = 0;
    this.sentTick = 0;
    this.decided = false;
    this.unacked = [];
    this.resendAt = null;
    this.startsAt = this.clock() + startsInMs;
    this.onReset();
    this.game = createDealtGame({ ...config, maxInputsPerTick: HUMAN_INPUT.maxEventsPerTick }, this.pieces);
    this.checkpoint = { game: this.game.clone(), inputs: 0, garbage: 0 };
  }

  /** An answer to this seat's stream (`ack`, `deal`); one naming another stream, or no game of a set, is passed by. */
  answer(m: StreamAnswer): void {
    if (m.stream !== this.matchId || m.game === undefined) return;
    if (m.t === 'deal') this.dealMore(m.game, m.from, m.pieces);
    else this.acked(m.game, m.seq, m.tick);
  }

  /** More pieces; one that does not continue those held (lost with a dropped socket) waits for the resume's. */
  protected dealMore(game: number, from: number, pieces: readonly PieceType[]): void {
    if (game !== this.gameIndex || !this.game || from > this.pieces.length) return;
    for (let i = this.pieces.length - from; i < pieces.length; i++) this.pieces.push(pieces[i]!);
    this.game.deal(from, pieces);
  }

  /** Garbage joined this seat's queue at the server's tick: before that tick is played, or played again. */
  protected addGarbage(game: number, m: SeatGarbage): void {
    const g = this.game;
    if (game !== this.gameIndex || !g || this.garbage.some((x) => x.id === m.id)) return;
    this.garbage.push(m);
    if (g.tickNo > m.tick) this.replay(g.tickNo);
  }

  /**
   * The server's copy has reached `tick`: every message before it has arrived, so the checkpoint
   * moves there (played forward with the same inputs and garbage as the game).
   */
  protected acked(game: number, seq: number, tick: number): void {
    const c = this.checkpoint;
    const g = this.game;
    if (game !== this.gameIndex) return;
    this.unacked = this.unacked.filter((b) => b.seq > seq);
    if (!c || !g || tick <= c.game.tickNo) return;
    this.playForward(c, g.inputs, Math.min(tick, g.tickNo));
  }

  /** Back after a drop: the server's pieces and garbage are the truth; batches after `lastSeq` were lost. */
  protected resumed(game: number, pieces: readonly PieceType[], garbage: SeatGarbage[], lastSeq: number, tick: number): void {
    if (game !== this.gameIndex || !this.game) return;
    for (let i = this.pieces.length; i < pieces.length; i++) this.pieces.push(pieces[i]!);
    const have = this.game.dealt;
    if (pieces.length > have) this.game.deal(have, pieces.slice(have));
    const same = garbage.length === this.garbage.length && garbage.every((g, i) => this.garbage[i]!.id === g.id);
    this.garbage = garbage;
    this.seq = lastSeq;
    this.unacked = [];
    this.resendAt = null;
    if (!same) this.replay(this.game.tickNo);
    // The next batches carry everything from the server's tick on.
    this.sentEvents = this.game.inputs.filter((e) => e.tick < tick).length;
    this.sentTick = Math.min(this.sentTick, tick);
  }

  /**
   * A seat rebuilt where the server's copy of it stands, by a player who kept nothing but its own
   * inputs (the server's sparring bot, its match taken up on another instance): the game from its
   * first pieces, its own inputs and the garbage played to `tick`, every batch up to `lastSeq`
   * sent and acknowledged. Throws if the inputs do not play to `tick` (a seat that would stream
   * another game than the server's is not played on).
   */
  protected restore(game: number, config: DealtGameConfig, at: SeatRebuild): void {
    this.begin(game, config, at.pieces, at.startsInMs);
    this.garbage = at.garbage.slice();
    const played = { game: this.game!, inputs: 0, garbage: 0 };
    this.playForward(played, at.inputs, at.tick);
    if (played.game.tickNo !== at.tick || played.inputs !== at.inputs.length)
      throw new Error(`its own inputs play to tick ${played.game.tickNo} (${played.inputs} of ${at.inputs.length}), not to tick ${at.tick}`);
    this.taken = played.garbage;
    this.checkpoint = { game: played.game.clone(), inputs: played.inputs, garbage: played.garbage };
    this.seq = at.lastSeq;
    this.sentEvents = played.game.inputs.length;
    this.sentTick = at.tick;
  }

  /** Decided by the server at the seat's tick `end`: the game stops there. */
  protected decide(game: number, end: number): void {
    if (game !== this.gameIndex || !this.game) return;
    this.decided = true;
    if (this.game.tickNo > end) this.replay(end);
  }

  /** One tick of this seat's game, as the page's runner drives it: garbage due at this tick first, then the inputs. */
  step(inputs: InputEvent[]): readonly GameEvent[] {
    const g = this.game;
    if (!g || g.over || !g.ready || this.decided) return [];
    const t = g.tickNo;
    while (this.taken < this.garbage.length && this.garbage[this.taken]!.tick === t) {
      const m = this.garbage[this.taken++]!;
      g.receiveGarbage(m.size, m.column);
    }
    if (this.backlog.length > 0 && this.backlog[0]!.tick <= t) {
      const now: InputEvent[] = [];
      while (this.backlog.length > 0 && this.backlog[0]!.tick <= t) {
        const e = this.backlog.shift()!;
        now.push({ key: e.key, down: e.down });
      }
      inputs = [...now, ...inputs];
    }
    return g.tick(inputs);
  }

  /**
   * What was played since the last batch (without the match's id), or null before the game: at
   * most what the server takes in one (batch-cuts.ts), so after a resume, which sends everything
   * from the server's tick on, the rest waits for the next (`batches`).
   */
  batch(): B | null {
    const g = this.game;
    if (!g) return null;
    if (g.tickNo < this.sentTick) return null;
    const from = this.sentTick;
    const upTo = Math.min(g.tickNo, this.cutBefore?.(from) ?? g.tickNo);
    const fresh = g.inputs.slice(this.sentEvents);
    let n = fresh.length;
    while (n > 0 && fresh[n - 1]!.tick >= upTo) n--;
    const cut = batchCuts(fresh.slice(0, n).map((e) => e.tick), from, upTo)[0]!;
    const events = fresh.slice(0, cut.count).map((e): WireEvent => [e.tick, keyId(e.key), e.down ? 1 : 0]);
    this.sentEvents += cut.count;
    this.sentTick = cut.tick;
    const b = this.dress({ game: this.gameIndex, seq: ++this.seq, tick: cut.tick, events }, from);
    // A decided game's batches tell the server nothing it needs: none is kept to go again. Nor
    // more than a minute's: a server that neither takes nor refuses them reads another connection.
    if (this.decided) this.unacked = [];
    else if (this.unacked.push(b) > UNACKED_AT_MOST) this.unacked.shift();
    return b;
  }

  /**
   * What was played since the last batch, in as many batches as the server needs to take it (one,
   * but for a resume after long play): at most RESEND_AT_MOST, the rest left for the next call.
   * More than one is rare and more than RESEND_AT_MOST never happens in play: that is 5,120 inputs
   * or 20 minutes since the server's tick, and a seat away is given up after its resume window.
   */
  batches(): B[] {
    const out: B[] = [];
    for (let b = this.batch(); b; b = out.length < RESEND_AT_MOST && this.unsent() ? this.batch() : null) out.push(b);
    return out;
  }

  /** Play not yet in a batch remains after the last one (it was cut at what the server takes). */
  private unsent(): boolean {
    const g = this.game;
    return g !== null && (this.sentEvents < g.inputs.length || this.sentTick < g.tickNo);
  }

  /** The batch as this kind of seat sends it, its ticks from `from` (a room's adds its target changes). */
  protected abstract dress(b: SeatBatch, from: number): B;

  /** The tick a batch from `from` must end by, for what `dress` adds to fit in it (a room's target changes); none if absent. */
  protected cutBefore?(from: number): number;

  /**
   * The server refused a batch at `now` (ms): out of order, ahead of a room's clock, or unread past
   * its message budget. Those it has not acknowledged go again RESEND_AFTER_MS later, once the
   * budget has refilled (resends). False when there is none to send (the game is decided, or all
   * were acknowledged): the error was then not about this seat's play.
   */
  refused(now: number): boolean {
    if (this.decided || this.unacked.length === 0) return false;
    this.resendAt ??= now + RESEND_AFTER_MS;
    return true;
  }

  /**
   * The batches to send again at `now` (ms), each as first sent, before the next new one: the
   * first RESEND_AT_MOST (the next new one, out of order then, is refused in turn and brings the rest).
   */
  resends(now: number): readonly B[] {
    if (this.resendAt === null || now < this.resendAt) return [];
    this.resendAt = null;
    return this.unacked.slice(0, RESEND_AT_MOST);
  }

  /** Plays up to `upTo` (the wall clock's tick for this game); the batch to send, or null before the game. */
  play(upTo: number, inputsFor: (game: DealtGame) => InputEvent[]): B | null {
    const g = this.game;
    if (!g) return null;
    while (!g.over && !this.decided && g.tickNo < upTo && g.ready) this.step(inputsFor(g));
    return this.batch();
  }

  /**
   * Plays the game again from the checkpoint to `end`, with every message at its tick. Should it
   * stop short (the garbage changed how many pieces it took, and the next is not dealt yet), what
   * is left of the old game's inputs, and what it was holding back, waits in the backlog.
   */
  private replay(end: number): void {
    const c = this.checkpoint;
    const old = this.game;
    if (!c || !old) return;
    const again = { game: c.game.clone(), inputs: c.inputs, garbage: c.garbage };
    const log = [...old.inputs, ...this.backlog];
    this.playForward(again, log, end);
    const t = again.game.tickNo;
    this.backlog = [...log.slice(again.inputs), ...old.carried.map((e) => ({ tick: Math.max(t, old.tickNo), key: e.key, down: e.down }))];
    this.game = again.game;
    this.taken = again.garbage;
    this.replayed++;
    this.onReset();
  }

  /** Plays `from`'s game forward to `end` with the logged inputs and the garbage, dealing as the game goes. */
  private playForward(from: { game: DealtGame; inputs: number; garbage: number }, log: readonly Readonly<ReplayEvent>[], end: number): void {
    const g = from.game;
    for (;;) {
      while (g.dealt < this.pieces.length && g.dealt - g.taken < DEAL_AHEAD) g.deal(g.dealt, [this.pieces[g.dealt]!]);
      if (g.tickNo >= end || g.over || !g.ready) break;
      const t = g.tickNo;
      // In order by tick: none is before t (the checkpoint never passes a message's tick before it arrives).
      while (from.garbage < this.garbage.length && this.garbage[from.garbage]!.tick === t) {
        const m = this.garbage[from.garbage++]!;
        g.receiveGarbage(m.size, m.column);
      }
      let inputs: InputEvent[] | undefined;
      while (from.inputs < log.length && log[from.inputs]!.tick === t) {
        const e = log[from.inputs++]!;
        (inputs ??= []).push({ key: e.key, down: e.down });
      }
      g.tick(inputs);
    }
  }
}
