import { EMPTY_ROW, PAD, TOTAL_ROWS } from './board';
import type { Core } from './core';
import { MAX_GARBAGE_SIZE } from './constants';
import { GameConfigError } from './errors';
import { queuedRows } from './garbage';
import { GameImpl, NONE, type Game } from './game';
import { KeyStream, seedKey } from './keystream';
import { MODES } from './modes';
import { checkRoomRules, MAX_SEATS, MIN_SEATS, teamsOf, type RoomRules } from './room-rules';
import { createCore } from './setup';
import { chooseTarget } from './targeting';
import type { GameConfig, GameEvent, Handling, InputEvent, Replay, TargetChange, VersusMode } from './types';

/**
 * The referee of a room: 2–16 seats, free-for-all or teams, under rules version 7 (decision 0031).
 * It plays the seats in lockstep: global tick t is played once every seat still in has sent its
 * tick t, all seats in seat order, then the tick's attacks are routed. So a match is a function of
 * the seed and the seats' streams alone, whatever the batching and arrival order (property-tested);
 * and a stored match re-verifies by playing the same streams through it again.
 */
export const ROOM_RULES_VERSION = 7;
/**
 * Most ticks a seat may send ahead of the slowest seat still in: the referee holds them until the
 * others catch up, so one stream racing ahead cannot grow the server's memory without bound. Far
 * above the live lag bound (3 s, decision 0020), which the host enforces first.
 */
export const MAX_AHEAD_TICKS = 600;
/** The keyed stream random targeting draws from (pieces are 1, seat s's holes 2 + s). */
export const STREAM_TARGETS = 64;

export interface RoomGameConfig {
  mode: VersusMode;
  seed: string;
  rules: RoomRules;
  /** One per seat: the room's seat count. */
  handling: readonly Handling[];
  /** Per seat, a starting board and first pieces (practice and tests only: never in a replay, as GameConfig's). */
  start?: readonly (Pick<GameConfig, 'board' | 'queue'> | undefined)[];
}

/** An attack routed at the end of `tick`: it joins `to`'s queue at tick + 1, hole `column`. */
export interface RoomAttack {
  from: number;
  to: number;
  size: number;
  tick: number;
  column: number;
}

export interface RoomTick {
  tick: number;
  /** Per seat, the events of its tick (empty for a seat that is out). */
  events: (readonly GameEvent[])[];
  attacks: RoomAttack[];
  /** Seats that topped out at this tick. */
  out: number[];
}

export type RoomEndReason = 'lastStanding' | 'goal' | 'time';

export interface RoomOutcome {
  /** The winning team (a seat's own number in a free-for-all); null: a draw. */
  winner: number | null;
  reason: RoomEndReason;
  tick: number;
}

/** A seat's stream asked for something the rules do not allow: the host drops it, verification refuses it. */
export class RoomInputError extends Error {
  override name = 'RoomInputError';
}

interface Step {
  inputs: readonly InputEvent[];
  target: number | undefined;
}

export class RoomGame {
  readonly seats: number;
  readonly teams: readonly number[];
  readonly rules: RoomRules;
  private readonly cores: Core[] = [];
  private readonly games: GameImpl[] = [];
  private readonly buffered: Step[][];
  /** Each seat's aim: its last target, or its manual choice; itself before any. */
  private readonly aim: number[];
  private readonly targetLog: TargetChange[][];
  /** The tick each seat went out at (topped out or left); null while in. */
  private readonly outAt: (number | null)[];
  private draws: KeyStream;
  private decided: RoomOutcome | null = null;
  private readonly left: { seat: number; tick: number }[] = [];
  /** The next global tick to play. */
  private now = 0;

  /**
   * An independent copy, between ticks as much as within: every seat's game, what each has sent
   * ahead, aims, target changes, who is out, the targets' draws and the outcome. The match viewer
   * keeps one every few seconds of a game to seek back without playing it again from the start.
   */
  clone(): RoomGame {
    const copy = Object.create(RoomGame.prototype) as RoomGame;
    const copies = this.games.map((g) => GameImpl.copyOf(g));
    const draws = new KeyStream(this.draws.key, this.draws.stream);
    draws.counter = this.draws.counter;
    draws.pos = this.draws.pos;
    draws.block.set(this.draws.block);
    // Every own field, by name: the clone test plays a copy on beside the original, so one missed here shows.
    return Object.assign(copy, {
      seats: this.seats, teams: this.teams, rules: this.rules, games: copies.map((c) => c.game), cores: copies.map((c) => c.core),
      buffered: this.buffered.map((b) => b.slice()), aim: this.aim.slice(), targetLog: this.targetLog.map((l) => l.map((t) => ({ ...t }))),
      outAt: this.outAt.slice(), draws, decided: this.decided && { ...this.decided }, left: this.left.map((l) => ({ ...l })), now: this.now,
    });
  }

