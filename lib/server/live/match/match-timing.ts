import 'server-only';
import { BATCH_INTERVAL_MS } from '@/lib/live/protocol';
import { VERSUS_MAX_LAG_MS } from '@/lib/live/versus';
import { PACING } from '@/lib/server/live/pacing';

/** A live match's clock, as data (docs/decisions/0017-versus-live.md). */
export const MATCH_TIMING = {
  /** The first game's clock starts this long after `vstart` (the countdown). */
  firstCountdownMs: 3_000,
  /** Between two games of a set: the result is shown, then the next countdown. */
  betweenGamesMs: 2_000,
  /** A dropped player may come back within this long (the solo resume window), and no longer than
   *  the time away left below; after it the game is lost. */
  resumeWindowMs: PACING.resumeWindowMs,
  /** Time away a seat is excused in all, per game and per match: a dropped seat's clock stops, so
   *  without a cap three absences of 22 s were 66 s of thinking the opponent never had. */
  awayPerGameMs: 15_000,
  awayPerMatchMs: 30_000,
  /** A connected seat whose stream trails the clock by more than this (time away excused) loses the
   *  game: a silent client would otherwise hold the opponent's win, and every second behind is a
   *  second to think. Per mode (lib/live/versus.ts). */
  maxLagMs: VERSUS_MAX_LAG_MS,
  /** How often the lag is looked at. */
  lagCheckMs: 1_000,
  /**
   * A seat's frame may wait this long for the opponent's next message (its next ack comes within a
   * batch interval) and leave in the same write: the opponent's field is drawn up to this much later,
   * garbage never waits (Connection.send).
   */
  opponentFrameWaitMs: BATCH_INTERVAL_MS,
} as const;

/** The match host's timers: real ones in the server, a fake clock's in tests (tests/support/fake-timers.ts). */
export type Timers = { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};
