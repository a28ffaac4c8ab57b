import 'server-only';
import { KEYS, TICKS_PER_SECOND, type PackedInputs } from '@/lib/engine';

/**
 * Timing features of a verified replay, measured in whole ticks (1/60 s) from its key events and
 * the tick of every piece lock (simulateReplay's lockTicks). Pure; plausibility.ts judges them.
 */
export type TimingFeatures = {
  /** Key presses (down events). */
  presses: number;
  pieces: number;
  /** Longest run of consecutive presses sharing one rhythm: the same press-to-press interval and hold. */
  sameRhythm: { presses: number; pieces: number; interval: number; hold: number; fromTick: number };
  /** Holds of taps (presses released within TAP_MAX_TICKS): how many, and the share of the most common length. */
  taps: { count: number; modalHold: number; modalShare: number };
  /** Fastest window of `pieces` consecutive locks, in pieces per second (null when the game has fewer). */
  peakPps: { window: number; pps: number | null };
  /** Most presses inside any window of `ticks` ticks, per second (null when the game is shorter). */
  peakPressRate: { ticks: number; perSecond: number | null };
  /**
   * Reaction to a new piece: ticks from each lock (but the last) to the next press, 1 being the
   * very next tick. A person sees the piece, then moves: a bot answers on the next tick, every time.
   */
  reaction: { samples: number; medianTicks: number | null; modalShare: number };
};

/** Longer holds are DAS charges or soft drops, held on purpose for as long as the board needs. */
export const TAP_MAX_TICKS = 30;

type Press = { tick: number; hold: number };

/** Each down edge with how long it was held (-1 if never released); repeated downs of a held key are not presses. */
function pressesOf({ ticks, codes }: PackedInputs): Press[] {
  const presses: Press[] = [];
  // The press each key id is held in, if any.
  const open: Array<Press | null> = new Array(KEYS.length).fill(null);
  for (let i = 0; i < ticks.length; i++) {
    const key = codes[i]! >> 1;
    const held = open[key];
    if ((codes[i]! & 1) === 1 && !held) {
      const press = { tick: ticks[i]!, hold: -1 };
      presses.push(press);
      open[key] = press;
    } else if ((codes[i]! & 1) === 0 && held) {
      held.hold = ticks[i]! - held.tick;
      open[key] = null;
    }
  }
  return presses;
}

/** How many of the sorted ticks fall in [from, to]. */
function countBetween(sorted: readonly number[], from: number, to: number): number {
  const lowerBound = (t: number) => {
    let [lo, hi] = [0, sorted.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return lowerBound(to + 1) - lowerBound(from);
}

function sameRhythm(presses: readonly Press[], lockTicks: readonly number[]): TimingFeatures['sameRhythm'] {
  let best = { presses: 0, pieces: 0, interval: 0, hold: 0, fromTick: 0 };
  let start = 0;
  for (let i = 1; i <= presses.length; i++) {
    const p = presses[i];
    const prev = presses[i - 1]!;
    const sameHold = p !== undefined && p.hold >= 0 && p.hold === prev.hold;
    const sameInterval = p !== undefined && (i - start < 2 || p.tick - prev.tick === presses[start + 1]!.tick - presses[start]!.tick);
    if (sameHold && sameInterval) continue;
    // presses[start..i-1] share one hold and one press-to-press interval.
    const length = i - start;
    if (length > best.presses && length >= 2) {
      const first = presses[start]!;
      const interval = presses[start + 1]!.tick - first.tick;
      best = { presses: length, pieces: countBetween(lockTicks, first.tick, prev.tick), interval, hold: prev.hold, fromTick: first.tick };
    }
    // With the same hold, the pair (prev, p) may open the next run with its own interval.
    start = sameHold ? i - 1 : i;
  }
  return best;
}

function taps(presses: readonly Press[]): TimingFeatures['taps'] {
  const counts = new Map<number, number>();
  let count = 0;
  for (const { hold } of presses) {
    if (hold < 0 || hold > TAP_MAX_TICKS) continue;
    counts.set(hold, (counts.get(hold) ?? 0) + 1);
    count++;
  }
  let [modalHold, modal] = [0, 0];
  for (const [hold, n] of counts) if (n > modal) [modalHold, modal] = [hold, n];
  return { count, modalHold, modalShare: count === 0 ? 0 : modal / count };
}

function peakPps(lockTicks: readonly number[], window: number): number | null {
  if (lockTicks.length < window) return null;
  let shortest = Infinity;
  for (let i = 0; i + window - 1 < lockTicks.length; i++) shortest = Math.min(shortest, lockTicks[i + window - 1]! - lockTicks[i]!);
  // window pieces lock over (window - 1) piece intervals; a span of 0 ticks is as fast as it gets.
  return ((window - 1) * TICKS_PER_SECOND) / Math.max(shortest, 1);
}

function peakPressRate(presses: readonly Press[], ticks: number, gameTicks: number): number | null {
  if (gameTicks < ticks) return null;
  let most = 0;
  let from = 0;
  for (let i = 0; i < presses.length; i++) {
    while (presses[from]!.tick <= presses[i]!.tick - ticks) from++;
    most = Math.max(most, i - from + 1);
  }
  return (most * TICKS_PER_SECOND) / ticks;
}

function reaction(presses: readonly Press[], lockTicks: readonly number[]): TimingFeatures['reaction'] {
  const waits: number[] = [];
  let next = 0;
  for (const lock of lockTicks) {
    while (next < presses.length && presses[next]!.tick <= lock) next++;
    if (next === presses.length) break;
    waits.push(presses[next]!.tick - lock);
  }
  waits.sort((a, b) => a - b);
  const counts = new Map<number, number>();
  for (const w of waits) counts.set(w, (counts.get(w) ?? 0) + 1);
  const modal = Math.max(0, ...counts.values());
  return { samples: waits.length, medianTicks: waits.length === 0 ? null : waits[waits.length >> 1]!, modalShare: waits.length === 0 ? 0 : modal / waits.length };
}

export function timingFeatures(options: {
  inputs: PackedInputs;
  lockTicks: readonly number[];
  gameTicks: number;
  ppsWindow: number;
  pressWindowTicks: number;
}): TimingFeatures {
  const presses = pressesOf(options.inputs);
  return {
    presses: presses.length,
    pieces: options.lockTicks.length,
    sameRhythm: sameRhythm(presses, options.lockTicks),
    taps: taps(presses),
    peakPps: { window: options.ppsWindow, pps: peakPps(options.lockTicks, options.ppsWindow) },
    peakPressRate: { ticks: options.pressWindowTicks, perSecond: peakPressRate(presses, options.pressWindowTicks, options.gameTicks) },
    reaction: reaction(presses, options.lockTicks),
  };
}
