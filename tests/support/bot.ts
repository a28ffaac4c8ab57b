/**
 * Deterministic test bot: plays the real engine through key presses stamped by tick, the way a
 * tidy human would (optional hold, one rotation, taps or DAS to the wall, hard drop; every key held
 * at least one tick, at most two key edges per tick). Used for golden replays, the benchmark, the
 * browser e2e and API load tests.
 *
 *   const { replay, result } = playGame({ mode: 'sprint', seed: 'abc' });  // ~100 pieces, valid
 *   const plan = planSprint('abc', DEFAULT_HANDLING);                        // timing-free key taps
 */
import { collides } from '@/lib/engine/board';
import { createCore } from '@/lib/engine/setup';
import type { Core } from '@/lib/engine/core';
import { DEFAULT_HANDLING, keyId, simulateReplay } from '@/lib/engine';
import type { Handling, Key, Mode, PiecePlacement, PieceType, Replay, ReplayEvent, ReplayResult } from '@/lib/engine';
import { PIECES, ROTATIONS, RULES_VERSION } from '@/lib/engine/constants';
import { best, candidates, type Candidate, type SearchOptions, type Shift } from '@/lib/bot/search';
import { Humanizer, type HumanTiming } from '@/tests/support/human';

export interface PlayOptions {
  mode: Mode;
  seed: string;
  handling?: Handling;
  nextCount?: number;
  /** Pieces to play before the seed's own (a live game's dealt pieces, when the seed is not known yet). */
  queue?: readonly PieceType[];
  /** Dig: the hole columns of its rows, top row first, instead of the seed's (a live game's, dealt so far). */
  holes?: readonly number[];
  /** Stop pressing keys after this many pieces (the game then runs on under gravity). */
  maxPieces?: number;
  /** Target ticks per piece; idle "thinking" ticks fill the gap. 0 = as fast as the keys allow. */
  pace?: number;
  /** Tap soft drop for a few ticks before each hard drop (exercises SDF). */
  softDrop?: boolean;
  /** Tap rowDown twice before each hard drop (rules 3 on only: the replay then needs them). */
  rowDown?: boolean;
  /** The rules to play under (its pieces come from that version's generator); RULES_VERSION when absent. */
  rulesVersion?: number;
  /** Consider holding (default true). */
  hold?: boolean;
  /** Look for T-spins (soft drop, then rotate into the slot); the plan then needs timing. */
  spins?: boolean;
  /** With spins: also value building T-spin double slots. */
  slots?: boolean;
  /** Keep the right column as a well for multi-line clears (versus: attacks come sooner). */
  well?: boolean;
  /** With spins and slots: clear lines only with T-spin doubles (the 20 TSD mode). */
  tsdOnly?: boolean;
  /**
   * Type with seeded, jittered human timing (tests/support/human.ts) instead of the default
   * 1-tick taps back to back, which the server flags as robotic. Same seed, same replay.
   */
  human?: HumanTiming;
}

export interface PiecePlan {
  piece: (typeof PIECES)[number];
  hold: boolean;
  rotate: 'rotateCW' | 'rotateCCW' | 'rotate180' | null;
  /** Taps in one direction, or hold that direction until the piece reaches the wall. */
  shift: { dir: 'left' | 'right'; taps: number } | { dir: 'left' | 'right'; toWall: true } | null;
  hardDrop: true;
  /** Where the piece rests just before the hard drop locks it (engine coordinates). */
  expect: PiecePlacement;
}

export interface PlayResult {
  replay: Replay;
  result: ReplayResult;
  plan: PiecePlan[];
}

const TURN_KEYS = [null, 'rotateCW', 'rotate180', 'rotateCCW'] as const;

class Driver {
  readonly events: ReplayEvent[] = [];
  constructor(
    readonly core: Core,
    private readonly human: Humanizer | null = null,
  ) {}

  /** One tick with up to two key edges applied at its start. */
  tick(...edges: Array<[Key, boolean]>): void {
    if (this.core.ended) return;
    for (const [key, down] of edges) {
      this.events.push({ tick: this.core.tickNo, key, down });
      this.core.input(keyId(key), down);
    }
    this.core.step();
  }

  tap(key: Key): void {
    this.tick([key, true]);
    if (this.human) {
      let hold = this.human.draw(this.human.timing.hold);
      if (key === 'left' || key === 'right') hold = Math.min(hold, Math.max(1, this.core.das - 1));
      this.idle(hold - 1);
    }
    this.tick([key, false]);
    this.rest();
  }

  /** After a release: nothing for a robot, a jittered gap for a human. */
  rest(): void {
    if (this.human) this.idle(this.human.draw(this.human.timing.gap));
  }

  /** A human's pause before a piece. */
  think(): void {
    if (this.human) this.idle(this.human.draw(this.human.timing.think));
  }

