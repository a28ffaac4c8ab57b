import { createGame, decodeSoloReplay, isRankable, MODES, replayConfig, TICKS_PER_SECOND, type Game, type InputEvent, type Mode, type SoloReplay } from '@/lib/engine';

/** Where the ghost is: what the best game had at the same tick. */
export interface GhostProgress {
  tick: number;
  /** Lines toward the mode's goal (the snapshot's `progress`: in Dig the garbage rows dug out). */
  lines: number;
  score: number;
  /** The clears a drill counts (Perfect Clears races them). */
  clears: number;
  over: boolean;
}

/**
 * The player's best game re-simulated alongside a new one: `at(tick)` plays its recorded inputs
 * forward to that tick (a tick or two per frame, so the cost is the engine's, per tick). Only
 * forward: a restarted game gets a new GhostRace.
 */
export class GhostRace {
  private readonly game: Game;
  private readonly replay: SoloReplay;
  private next = 0;
  private ticks = 0;

  constructor(encoded: string) {
    this.replay = decodeSoloReplay(encoded);
    this.game = createGame(replayConfig(this.replay));
  }

  get mode(): Mode {
    return this.replay.mode;
  }

  at(tick: number): GhostProgress {
    const events = this.replay.events;
    while (this.ticks < tick && !this.game.over) {
      let inputs: InputEvent[] | undefined;
      while (this.next < events.length && events[this.next]!.tick === this.ticks) {
        const e = events[this.next++]!;
        (inputs ??= []).push({ key: e.key, down: e.down });
      }
      this.game.tick(inputs);
      this.ticks++;
    }
    const s = this.game.snapshot();
    return { tick: s.tick, lines: s.progress, score: s.score, clears: s.clears, over: s.over };
  }
}

type RaceUnit = 'lines' | 'points' | 'clears';
/** The counter of a game that a race in each unit compares. */
const COUNTER = { lines: 'lines', points: 'score', clears: 'clears' } as const satisfies Record<RaceUnit, keyof GhostProgress>;
const UNIT_WORDS = { lines: ['line', 'lines'], points: ['point', 'points'], clears: ['clear', 'clears'] } as const satisfies Record<RaceUnit, readonly [string, string]>;

/**
 * What a race against the best counts, at the same moment of the clock: lines when the mode ranks
 * by time (the race is to its goal, as Sprint's), points when it ranks by score (as Ultra's),
 * clears when it ranks by them (Perfect Clears).
 */
export function raceUnit(mode: Mode): RaceUnit {
  const rankBy = MODES[mode].rankBy;
  switch (rankBy) {
    case 'time':
      return 'lines';
    case 'score':
      return 'points';
    case 'clears':
      return 'clears';
    default:
      return rankBy satisfies never;
  }
}

type Counters = { lines: number; score: number; clears?: number };

/** The player's or the ghost's count in the mode's race unit. */
export function raceCount(mode: Mode, game: Counters): number {
  return game[COUNTER[raceUnit(mode)]] ?? 0;
}

/** How far ahead (positive) or behind (negative) the player is at the same moment. */
export function standing(mode: Mode, player: Counters, ghost: Counters): number {
  return raceCount(mode, player) - raceCount(mode, ghost);
}

export function standingText(mode: Mode, diff: number): string {
  if (diff === 0) return 'Level with your best';
  const n = Math.abs(diff);
  const amount = `${n.toLocaleString('en-US')} ${UNIT_WORDS[raceUnit(mode)][n === 1 ? 0 : 1]}`;
  return `${diff > 0 ? 'Ahead' : 'Behind'} by ${amount}`;
}

/**
 * The split at the end against the best, in what the mode ranks by: seconds (Sprint) or points
 * (Ultra), said in words (a sign as well read "−0.02 s faster", which a player takes for slower).
 * Null when the game has no result to compare (a Sprint that topped out).
 */
export function finalSplit(
  mode: Mode, result: { tick: number; score: number; clears?: number; finished: boolean }, best: { ticks: number; score: number; clears?: number },
): string | null {
  if (!isRankable(mode, { finished: result.finished })) return null;
  if (MODES[mode].rankBy === 'clears' && (result.clears ?? 0) !== (best.clears ?? 0)) {
    const diff = (result.clears ?? 0) - (best.clears ?? 0);
    const n = Math.abs(diff);
    return `${n} clear${n === 1 ? '' : 's'} ${diff > 0 ? 'more than' : 'fewer than'} your best`;
  }
  // The same count: the time breaks the tie, as on the boards.
  if (MODES[mode].rankBy !== 'score') {
    const diff = result.tick - best.ticks;
    const seconds = (Math.abs(diff) / TICKS_PER_SECOND).toFixed(2);
    // A time the mode wants longer (Survival) is a time survived, not a time taken.
    const [less, more] = MODES[mode].rankBy === 'time' && MODES[mode].better === 'higher' ? ['shorter than', 'longer than'] : ['faster than', 'slower than'];
    return diff === 0 ? 'Equal to your best' : `${seconds} s ${diff < 0 ? less : more} your best`;
  }
  const diff = result.score - best.score;
  return diff === 0 ? 'Equal to your best' : `${Math.abs(diff).toLocaleString('en-US')} points ${diff > 0 ? 'over' : 'under'} your best`;
}
