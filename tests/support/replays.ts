// Real replays for server tests, produced by playing the engine (never hand-written results).
import {
  createGame, DEFAULT_HANDLING, replayConfig, RULES_VERSION, simulateReplay,
  type Game, type GameEvent, type InputEvent, type Mode, type Replay, type ReplayEvent, type ReplayResult,
} from '@/lib/engine';
import { playGame } from '@/tests/support/bot';
import { FAST_HUMAN } from '@/tests/support/human';

export type Played = { replay: Replay; result: ReplayResult };

/**
 * A very short real game: hard-drop every piece where it spawns until the stack tops out
 * (about half a second of play), so HTTP tests need not wait long for the elapsed-time check.
 */
export function hardDropGame(mode: Mode, seed: string): Played {
  const events: ReplayEvent[] = [];
  for (let tick = 0; tick < 600; tick += 2) {
    events.push({ tick, key: 'hardDrop', down: true }, { tick: tick + 1, key: 'hardDrop', down: false });
  }
  const replay: Replay = { rulesVersion: RULES_VERSION, mode, seed, handling: { ...DEFAULT_HANDLING }, events };
  // Keep only the inputs before the game ended: a valid replay has none after it.
  const full = simulateReplay(replay);
  replay.events = events.slice(0, events.length - full.unusedEvents);
  return { replay, result: simulateReplay(replay) };
}

/**
 * A short game with robotic timing: 40 rotations, then hard drops until the stack tops out, every
 * key held one tick and pressed every second tick (about two seconds of play, so HTTP tests need
 * not wait). Verifies, and the server holds it for review (robotic_rhythm).
 */
export function roboticShortGame(mode: Mode, seed: string): Played {
  const events: ReplayEvent[] = [];
  for (let i = 0, tick = 0; i < 40 + 300; i++, tick += 2) {
    const key = i < 40 ? 'rotateCW' : 'hardDrop';
    events.push({ tick, key, down: true }, { tick: tick + 1, key, down: false });
  }
  const replay: Replay = { rulesVersion: RULES_VERSION, mode, seed, handling: { ...DEFAULT_HANDLING }, events };
  replay.events = events.slice(0, events.length - simulateReplay(replay).unusedEvents);
  return { replay, result: simulateReplay(replay) };
}

/**
 * A full game played by the test bot with seeded human timing, so the server puts it on the
 * boards: a 40-line Sprint takes it ~1,300 ticks (~21 s of game time, about 5 pieces a second).
 */
export function botGame(mode: Mode, seed: string): Played {
  const { replay, result } = playGame({ mode, seed, human: FAST_HUMAN });
  return { replay, result };
}

/** The same bot tapping every key for exactly one tick, back to back: a valid game the server holds for review. */
export function roboticGame(mode: Mode, seed: string): Played {
  const { replay, result } = playGame({ mode, seed });
  return { replay, result };
}

export function claimOf(result: ReplayResult) {
  return { score: result.score, lines: result.lines, ticks: result.ticks };
}

/** No input at all: pieces fall under gravity until the stack tops out. Scores 0 on any seed. */
export function idleGame(mode: Mode, seed: string): Played {
  const replay: Replay = { rulesVersion: RULES_VERSION, mode, seed, handling: { ...DEFAULT_HANDLING }, events: [] };
  return { replay, result: simulateReplay(replay) };
}

/**
 * A fresh game fed the replay's inputs tick by tick up to `tick` (or its end): the straight run
 * that seeking must agree with. `onTick` sees each tick's events.
 */
export function straightRun(replay: Replay, tick: number, onTick?: (events: readonly GameEvent[], tick: number) => void): Game {
  const game = createGame(replayConfig(replay));
  let i = 0;
  for (let t = 0; t < tick && !game.over; t++) {
    const inputs: InputEvent[] = [];
    for (; i < replay.events.length && replay.events[i]!.tick === t; i++) inputs.push({ key: replay.events[i]!.key, down: replay.events[i]!.down });
    const events = game.tick(inputs);
    onTick?.(events, t);
  }
  return game;
}
