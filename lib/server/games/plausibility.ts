import 'server-only';
import { TICKS_PER_SECOND, type PackedInputs } from '@/lib/engine';
import { timingFeatures, type TimingFeatures } from '@/lib/server/games/timing-features';

/**
 * When a verified game's timing is too regular or too fast for a person, it is stored but held
 * off the boards until someone reviews it. Every limit sits well beyond the best human players,
 * and needs a sample large enough that honest play cannot reach it by chance; the reasoning and
 * the arithmetic are in docs/decisions/0004-timing-plausibility.md.
 */
export const TIMING_LIMITS = {
  /**
   * Consecutive presses with the same interval and the same hold, to the tick. Timing is
   * quantised to 16.7 ms, so a person repeats the previous press's (interval, hold) pair now and
   * then; even granting a very steady player p = 0.5 per press, a run of 40 has probability
   * 0.5^39 ≈ 2e-12 per press, about 2e-8 per 10,000-press game. A robot's run lasts the game.
   */
  sameRhythmPresses: 40,
  /**
   * Share of taps held for exactly the same number of ticks. Human key holds (≈ 40–120 ms)
   * vary by more than a tick (16.7 ms) from press to press, so the commonest length covers well
   * under 70% of taps; 95% means a machine. Judged only over at least `minTaps` taps.
   */
  uniformHoldShare: 0.95,
  minTaps: 200,
  /**
   * Pieces per second over any 100 consecutive pieces. 40-line Sprint world records (≈ 100
   * pieces in 14–15 s) average about 7 PPS; 9 PPS would be an 11-second Sprint. Games of fewer
   * than 100 pieces are never judged (mashing hard drop tops out long before).
   */
  ppsWindowPieces: 100,
  maxPps: 9,
  /**
   * Key presses per second over any 10 seconds. The fastest players sustain about 20 a second
   * over a whole Sprint (7 PPS × ~3 keys per piece); 30 is half as much again. Short bursts
   * are the hard limit's business (lib/input-limits.ts: 40 in one second is refused outright).
   */
  pressWindowTicks: 10 * TICKS_PER_SECOND,
  maxPressesPerSecond: 30,
} as const;

/** Why a game's timing was held. Only these holds may be approved by a reviewer (review.ts). */
export const FLAG_REASONS = ['robotic_rhythm', 'uniform_holds', 'sustained_pps', 'sustained_presses'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];
export type TimingFlag = { reason: FlagReason; message: string };

const ms = (ticks: number) => `${Math.round((ticks * 1000) / TICKS_PER_SECOND)} ms`;

/** The first limit the features break, or null when the timing looks human. */
export function judgeTiming(f: TimingFeatures): TimingFlag | null {
  const r = f.sameRhythm;
  if (r.presses >= TIMING_LIMITS.sameRhythmPresses) {
    return {
      reason: 'robotic_rhythm',
      message: `${r.presses} consecutive key presses (over ${r.pieces} pieces, from tick ${r.fromTick}) were each ${ms(r.interval)} ` +
        `after the last and held ${ms(r.hold)}, to the tick; people vary sooner than ${TIMING_LIMITS.sameRhythmPresses}.`,
    };
  }
  if (f.taps.count >= TIMING_LIMITS.minTaps && f.taps.modalShare >= TIMING_LIMITS.uniformHoldShare) {
    return {
      reason: 'uniform_holds',
      message: `${Math.round(f.taps.modalShare * 100)}% of ${f.taps.count} taps were held exactly ${ms(f.taps.modalHold)}; ` +
        `human holds vary by more than a tick.`,
    };
  }
  if (f.peakPps.pps !== null && f.peakPps.pps > TIMING_LIMITS.maxPps) {
    return {
      reason: 'sustained_pps',
      message: `${f.peakPps.window} consecutive pieces at ${f.peakPps.pps.toFixed(2)} pieces per second; ` +
        `the best players sustain about 7, and more than ${TIMING_LIMITS.maxPps} is held for review.`,
    };
  }
  const rate = f.peakPressRate.perSecond;
  if (rate !== null && rate > TIMING_LIMITS.maxPressesPerSecond) {
    return {
      reason: 'sustained_presses',
      message: `${rate.toFixed(1)} key presses per second over ${f.peakPressRate.ticks / TICKS_PER_SECOND} s; ` +
        `the best players sustain about 20, and more than ${TIMING_LIMITS.maxPressesPerSecond} is held for review.`,
    };
  }
  return null;
}

/** Features and verdict for a replay that verified, from its inputs and the ticks its pieces locked. */
export function assessTiming(replay: { inputs: PackedInputs; lockTicks: readonly number[]; ticks: number }) {
  const features = timingFeatures({
    inputs: replay.inputs,
    lockTicks: replay.lockTicks,
    gameTicks: replay.ticks,
    ppsWindow: TIMING_LIMITS.ppsWindowPieces,
    pressWindowTicks: TIMING_LIMITS.pressWindowTicks,
  });
  return { features, flag: judgeTiming(features) };
}