  constructor(config: RoomGameConfig) {
    const n = config.handling.length;
    if (!Number.isInteger(n) || n < MIN_SEATS || n > MAX_SEATS) throw new GameConfigError(`a room has ${MIN_SEATS}–${MAX_SEATS} seats`);
    if (MODES[config.mode]?.kind !== 'versus') throw new GameConfigError(`${String(config.mode)} is not a versus mode`);
    const bad = checkRoomRules(config.rules, n);
    if (bad) throw new GameConfigError(bad);
    this.seats = n;
    this.rules = config.rules;
    this.teams = teamsOf(config.rules, n);
    for (let s = 0; s < n; s++) {
      const setup = { mode: config.mode, seed: config.seed, handling: config.handling[s]!, rulesVersion: ROOM_RULES_VERSION, nextCount: config.rules.preview, room: { rules: config.rules, seat: s } };
      const { core, nextCount } = createCore({ ...setup, ...config.start?.[s] }, true);
      this.cores.push(core);
      this.games.push(new GameImpl(core, nextCount, setup));
    }
    this.buffered = Array.from({ length: n }, () => []);
    this.aim = Array.from({ length: n }, (_, s) => s);
    this.targetLog = Array.from({ length: n }, () => []);
    this.outAt = Array.from({ length: n }, () => null);
    this.draws = new KeyStream(seedKey(config.seed), STREAM_TARGETS);
  }

  get outcome(): RoomOutcome | null {
    return this.decided;
  }

  /** The next tick every seat still in plays. */
  get tick(): number {
    return this.now;
  }

  game(seat: number): Game {
    return this.games[this.seatIndex(seat)]!;
  }

  isOut(seat: number): boolean {
    return this.outAt[this.seatIndex(seat)] !== null;
  }

  /** Ticks seat has sent that the others have not caught up with yet. */
  waiting(seat: number): number {
    return this.buffered[this.seatIndex(seat)]!.length;
  }

  /** Who the seat aims at now (its manual choice, or whom it attacked last); itself before any. */
  aimOf(seat: number): number {
    return this.aim[this.seatIndex(seat)]!;
  }

  /**
   * Seat's next tick: its inputs and, under manual targeting, a target change before them. Plays
   * every global tick that every seat still in has now sent. Throws RoomInputError for a target
   * change the rules do not allow (not manual, itself, a teammate, no such seat) and for a tick
   * more than MAX_AHEAD_TICKS ahead of the slowest seat.
   */
  play(seat: number, inputs: readonly InputEvent[] = NONE, target?: number): RoomTick[] {
    const s = this.seatIndex(seat);
    if (target !== undefined) this.checkTarget(s, target);
    if (this.decided || this.outAt[s] !== null) return [];
    if (this.buffered[s]!.length >= MAX_AHEAD_TICKS) throw new RoomInputError(`seat ${s} is more than ${MAX_AHEAD_TICKS} ticks ahead of the room`);
    this.buffered[s]!.push({ inputs, target });
    return this.advance();
  }

  /** The seat left: it is out from the current tick (its team may still play on). */
  leave(seat: number): RoomTick[] {
    const s = this.seatIndex(seat);
    if (this.decided || this.outAt[s] !== null) return [];
    this.outAt[s] = this.now;
    this.left.push({ seat: s, tick: this.now });
    this.buffered[s] = [];
    this.decideByStanding(this.now);
    return this.advance();
  }

  /** The seat's replay: its inputs, the garbage it received, the room's rules, its seat and target changes. */
  replay(seat: number): Replay {
    const s = this.seatIndex(seat);
    return { ...this.games[s]!.replay(), room: { rules: this.rules, seat: s, targets: this.targetLog[s]!.map((t) => ({ ...t })) } };
  }

  /** Who left, at which tick: what a stored game records beside the replays (room-replay.ts). */
  leaves(): { seat: number; tick: number }[] {
    return this.left.map((l) => ({ ...l }));
  }

  /** Seats in the order they went out (ties in seat order), those still in last. */
  placements(): number[] {
    const order = [...this.outAt.keys()];
    const at = (s: number) => this.outAt[s] ?? Number.MAX_SAFE_INTEGER;
    return order.sort((a, b) => at(a) - at(b) || a - b);
  }

