import { garbageDelayOf, MAX_SEED_LENGTH, VERSUS_RULES_VERSION } from './constants';
import { GameConfigError } from './errors';
import { createGame, NO_EVENTS, NONE, type Game } from './game';
import { MODES } from './modes';
import type { GameEvent, Handling, InputEvent, Replay, VersusMode } from './types';

/**
 * The versus referee: two games of one match, fed each player's input stream tick by tick. It is
 * the only place attacks become garbage: it reads what each lock sent from its own simulation of
 * the sender, so no client can claim an attack. Pure and deterministic: the same calls in the same
 * order give the same games, replays and outcome. The live match host only feeds it.
 */

/**
 * Rules 2 and 4: a garbage message must be acknowledged by the receiver within this many of its own
 * ticks after the referee routed it (its `sentAt`, the receiver's tick at that moment); otherwise
 * it is applied at `sentAt + ACK_DEADLINE_TICKS` as if acknowledged then. The receiver picks the
 * tick inside that window: rules 6 takes the choice away (no acknowledgements; constants.ts RULES
 * `garbageDelay`).
 */
export const ACK_DEADLINE_TICKS = 30;

export type Player = 0 | 1;

export interface GarbageMessage {
  /** Numbered from 0 per game, in the order the referee routed them. */
  id: number;
  to: Player;
  size: number;
  /**
   * The receiver's tick when the message was routed. Rules 2 and 4: the earliest tick it can join
   * the queue. Rules 6: the tick it joined the queue (in flight, cancellable, shown).
   */
  sentAt: number;
  /**
   * Rules 2 and 4: the last tick it may be acknowledged at; the referee applies it then at the
   * latest. Rules 6: the tick it may rise from, sentAt + the rules' garbage delay.
   */
  deadline: number;
  /** Rules 6: its hole column, drawn from the seed when it was routed. -1 under 2 and 4 (drawn as it joins). */
  column: number;
}

export type GameEndReason = 'topOut' | 'goal' | 'forfeit';

export interface GameOutcome {
  /** null: both ended on the same tick the same way (a draw, replayed). */
  winner: Player | null;
  reason: GameEndReason;
  /** The deciding tick: the loser's (or the goal reacher's) end tick; for a forfeit, the leaver's tick. */
  tick: number;
}

export interface RefereeTick {
  events: readonly GameEvent[];
  /** The message routed to the opponent by this tick's locks (none, or one with their total). */
  sent: readonly GarbageMessage[];
  /** Messages that joined this player's queue at this tick (acknowledged or forced). */
  applied: readonly GarbageMessage[];
  /** Acknowledgements that named no pending message (unknown, already applied, or not this player's). */
  ignoredAcks: readonly number[];
}

export interface VersusGameConfig {
  mode: VersusMode;
  /** The same seed for both players: the same pieces and the same hole columns. */
  seed: string;
  handling: readonly [Handling, Handling];
  nextCount?: number;
  /** A versus rules version; VERSUS_RULES_VERSION when absent (replaying an older golden passes its own). */
  rulesVersion?: number;
}

const other = (p: Player): Player => (p === 0 ? 1 : 0);

/** One game of a set between two players. */
export class VersusGame {
  readonly mode: VersusMode;
  private readonly games: [Game, Game];
  private readonly pending: [GarbageMessage[], GarbageMessage[]] = [[], []];
  private nextId = 0;
  private decided: GameOutcome | null = null;
  /** Rules 6: ticks from routing to rising, no acknowledgements. null: rules 2 and 4's acknowledged garbage. */
  readonly garbageDelay: number | null;

  constructor(config: VersusGameConfig) {
    if (MODES[config.mode]?.kind !== 'versus') throw new GameConfigError(`${String(config.mode)} is not a versus mode`);
    this.mode = config.mode;
    this.garbageDelay = garbageDelayOf(config.rulesVersion ?? VERSUS_RULES_VERSION);
    const make = (seat: Player) =>
      createGame({ mode: config.mode, seed: config.seed, handling: config.handling[seat], rulesVersion: config.rulesVersion, seat, ...(config.nextCount ? { nextCount: config.nextCount } : {}) });
    this.games = [make(0), make(1)];
  }

  get outcome(): GameOutcome | null {
    return this.decided;
  }

