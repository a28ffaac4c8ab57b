import 'server-only';
import { TICKS_PER_SECOND } from '@/lib/engine';
import { SOLO_MAX_LAG_MS } from '@/lib/live/pace';

/**
 * How closely a ranked live game must follow the wall clock, as data (docs/decisions/0010).
 * The server's clock starts when it sends the first pieces; the browser's starts when they
 * arrive, so an honest game's ticks are always a little behind the server's elapsed time.
 */
export const PACING = {
  /** The game's ticks may lead the server's elapsed time by this much (timer granularity, and an
   *  unpause that reaches the server after the browser's clock restarted). Beyond it: refused. */
  aheadSlackMs: 250,
  /** The game may fall this far behind the wall clock (batching, latency, a slow frame); beyond
   *  it the game continues unranked (too_slow). Recorded pauses and reconnect gaps are added. */
  behindToleranceMs: SOLO_MAX_LAG_MS,
  /** Each batch after which the browser was short of pieces (it waits for the next deal, its clock
   *  stopped) adds tolerance: the round trip the server measured on the player's connection
   *  (round-trip.ts), plus starveFrameMs, never more than starveCreditMaxMs (starveCreditOf). */
  starveCreditMaxMs: 300,
  /** The browser's clock stops at the tick a piece is missing for, which fell due up to a frame
   *  before its batch left, and goes on at the first frame after the deal came, up to a frame
   *  later: on top of the round trip, two frames at 60 Hz at most, and what a phone drawing 30
   *  frames a second loses on average. */
  starveFrameMs: 33,
  /** The round trip is sampled at most this often while a game is played (a ping of a few bytes),
   *  and is the median of the last few samples. */
  roundTripProbeEveryMs: 5_000,
  roundTripSamples: 5,
  // Pauses: a budget per mode, in lib/live/pauses.ts, which the browser reads too.
  /** A dropped connection may come back within this long and carry on (`resume` of the game). */
  resumeWindowMs: 30_000,
  /** Time away is excused from the pace, so a disconnect stops the clock like a pause: a ranked
   *  game may be away this long in all; beyond it, unranked (disconnected). */
  maxAwayMs: 60_000,
  // When a finished stream is stored by the server itself: STREAM_STORE (lib/server/games/streams.ts).
  /** While the database is away at a game's end, recording it is retried (backing off to the
   *  second figure) for this long; the browser's queued POST is then held as stream_incomplete.
   *  Marking a game given up (its host closed before the end) is retried the same way. */
  recordRetryForMs: 15 * 60_000,
  recordRetryMaxMs: 2_000,
  /** The seed is revealed once the end is recorded, or after this long if the database is slow
   *  or away (game-host.ts finish): a POST that beats the record is held as stream_incomplete. */
  revealWaitMs: 3_000,
  /** A game taken up after its host was lost (adopt.ts) must resend its log up to the tick it
   *  declared within this long; only then is the gap excused, once. */
  catchUpWindowMs: 5_000,
  /** A game handed over carries the least lag of its batches that arrived in this long before the
   *  last: batches late on a failing link (when hand-overs happen) are not taken for the game's,
   *  which the next host would keep. A client in slow motion gains at most this window's worth of
   *  its slowness per hand-over (GameHost.carriedLagMs). */
  carriedLagWindowMs: 10_000,
  /** While pieces are dealt, how far the game has been acknowledged is written on its ticket at
   *  most this often (one small UPDATE): a host taking it up after a crash checks the resent log
   *  against it, so only what was played since can be replayed with hindsight. */
  checkpointEveryMs: 2_000,
} as const;

export type PaceClock = {
  /** Game ticks the browser reports. */
  tick: number;
  /** Server wall time since the stream's clock started, pauses included. */
  elapsedMs: number;
  /** Recorded pause and disconnection time, each moment once. */
  excusedMs: number;
};

/** 'ahead': the game ran faster than time passed; 'behind': it trails by more than it may. */
export type Pace = 'ok' | 'ahead' | 'behind';

/** The tolerance one wait for pieces adds, given the connection's measured round trip (null: none measured yet, or no meter). */
export function starveCreditOf(roundTripMs: number | null): number {
  return roundTripMs === null ? PACING.starveCreditMaxMs : Math.min(PACING.starveCreditMaxMs, roundTripMs + PACING.starveFrameMs);
}

/**
 * Where a stream stands against the wall clock: never ahead of it by more than aheadSlackMs, and
 * behind it by at most `behindToleranceMs` once excused time is taken off (a solo game:
 * behindToleranceMs plus what its waits for pieces earned; a match: the mode's lag bound).
 */
export function paceOf(c: PaceClock, behindToleranceMs: number): Pace {
  const gameMs = (c.tick * 1000) / TICKS_PER_SECOND;
  const wallMs = c.elapsedMs - c.excusedMs;
  if (gameMs > c.elapsedMs + PACING.aheadSlackMs) return 'ahead';
  if (wallMs - gameMs > behindToleranceMs) return 'behind';
  return 'ok';
}

/**
 * How late a timer may run before it tells of a stall of this process (a long task, the machine's
 * other load). A stall is ours, not the player's: every connected stream judged from that timer is
 * excused the time it ran late (SeatStream.excuseStall), as time away is, and the credit lasts only
 * while the stream trails that much. Without it a stall past the lag bound put honest players out,
 * since Node runs the timers due before it reads the batches that waited behind the stall, and a
 * browser short of pieces meanwhile stays behind by that wait. A second: shorter delays starve no
 * one (the preview lasts longer), and a steady loop delay under it is no credit to bank. A match's
 * and a room's lag checks are such timers; a solo game, judged as each batch arrives, reads the
 * process's own probe (stalls.ts).
 */
export const STALL_MS = 1_000;
/** How long a timer due at `dueAt` ran late, as of `now`: 0 within STALL_MS. */
export const lateBy = (dueAt: number, now: number): number => (now - dueAt > STALL_MS ? now - dueAt : 0);