  private seatIndex(seat: number): number {
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.seats) throw new RoomInputError(`no seat ${seat} in a room of ${this.seats}`);
    return seat;
  }

  private checkTarget(s: number, target: number): void {
    if (this.rules.targeting !== 'manual') throw new RoomInputError('target changes are only for manual targeting');
    if (!Number.isInteger(target) || target < 0 || target >= this.seats || target === s) throw new RoomInputError(`seat ${s} cannot aim at ${target}`);
    if (this.teams[target] === this.teams[s]) throw new RoomInputError(`seat ${target} is seat ${s}'s teammate`);
  }

  private advance(): RoomTick[] {
    const out: RoomTick[] = [];
    while (!this.decided && this.ready()) out.push(this.step());
    return out;
  }

  private ready(): boolean {
    for (let s = 0; s < this.seats; s++) if (this.outAt[s] === null && this.buffered[s]!.length === 0) return false;
    return true;
  }

  /** Global tick t: every seat still in plays it, then what they sent is routed. */
  private step(): RoomTick {
    const t = this.now;
    const events: (readonly GameEvent[])[] = [];
    const sent: number[] = [];
    const playing: number[] = [];
    for (let s = 0; s < this.seats; s++) {
      sent.push(0);
      if (this.outAt[s] !== null) {
        events.push(NONE);
        continue;
      }
      playing.push(s);
      const step = this.buffered[s]!.shift()!;
      if (step.target !== undefined) {
        this.aim[s] = step.target;
        this.targetLog[s]!.push({ tick: t, target: step.target });
      }
      const ev = this.games[s]!.tick(step.inputs);
      events.push(ev);
      for (const e of ev) if (e.type === 'lock') sent[s] = sent[s]! + e.sent;
    }
    const outNow = playing.filter((s) => this.cores[s]!.toppedOut);
    for (const s of outNow) this.outAt[s] = t;
    const attacks = this.route(t, playing, sent);
    this.now = t + 1;
    this.decide(t, playing);
    return { tick: t, events, attacks, out: outNow };
  }

  /**
   * Each sender's rows go to the target its rule picks among the living opponents, in seat order.
   * Two attacks crossing between the same pair in one tick cancel each other first (zero
   * passthrough: the queue already did so for anything older). Then each joins its target's queue.
   */
  private route(t: number, playing: readonly number[], sent: number[]): RoomAttack[] {
    const msgs: { from: number; to: number; size: number }[] = [];
    for (const s of playing) {
      if (sent[s] === 0) continue;
      const opponents = this.living().filter((o) => this.teams[o] !== this.teams[s]);
      if (opponents.length === 0) continue;
      const to = chooseTarget(this.rules.targeting, s, opponents, { seats: this.seats, aim: this.aim, danger: (o) => this.danger(o), draws: this.draws });
      if (this.rules.targeting !== 'manual') this.aim[s] = to;
      msgs.push({ from: s, to, size: sent[s]! });
    }
    for (const a of msgs)
      for (const b of msgs) {
        if (a.from < b.from && a.to === b.from && b.to === a.from) {
          const m = Math.min(a.size, b.size);
          a.size -= m;
          b.size -= m;
        }
      }
    const attacks: RoomAttack[] = [];
    for (const m of msgs) {
      // A tick's locks are summed (several hard drops, attackPercent up to 400): past what one
      // message may hold (a replay's garbage event), the rest follows in further messages.
      for (let left = m.size; left > 0; left -= MAX_GARBAGE_SIZE) {
        const size = Math.min(left, MAX_GARBAGE_SIZE);
        const column = this.games[m.to]!.receiveGarbage(size);
        attacks.push({ ...m, size, tick: t, column });
      }
    }
    return attacks;
  }

  private living(): number[] {
    const out: number[] = [];
    for (let s = 0; s < this.seats; s++) if (this.outAt[s] === null) out.push(s);
    return out;
  }

  /** Stack height plus queued rows: how close a seat is to topping out (KOs targeting). */
  private danger(s: number): number {
    const c = this.cores[s]!;
    let h = TOTAL_ROWS;
    while (h > 0 && c.board[h - 1 + PAD] === EMPTY_ROW) h--;
    return h + queuedRows(c);
  }

  private decide(t: number, playing: readonly number[]): void {
    const goals = new Set(playing.filter((s) => this.cores[s]!.ended && !this.cores[s]!.toppedOut).map((s) => this.teams[s]!));
    if (goals.size > 0) return void (this.decided = { winner: goals.size === 1 ? [...goals][0]! : null, reason: 'goal', tick: t });
    this.decideByStanding(t);
    const limit = this.rules.timeLimitTicks;
    if (!this.decided && limit > 0 && t + 1 >= limit) this.decided = { winner: this.mostSent(), reason: 'time', tick: t };
  }

  /** Last team standing wins; nobody left (all out at once) is a draw. */
  private decideByStanding(t: number): void {
    if (this.decided) return;
    const alive = new Set(this.living().map((s) => this.teams[s]!));
    if (alive.size <= 1) this.decided = { winner: alive.size === 1 ? [...alive][0]! : null, reason: 'lastStanding', tick: t };
  }

  /** The living team that sent the most rows; a tie is a draw. */
  private mostSent(): number | null {
    const total = new Map<number, number>();
    for (const s of this.living()) total.set(this.teams[s]!, (total.get(this.teams[s]!) ?? 0) + this.cores[s]!.sent);
    const ranked = [...total].sort((a, b) => b[1] - a[1]);
    return ranked.length === 1 || ranked[0]![1] > ranked[1]![1] ? ranked[0]![0] : null;
  }
}