  /** The tick player p plays next. */
  tickOf(p: Player): number {
    return this.games[p].tickNo;
  }

  game(p: Player): Game {
    return this.games[p];
  }

  /** Messages routed to p and not yet in p's queue, oldest first. */
  awaiting(p: Player): readonly GarbageMessage[] {
    return this.pending[p];
  }

  /**
   * Plays player p's next tick: first the garbage p acknowledges at this tick, plus any message
   * whose deadline is this tick, joins p's queue in routing order; then p's inputs; then what p's
   * locks sent is routed to the opponent. Does nothing once the game is decided or p's game is over.
   *
   * Rules 6: nothing is acknowledged (every ack is ignored). What p's locks sent joins the
   * opponent's queue at once, at the opponent's current tick, and may rise garbageDelay ticks
   * later; until then the opponent's own attacks cancel it like any queued garbage. So two attacks
   * that cross always meet: whichever the referee plays second cancels against the first (zero
   * passthrough), and both replays record the same thing.
   */
  tick(p: Player, inputs: readonly InputEvent[] = NONE, acks: readonly number[] = NONE): RefereeTick {
    const game = this.games[p];
    if (this.decided || game.over) return { events: NO_EVENTS, sent: NONE, applied: NONE, ignoredAcks: acks.slice() };
    if (this.garbageDelay !== null) return this.tickDelayed(p, inputs, acks);
    const now = this.tickOf(p);
    const pending = this.pending[p];
    let applied: readonly GarbageMessage[] = NONE;
    let ignoredAcks: readonly number[] = NONE;
    if (acks.length > 0 || pending.some((m) => m.deadline <= now)) {
      const acked = new Set(acks);
      ignoredAcks = acks.filter((id) => !pending.some((m) => m.id === id));
      const [due, later] = partition(pending, (m) => acked.has(m.id) || m.deadline <= now);
      this.pending[p] = later;
      for (const m of due) game.receiveGarbage(m.size);
      applied = due;
    }
    const events = game.tick(inputs);
    // One message per sender tick (several hard drops in one tick send together), the unit
    // simulateReplay's `sends` reports, so a stored match can be checked message by message.
    const q = other(p);
    const size = sentBy(events);
    let sent: readonly GarbageMessage[] = NONE;
    if (size > 0 && !this.games[q].over) {
      const sentAt = this.tickOf(q);
      const m: GarbageMessage = { id: this.nextId++, to: q, size, sentAt, deadline: sentAt + ACK_DEADLINE_TICKS, column: -1 };
      this.pending[q].push(m);
      sent = [m];
    }
    this.decide();
    return { events, sent, applied, ignoredAcks };
  }

  /** Rules 6's tick (see tick). */
  private tickDelayed(p: Player, inputs: readonly InputEvent[], acks: readonly number[]): RefereeTick {
    const events = this.games[p].tick(inputs);
    const q = other(p);
    const size = sentBy(events);
    let sent: readonly GarbageMessage[] = NONE;
    if (size > 0 && !this.games[q].over) {
      const sentAt = this.tickOf(q);
      const column = this.games[q].receiveGarbage(size);
      sent = [{ id: this.nextId++, to: q, size, sentAt, deadline: sentAt + this.garbageDelay!, column }];
    }
    this.decide();
    return { events, sent, applied: NONE, ignoredAcks: acks.length > 0 ? acks.slice() : NONE };
  }

  /** Player p left (or did not return in time): the opponent wins this game now. */
  forfeit(p: Player): GameOutcome {
    this.decided ??= { winner: other(p), reason: 'forfeit', tick: this.tickOf(p) };
    return this.decided;
  }

  /** Player p's versus replay: p's inputs and the garbage p received, each at its tick. */
  replay(p: Player): Replay {
    return this.games[p].replay();
  }

  /**
   * Decided by game ticks, not by the order the streams arrive: when one player's game ended at
   * tick t, the game is decided once the other's stream reached t (or ended earlier). Race 30:
   * reaching the goal wins; topping out loses. The same end on the same tick is a draw.
   */
  private decide(): void {
    if (this.decided || (!this.games[0].over && !this.games[1].over)) return;
    const end = this.games.map((g) => endOf(g));
    const [a, b] = end;
    if (!a && !b) return;
    if (a && b) {
      if (a.tick !== b.tick) return this.settle(a.tick < b.tick ? 0 : 1, a.tick < b.tick ? a : b);
      if (a.goal === b.goal) return void (this.decided = { winner: null, reason: a.goal ? 'goal' : 'topOut', tick: a.tick });
      return this.settle(a.goal ? 0 : 1, a.goal ? a : b);
    }
    const p: Player = a ? 0 : 1;
    const e = (a ?? b)!;
    if (this.tickOf(other(p)) >= e.tick) this.settle(p, e);
  }

