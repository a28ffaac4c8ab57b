/**
 * Seeded "human" timing for the test bot: jittered key holds, gaps between presses and a pause to
 * think before each piece, all drawn from a generator seeded by the game seed (deterministic: the
 * same seed always types the same replay). Real players never repeat their timing tick for tick;
 * the server flags games that do (lib/server/games/plausibility.ts), so tests that expect a game
 * on the boards play with one of these.
 */
import { nextState, outputOf, seedState } from '@/lib/engine/rng';

/** Inclusive tick ranges, each drawn uniformly. */
export interface HumanTiming {
  /** How long a tap is held (a direction is held at most DAS − 1, so it never auto-shifts). */
  hold: readonly [number, number];
  /** From releasing a key to pressing the next. */
  gap: readonly [number, number];
  /** Before the first key of each piece. */
  think: readonly [number, number];
}

/** A fast, skilled player: about 5 pieces a second with the bot's key counts. */
export const FAST_HUMAN: HumanTiming = { hold: [1, 2], gap: [0, 1], think: [0, 1] };
/** An ordinary player: about 1.5 pieces a second. */
export const CASUAL_HUMAN: HumanTiming = { hold: [3, 7], gap: [1, 5], think: [10, 40] };

export class Humanizer {
  private state: number;

  constructor(
    readonly timing: HumanTiming,
    seed: string,
  ) {
    this.state = seedState(`human:${seed}`);
  }

  draw([min, max]: readonly [number, number]): number {
    this.state = nextState(this.state);
    return min + (outputOf(this.state) % (max - min + 1));
  }
}
