import 'server-only';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { MAX_BATCH_TICKS, fromWireEvent, type ServerMessage } from '@/lib/live/protocol';
import { GameConfigError, MAX_REPLAY_TICKS, ROOM_RULES_VERSION, RoomInputError, RoomMatch, type InputEvent, type PieceType, type RoomGame, type RoomRules, type RoomTick, type VersusMode } from '@/lib/engine';
import { pieceSequence } from '@/lib/engine';
import type { RoomSeatFrame, WireTarget } from '@/lib/live/rooms';
import type { WireEvent } from '@/lib/live/wire';
import { roomRecordOf } from '@/lib/server/versus/room-verify';
import { storeRoomMatch, type StoreRoomResult } from '@/lib/server/versus/room-store';
import type { SeatOwner } from '@/lib/server/versus/store';
import type { Owner } from '@/lib/server/games/owner';
import { guarded } from '@/lib/server/live/guarded';
import { realTimers, type Timers } from '@/lib/server/live/match/match-host';
import { storeRetrying } from '@/lib/server/live/match/match-store';
import type { SeatLink } from '@/lib/server/live/match/match-seat';
import { processStalls } from '@/lib/server/live/stalls';
import { clockTick, ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import { RoomSeat, type RoomSeatSpec } from '@/lib/server/live/rooms/room-seat';
import { decidedGame, gameInPlay, replayDecided, replayInPlay, RoomRestoreError, type RoomCheckpoint, type RoomCheckpointGame } from '@/lib/server/live/rooms/room-checkpoint';
import { tellTaken } from '@/lib/server/live/seat-taken';

export type RoomBatch = { game: number; seq: number; tick: number; events: readonly WireEvent[]; targets?: readonly WireTarget[] };
export type RoomFail = { code: 'game_over' | 'out_of_order' | 'bad_inputs' | 'ahead_of_clock'; message: string };
type Store = (o: { matchId: string; record: ReturnType<typeof roomRecordOf>; seats: SeatOwner[] }) => Promise<StoreRoomResult>;

export type RoomHostOptions = {
  matchId: string;
  code: string;
  /** From the server's CSPRNG; game n is played on `${seed}.${n}`, revealed to nobody while it runs. */
  seed: string;
  mode: VersusMode;
  rules: RoomRules;
  seats: RoomSeatSpec[];
  now?: () => number;
  timers?: Timers;
  /** This process's stalls so far (stalls.ts; ms): the default, unless `now` is a test's own clock (then none but the test's). */
  stalls?: () => number;
  store?: Store;
  onClose?: (host: RoomHost) => void;
  /** Each seat's resume token (a set restored from its checkpoint); new ones otherwise. */
  tokens?: readonly string[];
};

/**
 * What a restored host takes besides its checkpoint: the same as a new one's, but for the set itself;
 * `lateMs`, for a set taken up after its host died: how long ago the checkpoint was written. The
 * set's clock moves on by that much, as its players' pages did, and for ROOM_LIMITS.takeUpGraceMs
 * nobody is put out for lag while their pages dial again.
 */
export type RoomRestoreOptions = Omit<RoomHostOptions, 'matchId' | 'code' | 'seed' | 'mode' | 'rules' | 'seats' | 'tokens'> & { lateMs?: number };

/**
 * A room's set, live (decision 0034): N seats through the lockstep referee (RoomMatch). People's
 * batches are played as they come and wait in the referee for the slowest seat; bots are played
 * on the server one tick at a time, only where every person still in has already sent that tick
 * and never past the room's clock, so they see exactly the state the referee has. Every seat's
 * frames go to every seat and watcher, cut where a seat knew more pieces than the people were
 * dealt. A person trailing the clock by ROOM_LIMITS.maxLagMs is out of the game (`lag`). The set
 * is stored once, through room-store.ts, which re-verifies every seat.
 */
export class RoomHost {
  readonly matchId: string;
  readonly seats: RoomSeat[];
  readonly match: RoomMatch;
  private readonly now: () => number;
  private readonly timers: Timers;
  private phase: 'countdown' | 'playing' | 'between' | 'over' | 'closed' = 'countdown';
  private timer: unknown = null;
  private readonly stalls: () => number;
  /** The process's stalls already excused, or from before the set. */
  private stallsSeen: number;
  private t0 = 0;
  private readonly spectators = new Set<SeatLink>();
  /** The pieces every person in the room may see, shared by all seats (one sequence per game). */
  private shared: PieceType[] = [];
  private drawShared: () => PieceType = () => 'I';
  private piecesSent = 0;
  /** Between games: when the next one's countdown begins. */
  private nextAt = 0;
  /** A set taken up after its host died: until then its people are not put out for lag (ROOM_LIMITS.takeUpGraceMs). */
  private graceUntil = 0;
  /** Decided games as a checkpoint writes them (they never change): built once, not at every write. */
  private readonly decided: RoomCheckpointGame[] = [];
  /** Since when no person's seat has had a connection (null: someone is here). */
  private emptySince: number | null = null;
  /** Set once the set is stored (or refused): what `rover` said. */
  stored: Promise<StoreRoomResult | null> | null = null;

  constructor(readonly o: RoomHostOptions) {
    this.matchId = o.matchId;
    this.now = o.now ?? (() => performance.now());
    this.timers = o.timers ?? realTimers;
    this.stalls = o.stalls ?? (o.now ? () => 0 : processStalls);
    this.stallsSeen = this.stalls();
    this.match = new RoomMatch({ mode: o.mode, seed: o.seed, rules: o.rules, handling: o.seats.map((s) => s.handling) });
    this.seats = o.seats.map((spec, s) => new RoomSeat(spec, o.tokens?.[s] ?? randomBytes(18).toString('base64url')));
  }

  get ended(): boolean {
    return this.phase === 'over' || this.phase === 'closed';
  }

  /** Stopped (stored, emptied, or the server closing): it has no checkpoint. */
  get closed(): boolean {
    return this.phase === 'closed';
  }

  /** Played to its winner (not closed early): its room may go back to the lobby for another set. */
  get finished(): boolean {
    return this.phase === 'over';
  }

  get gameIndex(): number {
    return this.match.games.length - 1;
  }

  /** Tells every seat its set begins, then counts the first game down. */
  begin(links: (SeatLink | null)[]): void {
    this.seats.forEach((seat, s) => {
      seat.stream.link = links[s] ?? null;
      this.sendMatch(s);
    });
    this.startGame(ROOM_LIMITS.countdownMs);
  }

  /** A person's batch for their seat (the seat is the connection's, never the message's). */
  inputs(s: number, b: RoomBatch): RoomFail | null {
    const seat = this.seats[s]!;
    const g = this.match.current;
    if (this.ended) return { code: 'game_over', message: 'The set is over.' };
    if (b.game !== this.gameIndex || seat.leftRoom || g.isOut(s) || g.outcome) {
      if (b.game > this.gameIndex) return { code: 'bad_inputs', message: `Game ${b.game} has not started.` };
      return null; // a batch of a decided game, or of a seat out of this one: dropped (its ack would mean nothing)
    }
    const order = seat.stream.stream.order(b.seq);
    if (order === 'again') return void seat.stream.link?.send(this.ack(b.seq, seat.sentTick)), null;
    if (order !== 'next') return order;
    const from = seat.sentTick;
    this.clockStarted(this.now());
    if (this.phase !== 'playing' && b.tick > 0) return { code: 'ahead_of_clock', message: 'The game has not started.' };
    if (b.tick < from || b.tick - from > MAX_BATCH_TICKS) return { code: 'bad_inputs', message: `A batch runs the clock from ${from}, at most ${MAX_BATCH_TICKS} ticks.` };
    if (b.tick > clockTick(this.now() - this.t0) + ROOM_LIMITS.aheadTicks) return { code: 'ahead_of_clock', message: 'The batch runs past the room’s clock.' };
    for (let i = 0; i < b.events.length; i++) {
      const t = b.events[i]![0];
      if (t < from || t >= b.tick || (i > 0 && t < b.events[i - 1]![0])) return { code: 'bad_inputs', message: 'Events are in order, within the batch’s ticks.' };
    }
    const targets = this.targetsOf(s, b, from);
    if ('code' in targets) return targets;
    const unplayable = seat.stream.admit({ game: b.game, seq: b.seq, tick: b.tick, events: b.events }, targets);
    if (unplayable) {
      this.out(s, 'left');
      return { code: 'bad_inputs', message: unplayable.message };
    }
    seat.stream.stream.accept(b.seq);
    try {
      this.feed(s, b, from, targets);
    } catch (error) {
      if (!(error instanceof RoomInputError)) throw error;
      this.out(s, 'lag');
      return { code: 'bad_inputs', message: error.message };
    }
    seat.sentTick = b.tick;
    seat.stream.stream.settle(b.tick, this.now());
    seat.stream.link?.send(this.ack(b.seq, b.tick));
    this.pump();
    return null;
  }

  /**
   * The batch's target changes, by tick: refused whole (nothing played) when the rules or the
   * seats say no (not manual, itself, a teammate, no such seat, two on one tick); one naming a
   * seat already out is dropped, as the browser may not have seen the KO yet.
   */
  private targetsOf(s: number, b: RoomBatch, from: number): Map<number, number> | RoomFail {
    const out = new Map<number, number>();
    const g = this.match.current;
    for (const [tick, to] of b.targets ?? []) {
      const bad = (why: string): RoomFail => ({ code: 'bad_inputs', message: `A target change ${why}.` });
      if (g.rules.targeting !== 'manual') return bad('is only for manual targeting');
      if (tick < from || tick >= b.tick || out.has(tick)) return bad('is one a tick, within the batch');
      if (to >= g.seats || to === s) return bad(`cannot name seat ${to}`);
      if (g.teams[to] === g.teams[s]) return bad(`cannot name a teammate (seat ${to})`);
      if (!g.isOut(to)) out.set(tick, to);
    }
    return out;
  }

  private feed(s: number, b: RoomBatch, from: number, targets: Map<number, number>): void {
    const g = this.match.current;
    const log = this.seats[s]!.stream.stream.log;
    let e = 0;
    for (let t = from; t < b.tick && !g.outcome && !g.isOut(s); t++) {
      let inputs: InputEvent[] | undefined;
      const start = e;
      while (e < b.events.length && b.events[e]![0] === t) (inputs ??= []).push(fromWireEvent(b.events[e++]!));
      log.pushWire(b.events, start, e);
      const to = targets.get(t);
      if (to !== undefined) this.seats[s]!.targets.push([t, to]);
      this.after(g.play(s, inputs, to));
    }
  }

  /**
   * Plays the bots up to the room's clock, one tick at a time, while every person still in has
   * sent that tick (their ticks wait in the referee): a bot never plays ahead of what the referee
   * has settled, so it sees the field the referee holds.
   */
  private pump(): void {
    if (this.phase !== 'playing') return;
    const g = this.match.current;
    const clock = clockTick(this.now() - this.t0);
    const bots = this.seats.flatMap((seat, s) => (seat.isBot ? [s] : []));
    const people = this.seats.flatMap((seat, s) => (seat.isBot ? [] : [s]));
    while (!g.outcome && g.tick < clock) {
      if (people.some((s) => !g.isOut(s) && g.waiting(s) === 0)) break;
      const playing = bots.filter((s) => !g.isOut(s));
      if (playing.length === 0) break;
      for (const s of playing) this.after(this.seats[s]!.botTick(g, s));
    }
    if (g.outcome) this.endGame();
  }

  /** What the referee settled: garbage to its receivers, KOs to everyone, deals to people. */
  private after(ticks: RoomTick[]): void {
    if (ticks.length === 0) return;
    const g = this.match.current;
    for (const t of ticks) {
      for (const a of t.attacks) {
        if (a.column < 0) continue;
        const seat = this.seats[a.to]!;
        const j = seat.stream.joined({ id: seat.stream.garbage.length, to: 0, size: a.size, sentAt: a.tick + 1, deadline: a.tick + 1 + g.rules.garbageDelay, column: a.column });
        seat.stream.link?.send({ t: 'rgarbage', matchId: this.matchId, game: this.gameIndex, from: a.from, size: j.size, column: j.column, tick: j.tick });
      }
      for (const s of t.out) this.everyone({ t: 'rko', matchId: this.matchId, game: this.gameIndex, seat: s, tick: t.tick, why: 'topOut' });
    }
    this.seats.forEach((seat, s) => {
      const deal = seat.stream.topUp(g.game(s).taken, g.game(s).tickNo);
      if (deal && !seat.isBot) seat.stream.link?.send({ t: 'deal', stream: this.matchId, game: this.gameIndex, ...deal });
    });
  }

  /** The seat is out of this game (left, lagged, or refused); `left` also keeps it out of later games. */
  leave(s: number): void {
    const seat = this.seats[s]!;
    if (this.ended || seat.leftRoom) return;
    seat.leftRoom = true;
    seat.stream.link = null;
    if (this.seats.every((x) => x.isBot || x.leftRoom)) {
      // Nobody left to play for: the bots' set is not kept.
      this.everyone({ t: 'rclosed', code: this.o.code, reason: 'empty' });
      return this.close();
    }
    if (this.phase === 'playing' || this.phase === 'countdown') this.out(s, 'left');
  }

  private out(s: number, why: 'left' | 'lag'): void {
    const g = this.match.current;
    if (g.isOut(s) || g.outcome) return;
    this.after(g.leave(s));
    this.everyone({ t: 'rko', matchId: this.matchId, game: this.gameIndex, seat: s, tick: g.tick, why });
    this.pump();
    if (g.outcome && this.phase === 'playing') this.endGame();
  }

  /** Whether `link` is the connection playing seat `s` now (after a resume elsewhere, the old one is not). */
  holds(s: number, link: SeatLink): boolean {
    return this.seats[s]?.stream.link === link;
  }

  /** The connection dropped: the seat keeps its place; if it is not back within the lag bound it is out of the game. */
  dropped(s: number, link: SeatLink): void {
    const seat = this.seats[s]!;
    if (seat.stream.link !== link) return;
    seat.stream.link = null;
    seat.stream.stream.drop(this.now());
  }

  /** A reconnect with the seat's token: where the game stands, to rebuild it and resend what was not acknowledged. */
  resume(token: string, link: SeatLink, owner: Owner): number | null {
    const s = this.seats.findIndex((seat) => !seat.isBot && !seat.leftRoom && same(seat.stream.token, token));
    if (s < 0 || this.ended) return null;
    // The token is the seat's, and so is the player: a token handed to another account (or kept by a
    // banned player signed in afresh) takes nothing up.
    const mine = this.seats[s]!.spec.owner;
    if (mine.userId !== owner.userId || mine.guestId !== owner.guestId) return null;
    const seat = this.seats[s]!;
    const g = this.match.current;
    const inPlay = this.phase === 'countdown' || this.phase === 'playing';
    // Everyone is shown what is due first, so the catch-up below is exactly what frames have carried and the next frame follows it.
    if (this.phase === 'playing') this.frames();
    tellTaken(seat.stream.link, link, this.matchId);
    seat.stream.link = link;
    seat.stream.stream.back(this.now());
    this.sendMatch(s);
    // A seat taken up on another page (the ranked 2v2 queue's hand-over) got this game's rbegin on
    // the socket it left: without it the new page has no game, sends nothing and is put out for lag.
    // Only while the server holds no batch of the seat's for this game, so a page that played keeps
    // its game, and while the seat is still in it (one put out for lag has no game to start).
    if (inPlay && seat.stream.stream.lastSeq === 0 && !g.isOut(s))
      link.send({ t: 'rbegin', matchId: this.matchId, game: this.gameIndex, pieces: seat.stream.stream.dealt.slice(), startsInMs: this.t0 - this.now(), score: this.score() });
    link.send({
      t: 'rresumed', matchId: this.matchId, game: this.gameIndex, lastSeq: seat.stream.stream.lastSeq, tick: seat.sentTick,
      pieces: seat.stream.stream.dealt.slice(), garbage: seat.stream.garbage.map((j) => [j.tick, j.size, j.column]), playing: !g.isOut(s) && !g.outcome,
    });
    // The other fields from their start: the page missed frames while away (or they came from a host this set was taken up from).
    if (inPlay) link.send(this.catchUp());
    return s;
  }

  /** Every seat's field so far, as frames have shown it: a page rebuilds the others' fields from it. */
  private catchUp(): ServerMessage {
    const g = this.match.current;
    const visible = this.visible();
    const seats: RoomSeatFrame[] = this.seats.map((seat, s) => {
      const so = seat.stream.soFar(g.game(s), this.shared, visible);
      return { seat: s, events: so.events, garbage: so.garbage, tick: so.tick, stats: so.stats, meter: g.game(s).garbageQueued, aim: g.aimOf(s), out: g.isOut(s) };
    });
    return { t: 'rframes', matchId: this.matchId, game: this.gameIndex, from: 0, pieces: this.shared.slice(0, this.piecesSent), seats, all: true };
  }

  watch(link: SeatLink): boolean {
    if (this.spectators.size >= ROOM_LIMITS.spectatorsPerRoom) return false;
    // As for a resume: the catch-up is what frames have carried, and the next frame follows it.
    if (this.phase === 'playing') this.frames();
    this.spectators.add(link);
    link.send(this.matchMessage(null));
    link.send({ t: 'rbegin', matchId: this.matchId, game: this.gameIndex, pieces: [], startsInMs: this.t0 - this.now(), score: this.score() });
    link.send(this.catchUp());
    return true;
  }

  unwatch(link: SeatLink): void {
    this.spectators.delete(link);
  }

  /**
   * The set as data to rebuild it from (room-checkpoint.ts): every game so far, the one in play as
   * its seats' streams hold it (a person's ticks sent but not yet played too), the decided ones as
   * the referee holds them.
   */
  checkpoint(): RoomCheckpoint {
    if (this.phase === 'closed') throw new Error('A closed room set has no checkpoint.');
    const now = this.now();
    const inPlay = this.phase === 'countdown' || this.phase === 'playing';
    // Between games the next is already the match's, but nothing of it has been played.
    const games = this.phase === 'between' ? this.match.games.slice(0, -1) : this.match.games;
    return {
      v: 1, matchId: this.matchId, code: this.o.code, seed: this.o.seed, mode: this.o.mode, rules: this.o.rules, seats: this.seats.map((x) => x.spec),
      games: games.map((g, i) => (inPlay && i === games.length - 1 ? gameInPlay(this.seats, g) : (this.decided[i] ??= decidedGame(g)))),
      phase: this.phase, elapsedMs: inPlay ? now - this.t0 : 0, nextInMs: this.phase === 'between' ? Math.max(0, this.nextAt - now) : 0,
      state: this.seats.map(({ stream, leftRoom }) => ({
        token: stream.token, lastSeq: stream.stream.lastSeq, leftRoom, startSent: stream.startSent, excusedMs: stream.stream.excusedMs, stalledMs: stream.stream.stalledMs,
      })),
      writtenAt: Date.now(),
    };
  }

  /**
   * A set rebuilt from its checkpoint, as it stood: every game replayed through the referee (the
   * bots choosing their inputs again, checked against those written), its clock where it was, its
   * people away until they resume here. Throws RoomRestoreError for one that does not replay.
   */
  static restore(cp: RoomCheckpoint, o: RoomRestoreOptions): RoomHost {
    try {
      const { lateMs, ...rest } = o;
      const host = new RoomHost({ ...rest, matchId: cp.matchId, code: cp.code, seed: cp.seed, mode: cp.mode, rules: cp.rules, seats: cp.seats, tokens: cp.state.map((x) => x.token) });
      host.replay(cp, lateMs === undefined ? null : Math.max(0, lateMs));
      return host;
    } catch (error) {
      // A seat further ahead than the referee holds, a target it refuses, a set the engine would not start: not the set written.
      if (error instanceof RoomInputError || error instanceof GameConfigError) throw new RoomRestoreError(error.message);
      throw error;
    }
  }

  private replay(cp: RoomCheckpoint, takenUp: number | null): void {
    const now = this.now();
    const late = takenUp ?? 0;
    const inPlay = cp.phase === 'countdown' || cp.phase === 'playing';
    for (const [i, cg] of cp.games.entries()) {
      if (i > 0 && !this.match.advance()) throw new RoomRestoreError(`game ${i - 1} was not decided before game ${i}, or the set was already won`);
      const g = this.match.current;
      if (inPlay && i === cp.games.length - 1) {
        this.replayInPlay(g, cg, now - cp.elapsedMs - late);
        continue;
      }
      replayDecided(g, cg, i);
    }
    this.seats.forEach((seat, s) => {
      const st = cp.state[s]!;
      seat.leftRoom = st.leftRoom;
      seat.stream.startSent = st.startSent;
      if (st.lastSeq > 0) seat.stream.stream.accept(st.lastSeq);
      seat.stream.stream.excusedMs = st.excusedMs;
      seat.stream.stream.excuseStall(st.stalledMs, now);
      // Nobody is connected to this host yet: each person is away until they resume here.
      if (!seat.isBot) seat.stream.stream.drop(now);
    });
    // Taken up: nobody is put out for lag, nor the room closed as empty, before its people's pages could dial again.
    if (takenUp !== null) {
      this.graceUntil = now + ROOM_LIMITS.takeUpGraceMs;
      this.emptySince = this.graceUntil;
    }
    switch (cp.phase) {
      case 'countdown':
      case 'playing':
        this.phase = cp.phase;
        this.frames(); // what was played is shown already: a frame carries only what comes next
        return this.schedule();
      case 'between':
        if (!this.match.advance()) throw new RoomRestoreError('the set was won before the game it waits for');
        this.phase = 'between';
        return this.nextGameIn(Math.max(0, cp.nextInMs - late));
      case 'over': {
        this.match.advance();
        const winner = this.match.winner;
        if (winner === null) throw new RoomRestoreError('the set is over without a winner');
        return this.finish(winner);
      }
      default:
        cp.phase satisfies never;
    }
  }

  /** The game in play, through this host's own paths, so each seat's stream (garbage, deals, frames) is rebuilt too; nobody is told. */
  private replayInPlay(g: RoomGame, cg: RoomCheckpointGame, t0: number): void {
    this.setUpGame(t0);
    replayInPlay({ seats: this.seats, game: this.gameIndex, after: (ticks) => this.after(ticks) }, g, cg);
  }

  /** Stops everything without storing (the room emptied of people, or the server closes). */
  close(): void {
    if (this.phase === 'closed') return;
    const wasOver = this.phase === 'over';
    this.phase = 'closed';
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    if (!wasOver) this.o.onClose?.(this);
  }

  private startGame(countdownMs: number): void {
    const g = this.match.current;
    this.setUpGame(this.now() + countdownMs);
    for (const [s, seat] of this.seats.entries()) if (seat.leftRoom) this.after(g.leave(s));
    this.phase = 'countdown';
    this.seats.forEach((seat) => {
      if (!seat.isBot) seat.stream.link?.send({ t: 'rbegin', matchId: this.matchId, game: this.gameIndex, pieces: seat.stream.stream.dealt.slice(), startsInMs: countdownMs, score: this.score() });
      seat.stream.startSent = this.gameIndex;
    });
    for (const link of this.spectators) link.send({ t: 'rbegin', matchId: this.matchId, game: this.gameIndex, pieces: [], startsInMs: countdownMs, score: this.score() });
    this.schedule();
  }

  /** The current game's clock from `t0`, its shared pieces and each seat's stream: a game starting, or one restored. */
  private setUpGame(t0: number): void {
    const g = this.match.current;
    const seed = `${this.o.seed}.${this.gameIndex}`;
    this.t0 = t0;
    // Our stalls before this game's clock are nobody's credit in it.
    this.stallsSeen = this.stalls();
    this.drawShared = pieceSequence(seed, ROOM_RULES_VERSION);
    this.shared = [];
    this.piecesSent = 0;
    this.seats.forEach((seat, s) => seat.newGame(g, s, seed, t0));
  }

  private schedule(): void {
    if (this.timer !== null || this.ended) return;
    this.timer = this.timers.set(() => guarded(() => this.beat(), (error) => this.failed(error)), ROOM_LIMITS.beatMs);
  }

  /** A bug in a beat closes this room, unstored, and harms no other game on the instance. */
  private failed(error: unknown): void {
    console.error(`[rooms] room ${this.o.code} failed and was closed:`, error);
    this.everyone({ t: 'rclosed', code: this.o.code, reason: 'refused' });
    this.close();
  }

  /**
   * Whether the room should close unstored: nobody has been connected to any person's seat for
   * ROOM_LIMITS.emptyCloseMs (bots would otherwise play, and hold their budget, forever), or the
   * game has run to the longest replay a seat can store.
   */
  private abandoned(now: number): 'empty' | 'over' | null {
    // A room of bots alone (one the server starts itself: tests, the bench) has nobody to wait for.
    const people = this.seats.filter((seat) => !seat.isBot);
    if (people.length === 0 || people.some((seat) => !seat.leftRoom && seat.stream.link)) this.emptySince = null;
    else if ((this.emptySince ??= now) <= now - ROOM_LIMITS.emptyCloseMs) return 'empty';
    return this.phase === 'playing' && clockTick(now - this.t0) >= MAX_REPLAY_TICKS ? 'over' : null;
  }

  /** Plays the bots to the clock, puts out a person trailing it too far, and sends every seat's frames. */
  beat(): void {
    this.timer = null;
    if (this.ended || this.phase === 'between') return;
    const now = this.now();
    const gone = this.abandoned(now);
    if (gone) {
      this.everyone({ t: 'rclosed', code: this.o.code, reason: gone });
      return this.close();
    }
    this.clockStarted(now);
    if (this.phase === 'playing') {
      const g = this.match.current;
      // A stall of ours is nobody's lag; beyond it, the lockstep waits for a person at most maxLagMs.
      const stalled = this.stalls() - this.stallsSeen;
      this.stallsSeen += stalled;
      for (const [s, seat] of this.seats.entries()) {
        if (seat.isBot || g.isOut(s)) continue;
        if (stalled > 0 && seat.stream.link) seat.stream.stream.excuseStall(stalled, now);
        if (now >= this.graceUntil && seat.stream.stream.pace(seat.sentTick, now, ROOM_LIMITS.maxLagMs) === 'behind') this.out(s, 'lag');
      }
      this.pump();
      if (this.phase === 'playing') this.frames();
    }
    this.schedule();
  }

  /**
   * The game plays from its clock's start, not from the beat that finds it started (up to a beat
   * later): a browser's first batch may come in between, and refusing it would leave its stream a
   * batch short until the seat is out for lag.
   */
  private clockStarted(now: number): void {
    if (this.phase === 'countdown' && now >= this.t0) this.phase = 'playing';
  }

  /** Pieces every person still in has been dealt: the most any frame may show (all, in a room of bots). */
  private visible(): number {
    const g = this.match.current;
    let least = Infinity;
    let most = 0;
    for (const [s, seat] of this.seats.entries()) {
      const dealt = seat.stream.stream.dealt.length;
      most = Math.max(most, dealt);
      if (!seat.isBot && !g.isOut(s)) least = Math.min(least, dealt);
    }
    return least === Infinity ? most : least;
  }

  private frames(): void {
    const g = this.match.current;
    const visible = this.visible();
    while (this.shared.length < visible) this.shared.push(this.drawShared());
    const seats: RoomSeatFrame[] = [];
    for (const [s, seat] of this.seats.entries()) {
      const f = seat.stream.takeFrame(g.game(s), visible);
      if (f) seats.push({ seat: s, events: f.events, garbage: f.garbage, tick: f.tick, stats: f.stats, meter: f.meter, aim: g.aimOf(s), out: g.isOut(s) });
    }
    const from = this.piecesSent;
    if (seats.length === 0 && from === visible) return;
    this.piecesSent = visible;
    this.everyone({ t: 'rframes', matchId: this.matchId, game: this.gameIndex, from, pieces: this.shared.slice(from, visible), seats });
  }

  private endGame(): void {
    if (this.phase !== 'playing' && this.phase !== 'countdown') return;
    const g = this.match.current;
    const o = g.outcome!;
    this.frames();
    const index = this.gameIndex;
    this.match.advance();
    this.everyone({ t: 'rgame', matchId: this.matchId, game: index, winner: o.winner, reason: o.reason, tick: o.tick, placements: g.placements(), score: this.score() });
    if (this.match.winner !== null) return this.finish(this.match.winner);
    this.phase = 'between';
    this.nextGameIn(ROOM_LIMITS.betweenGamesMs);
  }

  private nextGameIn(ms: number): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.nextAt = this.now() + ms;
    this.timer = this.timers.set(() => {
      this.timer = null;
      if (!this.ended) this.startGame(ROOM_LIMITS.betweenGamesMs);
    }, ms);
  }

  private finish(winner: number): void {
    this.phase = 'over';
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    const seats: SeatOwner[] = this.seats.map(({ spec }) => ({ ...spec.owner, ...(spec.bot ? { bot: spec.bot } : {}), ...(spec.queued ? { queued: spec.queued } : {}) }));
    const store = this.o.store ?? storeRoomMatch;
    // Building the record can throw (a replay past its bounds): that is a refusal, said to the room,
    // never an exception out of a timer, which would end the process and every game on it.
    this.stored = Promise.resolve()
      .then(() => roomRecordOf(this.match, this.o.seed, this.o.mode))
      // A store that throws (the database away) is tried again, as a versus match's is: a finished set is kept.
      // Tried on while this set is here (written each second meanwhile: RoomSetKeeper); stopped (the home moved), the next home stores it.
      .then((record) => storeRetrying({ matchId: this.matchId, store: () => store({ matchId: this.matchId, record, seats }), timers: this.timers, again: () => !this.closed }))
      .then(
        (r) => r,
        (error: unknown) => (console.error('[rooms] a room set could not be stored:', error), null),
      );
    void this.stored.then((r) => {
      if (!r?.ok) console.error('[rooms] a room set was refused:', r);
      this.everyone({ t: 'rover', matchId: this.matchId, winner, score: this.score(), stored: r?.ok === true });
      this.o.onClose?.(this);
    });
  }

  private score(): [number, number][] {
    return [...this.match.score].sort((a, b) => a[0] - b[0]);
  }

  private ack(seq: number, tick: number): ServerMessage {
    return { t: 'ack', stream: this.matchId, game: this.gameIndex, seq, tick };
  }

  private matchMessage(seat: number | null): ServerMessage {
    return {
      t: 'rmatch', matchId: this.matchId, code: this.o.code, mode: this.o.mode, seat, players: this.seats.map((x) => x.spec.player), handling: this.seats.map((x) => x.spec.handling),
      rules: { ...this.o.rules }, rulesVersion: ROOM_RULES_VERSION, ...(seat === null ? {} : { resumeToken: this.seats[seat]!.stream.token }),
    };
  }

  private sendMatch(s: number): void {
    const seat = this.seats[s]!;
    if (!seat.isBot) seat.stream.link?.send(this.matchMessage(s));
  }

  private everyone(m: ServerMessage): void {
    for (const seat of this.seats) if (!seat.isBot) seat.stream.link?.send(m);
    for (const link of this.spectators) link.send(m);
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
