/**
 * Types a bot plan (see planSprint) as real key presses at imprecise times, the way a browser
 * test or a person would: every key is pressed, held a while, released, with gaps in between.
 * The plan never needs a key at a particular tick, so any gaps and holds give the same game.
 */
import { RULES_VERSION } from '@/lib/engine/constants';
import type { Handling, Key, Replay, ReplayEvent } from '@/lib/engine';
import type { PiecePlan } from '@/tests/support/bot';

export interface Typing {
  /** Ticks between releasing one key and pressing the next (≥ 0), by key index. */
  gap: (i: number) => number;
  /** Ticks a tap is held (≥ 1), by key index. */
  hold: (i: number) => number;
}

export const STEADY: Typing = { gap: () => 1, hold: () => 1 };

/** Ticks a direction must be held to reach the wall from anywhere: DAS, then up to eight repeats. */
export function wallHoldTicks(h: Handling): number {
  return h.das + 8 * Math.max(h.arr, 1) + 1;
}

/** The key presses of one piece, in order; `wall` marks a press held until the wall. */
export function pieceKeys(p: PiecePlan): Array<{ key: Key; wall: boolean }> {
  const keys: Array<{ key: Key; wall: boolean }> = [];
  if (p.hold) keys.push({ key: 'hold', wall: false });
  if (p.rotate) keys.push({ key: p.rotate, wall: false });
  if (p.shift && 'taps' in p.shift) for (let i = 0; i < p.shift.taps; i++) keys.push({ key: p.shift.dir, wall: false });
  if (p.shift && 'toWall' in p.shift) keys.push({ key: p.shift.dir, wall: true });
  keys.push({ key: 'hardDrop', wall: false });
  return keys;
}

export function typePlan(plan: readonly PiecePlan[], seed: string, handling: Handling, typing: Typing = STEADY): Replay {
  const events: ReplayEvent[] = [];
  let tick = 0;
  let i = 0;
  for (const piece of plan) {
    for (const { key, wall } of pieceKeys(piece)) {
      const hold = Math.max(1, typing.hold(i)) + (wall ? wallHoldTicks(handling) : 0);
      events.push({ tick, key, down: true }, { tick: tick + hold, key, down: false });
      tick += hold + Math.max(0, typing.gap(i));
      i++;
    }
  }
  events.sort((a, b) => a.tick - b.tick);
  return { rulesVersion: RULES_VERSION, mode: 'sprint', seed, handling: { ...handling }, events };
}
