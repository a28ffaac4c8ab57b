/**
 * The browser's seat in a live versus match, without DOM or socket: it keeps the dealt game
 * (pieces from `vstart`, more from `vdeal`) and puts each garbage message the server sends into
 * the game at the server's tick with the server's hole column. The server's copy of this seat's
 * game runs behind the browser's (batches are in flight), so a message usually names a tick the
 * browser has already played: it then plays again from its checkpoint, the tick the server last
 * acknowledged (`vack`), which no later message can precede. docs/decisions/0017-versus-live.md.
 *
 *   const seat = new VersusSeatState();
 *   seat.receive(message);                        // every server message for this seat
 *   const batch = seat.play(upTo, (game) => keys); // → the body of `vinputs` (without matchId)
 */
import { isRoomServerMessage } from '@/lib/live/rooms';
import { isTeamServerMessage } from '@/lib/live/teams';
import { createDealtGame, DEFAULT_HANDLING, keyId, VERSUS_RULES_VERSION } from '@/lib/engine';
import type { DealtGame, GameEvent, Handling, InputEvent, PieceType, ReplayEvent } from '@/lib/engine';
import { HUMAN_INPUT } from '@/lib/input-limits';
import type { ServerMessage } from '@/lib/live/protocol';
import type { WireEvent } from '@/lib/live/wire';

type Msg = ServerMessage;
export type SeatBatch = { game: number; seq: number; tick: number; events: WireEvent[] };
type Garbage = { id: number; tick: number; size: number; column: number };

/** At most this many pieces are dealt into a game ahead of its current one (its queue holds 16). */
const DEAL_AHEAD = 12;

export class VersusSeatState {
  matchId = '';
  seat: 0 | 1 = 0;
  mode: 'battle' | 'race30' = 'battle';
  handling: Handling = DEFAULT_HANDLING;
  nextCount = 5;
  /** The match's versus rules, as the server announced them: the keys the server accepts. */
  rulesVersion: number = VERSUS_RULES_VERSION;
  gameIndex = -1;
  game: DealtGame | null = null;
  /** The current game's countdown end, in the caller's clock (set from vstart's startsInMs). */
  startsAt = 0;
  seq = 0;
  over: Extract<Msg, { t: 'vover' }> | null = null;
  /** How often a message named a tick already played, so the game was played again from the checkpoint. */
  replayed = 0;
  private pieces: PieceType[] = [];
  /** Every message in the current game, by tick then id: the server's order. */
  private garbage: Garbage[] = [];
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
  private sentTick = 0;
  /** The server decided the current game: no more ticks are played in it. */
  private decided = false;

  /** The current game's pieces dealt so far, in order (the opponent's game uses the same sequence). */
  get sequence(): readonly PieceType[] {
    return this.pieces;
  }

  /** Called when a new game starts or the game is played again (a planner's plan is then stale). */
  onReset: () => void = () => {};

  constructor(private readonly clock: () => number = () => performance.now()) {}