  /** Player p's end (at e) decides the game: a goal wins it, a top out loses it. */
  private settle(p: Player, e: { tick: number; goal: boolean }): void {
    this.decided = { winner: e.goal ? p : other(p), reason: e.goal ? 'goal' : 'topOut', tick: e.tick };
  }
}

/** Rows a tick's locks sent (several hard drops in one tick send together). */
function sentBy(events: readonly GameEvent[]): number {
  let size = 0;
  for (const e of events) if (e.type === 'lock') size += e.sent;
  return size;
}

function endOf(g: Game): { tick: number; goal: boolean } | null {
  if (!g.over) return null;
  const s = g.snapshot();
  return { tick: s.tick, goal: s.finished };
}

function partition<T>(items: readonly T[], pick: (t: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const t of items) (pick(t) ? yes : no).push(t);
  return [yes, no];
}

export interface MatchConfig {
  mode: VersusMode;
  /** The match's seed; game n of the set is played with `${seed}.${n}`. */
  seed: string;
  handling: readonly [Handling, Handling];
  /** Games needed to win the set; the mode's default (first to 2) when absent. */
  firstTo?: number;
  /** A versus rules version for every game of the set; VERSUS_RULES_VERSION when absent. */
  rulesVersion?: number;
}

/** Longest match seed: room for the game number within the engine's seed limit. */
export const MAX_MATCH_SEED_LENGTH = MAX_SEED_LENGTH - 4;
export const MAX_FIRST_TO = 7;

/** A best-of set: games are played one after another until a player has won `firstTo`. */
export class VersusMatch {
  readonly firstTo: number;
  readonly score: [number, number] = [0, 0];
  readonly games: VersusGame[] = [];
  /** The player who left: the set ends there, the opponent wins it. */
  forfeitedBy: Player | null = null;

  constructor(private readonly config: MatchConfig) {
    const firstTo = config.firstTo ?? MODES[config.mode].firstTo;
    if (!Number.isInteger(firstTo) || firstTo < 1 || firstTo > MAX_FIRST_TO) throw new GameConfigError(`firstTo must be an integer 1–${MAX_FIRST_TO}`);
    if (config.seed.length < 1 || config.seed.length > MAX_MATCH_SEED_LENGTH) throw new GameConfigError(`match seed must be 1–${MAX_MATCH_SEED_LENGTH} characters`);
    this.firstTo = firstTo;
    this.games.push(this.newGame());
  }

  get current(): VersusGame {
    return this.games[this.games.length - 1]!;
  }

  /** The set's winner, once someone has won firstTo games. */
  get winner(): Player | null {
    if (this.forfeitedBy !== null) return other(this.forfeitedBy);
    return this.score[0] >= this.firstTo ? 0 : this.score[1] >= this.firstTo ? 1 : null;
  }

  /**
   * Counts the current game once it is decided and starts the next one (a draw is replayed).
   * Returns false while the current game is still being played or when the set is over.
   */
  advance(): boolean {
    const outcome = this.current.outcome;
    if (!outcome || this.winner !== null) return false;
    if (outcome.winner !== null) this.score[outcome.winner]++;
    if (this.winner !== null) return false;
    this.games.push(this.newGame());
    return true;
  }

  /** Leaving a match loses it: the current game is forfeited (counted for the opponent) and the set ends. */
  forfeit(p: Player): void {
    if (this.winner !== null) return;
    const outcome = this.current.outcome ?? this.current.forfeit(p);
    if (outcome.winner !== null) this.score[outcome.winner]++;
    this.forfeitedBy = p;
  }

  private newGame(): VersusGame {
    const { mode, seed, handling, rulesVersion } = this.config;
    return new VersusGame({ mode, seed: `${seed}.${this.games.length}`, handling, rulesVersion });
  }
}