  idle(ticks: number): void {
    for (let i = 0; i < ticks && !this.core.ended; i++) this.tick();
  }
}

function choose(core: Core, allowHold: boolean, opts: SearchOptions): { cand: Candidate; hold: boolean } | null {
  const here = best(candidates(core.board, core.piece, core.rot, core.x, core.y, opts));
  let pick = here ? { cand: here, hold: false } : null;
  if (allowHold && !core.holdUsed) {
    const other = core.hold >= 0 ? core.hold : core.queue.peek(0);
    if (other !== core.piece) {
      // A held piece spawns fresh: rows 21–22, then down one if free.
      const y = collides(core.board, other * 4, 4, 19) ? 20 : 19;
      const alt = best(candidates(core.board, other, 0, 4, y, opts));
      // Holding costs a key; only worth it for a clearly better spot.
      if (alt && (!pick || alt.score > pick.cand.score + 1)) pick = { cand: alt, hold: true };
    }
  }
  return pick;
}

function shiftPlan(s: Shift): PiecePlan['shift'] {
  if (!s) return null;
  const dir = s.dir < 0 ? 'left' : 'right';
  return 'taps' in s ? { dir, taps: s.taps } : { dir, toWall: true };
}

export function playGame(opts: PlayOptions): PlayResult {
  const handling = opts.handling ?? DEFAULT_HANDLING;
  const rulesVersion = opts.rulesVersion ?? RULES_VERSION;
  const { core } = createCore({ mode: opts.mode, seed: opts.seed, handling, nextCount: opts.nextCount, rulesVersion, ...(opts.queue ? { queue: opts.queue } : {}) }, false, undefined, opts.holes);
  const d = new Driver(core, opts.human ? new Humanizer(opts.human, opts.seed) : null);
  const plan: PiecePlan[] = [];
  const maxPieces = opts.maxPieces ?? Infinity;
  const pace = opts.pace ?? 0;
  while (!core.ended && plan.length < maxPieces) {
    const start = core.tickNo;
    // Think first: at a slow pace the piece may fall a row or two, the search starts from where it is.
    const think = Math.max(0, pace - 12);
    for (let i = 0; i < think && !core.ended; i++) d.tick();
    d.think();
    if (core.ended) break;
    const pick = choose(core, opts.hold !== false, { spins: opts.spins === true, slots: opts.slots === true, well: opts.well === true, tsdOnly: opts.tsdOnly === true });
    if (!pick) break;
    const { cand, hold } = pick;
    const piece = hold ? (core.hold >= 0 ? core.hold : core.queue.peek(0)) : core.piece;
    if (hold) d.tap('hold');
    const turnKey = TURN_KEYS[cand.turn];
    if (turnKey) d.tap(turnKey);
    const s = cand.shift;
    if (s) {
      const key: Key = s.dir < 0 ? 'left' : 'right';
      if ('taps' in s) for (let i = 0; i < s.taps; i++) d.tap(key);
      else {
        d.tick([key, true]);
        for (let guard = 0; core.x !== cand.x && guard < 200 && !core.ended; guard++) d.tick();
        d.tick([key, false]);
        d.rest();
      }
    }
    if (cand.spinTurn !== 0) {
      d.tick(['softDrop', true]);
      for (let guard = 0; core.y > cand.softY && guard < 400 && !core.ended; guard++) d.tick();
      d.tick(['softDrop', false]);
      d.rest();
      d.tap(TURN_KEYS[cand.spinTurn]!);
    } else if (opts.softDrop) {
      d.tick(['softDrop', true]);
      d.tick();
      d.tick(['softDrop', false]);
      d.rest();
    }
    if (opts.rowDown) for (let i = 0; i < 2; i++) d.tap('rowDown');
    plan.push({
      piece: PIECES[piece]!,
      hold,
      rotate: turnKey,
      shift: shiftPlan(s),
      hardDrop: true,
      expect: { type: PIECES[piece]!, rotation: ROTATIONS[core.rot]!, x: core.x, y: core.y },
    });
    d.tap('hardDrop');
    for (let t = core.tickNo - start; t < pace && !core.ended; t++) d.tick();
  }
  const replay: Replay = {
    rulesVersion,
    mode: opts.mode,
    seed: opts.seed,
    handling: { ...handling },
    ...(opts.nextCount === undefined ? {} : { nextCount: opts.nextCount }),
    events: d.events,
  };
  return { replay, result: simulateReplay(replay), plan };
}

/** A Sprint as per-piece key taps that still works when typed at imprecise times (no soft drop, no timing). */
export function planSprint(seed: string, handling: Handling = DEFAULT_HANDLING): PiecePlan[] {
  return playGame({ mode: 'sprint', seed, handling }).plan;
}
