/**
 * A versus bot for the referee: it reads its own field from the public snapshot, picks a spot with
 * the test bot's search (bot-eval.ts), and types it as 1-tick key taps. Seeded and deterministic.
 * `mistakes` is the share of pieces it hard-drops where they spawned, so games end in a few
 * hundred pieces; `ackDelay` is how many of its ticks it waits before acknowledging garbage (past
 * the referee's deadline, the referee forces it).
 *
 *   const bots = [new VersusBot({ seed: 'a' }), new VersusBot({ seed: 'b', mistakes: 0.3 })];
 *   const match = new VersusMatch({ mode: 'battle', seed: 'm', handling: [h, h] });
 *   playMatch(match, bots);
 */
import { PIECES, ROTATIONS } from '@/lib/engine/constants';
import type { Game, InputEvent, Key, Player, VersusGame, VersusMatch } from '@/lib/engine';
import { best, bitboardOf, candidates } from '@/lib/bot/search';
import { Humanizer, type HumanTiming } from '@/tests/support/human';

export interface VersusBotOptions {
  seed: string;
  /** 0–1: share of pieces dropped without thinking. */
  mistakes?: number;
  /** Idle ticks after each piece. */
  pace?: number;
  /** Ticks between a garbage message arriving and the bot acknowledging it. */
  ackDelay?: number;
  /** rowDown taps before each placed piece's hard drop (versus rules 4 only). */
  rowDown?: number;
  /**
   * Type with seeded, jittered human timing (tests/support/human.ts): held taps, gaps and a pause
   * before each piece, instead of 1-tick taps back to back.
   */
  human?: HumanTiming;
}

const TURN_KEYS = [null, 'rotateCW', 'rotate180', 'rotateCCW'] as const;
const idle = (ticks: number): InputEvent[][] => Array.from({ length: ticks }, () => []);

export class VersusBot {
  private plan: InputEvent[][] = [];
  private target: { x: number; turnKey: Key | null } | null = null;
  private rng: number;
  private readonly seen = new Map<number, number>();
  private readonly human: Humanizer | null;

  constructor(readonly options: VersusBotOptions) {
    let h = 0x811c9dc5;
    for (let i = 0; i < options.seed.length; i++) h = Math.imul(h ^ options.seed.charCodeAt(i), 0x01000193);
    this.rng = h >>> 0;
    this.human = options.human ? new Humanizer(options.human, options.seed) : null;
  }

  /** A key pressed and released: on the next tick, or held and followed by a gap with human timing. */
  private tap(key: Key): InputEvent[][] {
    const h = this.human;
    if (!h) return [[{ key, down: true }], [{ key, down: false }]];
    return [[{ key, down: true }], ...idle(h.draw(h.timing.hold) - 1), [{ key, down: false }], ...idle(h.draw(h.timing.gap))];
  }

  private random(): number {
    this.rng = (Math.imul(this.rng, 1664525) + 1013904223) >>> 0;
    return this.rng / 2 ** 32;
  }

  /** A new game of the set: forget the last one's plan and messages. */
  reset(): void {
    this.plan = [];
    this.target = null;
    this.seen.clear();
  }

  /** Message ids to acknowledge at this tick. */
  acks(game: VersusGame, p: Player): number[] {
    const now = game.tickOf(p);
    const out: number[] = [];
    for (const m of game.awaiting(p)) {
      const first = this.seen.get(m.id) ?? now;
      this.seen.set(m.id, first);
      if (now - first >= (this.options.ackDelay ?? 2)) out.push(m.id);
    }
    return out;
  }

  /** The key edges for player p's next tick (a versus player, or a room's seat). */
  inputs(game: { game(p: number): Game }, p: number): InputEvent[] {
    if (this.plan.length === 0) this.think(game, p);
    return this.plan.shift() ?? [];
  }

  private think(game: { game(p: number): Game }, p: number): void {
    const snap = game.game(p).snapshot();
    const a = snap.active;
    if (!a) return;
    if (this.target) {
      // The rotation happened: shift from wherever the kick put the piece, then drop.
      const dx = this.target.x - a.x;
      for (let i = 0; i < Math.abs(dx); i++) this.plan.push(...this.tap(dx < 0 ? 'left' : 'right'));
      for (let i = 0; i < (this.options.rowDown ?? 0); i++) this.plan.push(...this.tap('rowDown'));
      this.plan.push(...this.tap('hardDrop'));
      for (let i = 0; i < (this.options.pace ?? 0); i++) this.plan.push([]);
      this.target = null;
      return;
    }
    if (this.human) this.plan.push(...idle(this.human.draw(this.human.timing.think)));
    if (this.random() < (this.options.mistakes ?? 0)) {
      this.plan.push(...this.tap('hardDrop'));
      return;
    }
    const pick = best(candidates(bitboardOf(snap.board), PIECES.indexOf(a.type), ROTATIONS.indexOf(a.rotation), a.x, a.y));
    if (!pick) {
      this.plan.push(...this.tap('hardDrop'));
      return;
    }
    const turnKey = TURN_KEYS[pick.turn];
    this.target = { x: pick.x, turnKey };
    if (turnKey) this.plan.push(...this.tap(turnKey));
    else this.think(game, p);
  }
}

export interface MatchRun {
  /** Ticks played per game (the longer stream). */
  ticks: number[];
  /** Every ack the referee ignored and every message it forced at the deadline, per game. */
  forced: number;
}

/**
 * Plays a whole set in lockstep (player 0's tick, then player 1's), as a server would see two
 * punctual clients. `maxTicks` per game guards against two bots that never top out: the game is
 * then forfeited by the player with the fewer lines, so every run ends.
 */
export function playMatch(match: VersusMatch, bots: readonly [VersusBot, VersusBot], maxTicks = 30_000): MatchRun {
  const run: MatchRun = { ticks: [], forced: 0 };
  for (;;) {
    const game = match.current;
    bots[0].reset();
    bots[1].reset();
    let t = 0;
    for (; !game.outcome && t < maxTicks; t++) {
      for (const p of [0, 1] as const) {
        const r = game.tick(p, bots[p].inputs(game, p), bots[p].acks(game, p));
        run.forced += r.applied.filter((m) => game.tickOf(p) - 1 >= m.deadline).length;
      }
    }
    if (!game.outcome) game.forfeit(game.game(0).snapshot().lines <= game.game(1).snapshot().lines ? 0 : 1);
    run.ticks.push(t);
    if (!match.advance()) return run;
  }
}