  receive(m: Msg): void {
    if (isRoomServerMessage(m)) return; // a live room's (lib/live/rooms.ts): no page plays rooms yet
    if (isTeamServerMessage(m)) return; // the ranked 2v2 queue's (lib/live/teams.ts): the versus page's queue control reads them
    switch (m.t) {
      case 'match':
        this.matchId = m.matchId;
        this.seat = m.seat;
        this.mode = m.mode;
        this.handling = m.handling[m.seat];
        this.nextCount = m.nextCount;
        this.rulesVersion = m.rulesVersion;
        return;
      case 'vstart':
        this.gameIndex = m.game;
        this.pieces = m.pieces.slice();
        this.garbage = [];
        this.taken = 0;
        this.backlog = [];
        this.seq = 0;
        this.sentEvents = 0;
        this.sentTick = 0;
        this.decided = false;
        this.startsAt = this.clock() + m.startsInMs;
        this.onReset();
        this.game = createDealtGame(
          { mode: this.mode, handling: this.handling, nextCount: this.nextCount, rulesVersion: this.rulesVersion, seat: this.seat, maxInputsPerTick: HUMAN_INPUT.maxEventsPerTick },
          this.pieces,
        );
        this.checkpoint = { game: this.game.clone(), inputs: 0, garbage: 0 };
        return;
      case 'vdeal':
        // A deal that does not continue the pieces held (one was lost with a dropped socket) waits for vresumed's.
        if (m.game !== this.gameIndex || !this.game || m.from > this.pieces.length) return;
        for (let i = this.pieces.length - m.from; i < m.pieces.length; i++) this.pieces.push(m.pieces[i]!);
        this.game.deal(m.from, m.pieces);
        return;
      case 'garbage': {
        const g = this.game;
        if (m.game !== this.gameIndex || !g || this.garbage.some((x) => x.id === m.id)) return;
        this.garbage.push({ id: m.id, tick: m.tick, size: m.size, column: m.column });
        // Not played yet: it joins before its tick is played (step). Already played: play again from the checkpoint.
        if (g.tickNo > m.tick) this.replay(g.tickNo);
        return;
      }
      case 'vack':
        if (m.game === this.gameIndex) this.advanceCheckpoint(m.tick);
        return;
      case 'vresumed': {
        // Back after a drop: the server's garbage is the truth (some came while the socket was down).
        if (m.game !== this.gameIndex || !this.game) return;
        // Deals sent while the socket was down: every piece dealt so far comes again.
        for (let i = this.pieces.length; i < m.pieces.length; i++) this.pieces.push(m.pieces[i]!);
        const have = this.game.dealt;
        if (m.pieces.length > have) this.game.deal(have, m.pieces.slice(have));
        const theirs = m.garbage.map(([id, tick, size, column]) => ({ id, tick, size, column }));
        const same = theirs.length === this.garbage.length && theirs.every((g, i) => this.garbage[i]!.id === g.id);
        this.garbage = theirs;
        this.seq = m.lastSeq;
        if (!same) this.replay(this.game.tickNo);
        // Batches after lastSeq were lost with the connection: the next one carries everything from the server's tick on.
        this.sentEvents = this.game.inputs.filter((e) => e.tick < m.tick).length;
        return;
      }
      case 'vgame':
        // Decided (here, or by the other seat): the game stops where the server counted it.
        if (m.game !== this.gameIndex || !this.game) return;
        this.decided = true;
        if (this.game.tickNo > m.ticks[this.seat]) this.replay(m.ticks[this.seat]);
        return;
      case 'vover':
        this.over = m;
        return;
      case 'welcome':
      case 'started':
      case 'deal':
      case 'ack':
      case 'status':
      case 'over':
      case 'watching':
      case 'frame':
      case 'ended':
      case 'error':
      case 'pong':
      case 'queued':
      case 'unqueued':
      case 'room':
      case 'room_closed':
      case 'rematch_state':
      case 'rematch_over':
      case 'vframe':
      case 'vaway':
      case 'vwatching':
        return; // the session's (lobby, rooms, away, errors) or a spectator's
      default:
        m satisfies never;
    }
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

  /** What was played since the last batch: the body of `vinputs` (without matchId), or null before the game. */
  batch(): SeatBatch | null {
    const g = this.game;
    if (!g) return null;
    if (g.tickNo < this.sentTick) return null;
    const log = g.inputs;
    const events = log.slice(this.sentEvents).map((e): WireEvent => [e.tick, keyId(e.key), e.down ? 1 : 0]);
    this.sentEvents = Math.max(this.sentEvents, log.length);
    this.sentTick = g.tickNo;
    return { game: this.gameIndex, seq: ++this.seq, tick: g.tickNo, events };
  }

  /** Plays up to `upTo` (the wall clock's tick for this game); the batch to send, or null before the game. */
  play(upTo: number, inputsFor: (game: DealtGame, seat: 0 | 1) => InputEvent[]): SeatBatch | null {
    const g = this.game;
    if (!g) return null;
    while (!g.over && !this.decided && g.tickNo < upTo && g.ready) this.step(inputsFor(g, this.seat));
    return this.batch();
  }

  /**
   * The server's copy has reached `tick`: every message before it has arrived, so the checkpoint
   * moves there (played forward with the same inputs and garbage as the game).
   */
  private advanceCheckpoint(tick: number): void {
    const c = this.checkpoint;
    const g = this.game;
    if (!c || !g || tick <= c.game.tickNo) return;
    this.playForward(c, g.inputs, Math.min(tick, g.tickNo));
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
