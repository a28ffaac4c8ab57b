import 'server-only';
import { decodeReplay, packEvents, simulateReplay, TICKS_PER_SECOND } from '@/lib/engine';
import { MAX_GAME_TICKS } from '@/lib/server/games/policy';
import { TIMING_LIMITS } from '@/lib/server/games/plausibility';
import { timingFeatures, type TimingFeatures } from '@/lib/server/games/timing-features';
import { versusReplaySpan } from '@/lib/versus/replay-span';
import { NO_TALLY, tallyEvents } from '@/lib/versus/stats';

/**
 * One player's timing in one stored game (a solo game, or one seat of one versus game), as the
 * `GameFeatures` table keeps it: small enough to read a player's last games in one query, and the
 * same numbers the solo review measures (timing-features.ts).
 */
export type FeatureRow = {
  pieces: number;
  presses: number;
  ticks: number;
  /** Pieces and presses ("actions") per second over the whole game. */
  pps: number;
  pressesPerSecond: number;
  /** Median ticks from a lock to the next press (null without a piece followed by a press). */
  reactionTicks: number | null;
  /** Share of those reactions at the commonest number of ticks (1: the same reaction every piece). */
  reactionShare: number;
  taps: number;
  /** Share of taps held for the commonest number of ticks (tap spread: 1 means none). */
  tapShare: number;
  /** Longest run of presses in one rhythm. */
  rhythmRun: number;
  /** Fastest 100 consecutive pieces, when the game has them. */
  peakPps: number | null;
};

/**
 * What the field did, from the same simulation (lib/versus/stats.ts): the attack-table lines of
 * its locks, the garbage rows it cleared and the rows it sent after cancelling. Garbage cleared
 * and sent are null in a solo game, which has no opponent to send to or receive from: its VS
 * would only restate its APM, so it is not shown.
 */
export type AttackRow = { attack: number; garbageCleared: number | null; sent: number | null };
/** A stored game's row: its timing, and its attack. */
export type MeasuredRow = FeatureRow & AttackRow;

const round = (x: number, places = 3) => Math.round(x * 10 ** places) / 10 ** places;

export function featureRow(f: TimingFeatures, ticks: number): FeatureRow {
  const seconds = Math.max(ticks, 1) / TICKS_PER_SECOND;
  return {
    pieces: f.pieces,
    presses: f.presses,
    ticks,
    pps: round(f.pieces / seconds),
    pressesPerSecond: round(f.presses / seconds),
    reactionTicks: f.reaction.medianTicks,
    reactionShare: round(f.reaction.modalShare),
    taps: f.taps.count,
    tapShare: round(f.taps.modalShare),
    rhythmRun: f.sameRhythm.presses,
    peakPps: f.peakPps.pps === null ? null : round(f.peakPps.pps),
  };
}

/**
 * The row of a stored replay (encodeReplay text), re-simulated alone: a solo game to its end, a
 * versus seat as far as its game was played (`endTick`, as verification plays it). Null when it
 * cannot be read: a row is evidence, never a reason to fail anything.
 */
export function replayFeatures(encoded: string, endTick: number | null): MeasuredRow | null {
  try {
    const replay = decodeReplay(encoded);
    const lockTicks: number[] = [];
    const maxTicks = endTick === null ? MAX_GAME_TICKS : Math.min(MAX_GAME_TICKS, versusReplaySpan(replay, endTick));
    let tally = NO_TALLY;
    const result = simulateReplay(replay, { maxTicks, lockTicks, onEvents: (events, tick) => {
      // A versus seat's game is what was played before the match's end of it.
      if (endTick === null || tick < endTick) tally = tallyEvents(tally, events);
    } });
    const ticks = endTick === null ? result.ticks : Math.min(result.ticks, endTick);
    const features = timingFeatures({
      inputs: packEvents(replay.events), lockTicks, gameTicks: ticks,
      ppsWindow: TIMING_LIMITS.ppsWindowPieces, pressWindowTicks: TIMING_LIMITS.pressWindowTicks,
    });
    const versus = result.versus;
    return { ...featureRow(features, ticks), attack: tally.attack, garbageCleared: versus ? tally.garbageCleared : null, sent: versus ? versus.sent : null };
  } catch {
    return null;
  }
}
