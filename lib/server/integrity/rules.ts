import 'server-only';

/**
 * Integrity across games (docs/decisions/0025-integrity-across-games.md): the human range of one
 * game's features, how many games of a player's recent history are read, and how far they may
 * jump from the player's own earlier games. A flag only queues the player for a moderator.
 */
export const PROFILE = {
  /** Games read per player and mode (newest first): a profile is this many games at most. */
  window: 30,
  /** Games out of the human range, for one reason, among the newest `window`: one wild game is no pattern. */
  minGamesOut: 3,
  /** The newest games compared with the ones before them, and how many each side needs. */
  recent: 10,
  minEarlier: 10,
} as const;

/** Which human range a mode's games are judged against: versus play is slower than a solo race. */
export type ModeKind = 'solo' | 'versus';

export const HUMAN_RANGE = {
  /**
   * Share of taps held for the commonest number of ticks, over at least `minTaps` taps. A
   * person's tap (≈ 40–120 ms) spreads over two or more ticks: jittered human timing sits at
   * 0.2–0.55, a bot's fixed taps at 1. The solo review holds a single game only at 0.95 over
   * 200 taps; across games, 0.8 over 30 taps, three times, is the pattern.
   */
  steadyTapShare: 0.8,
  minTaps: 30,
  /**
   * Share of pieces whose first press came the same number of ticks after the previous lock
   * (reaction to a new piece), over at least `minReactions` pieces. People react with tens of
   * milliseconds of scatter (human-like timing: 0.05–0.55); a bot answers on the same tick each
   * time (0.8–1).
   */
  steadyReactionShare: 0.75,
  minReactions: 20,
  /**
   * Key presses per second over a whole game of at least `minTicks`. The fastest players sustain
   * about 20 over a Sprint (0004: 7 PPS × ~3 keys); 22 over a whole game is beyond them. Short
   * bursts are the solo review's (30 over 10 s) and the hard limit's.
   */
  maxPressesPerSecond: 22,
  minTicks: 600,
  /**
   * Pieces per second over a whole game of at least `minPieces`. Solo: the Sprint record averages
   * about 7. Versus: the best players average 4–5 while digging garbage and reading the other field.
   */
  maxPps: { solo: 7.5, versus: 6 } satisfies Record<ModeKind, number>,
  minPieces: 40,
} as const;

export const JUMP = {
  /**
   * The recent median PPS over the earlier median: people improve by a few percent a month; half
   * as fast again within `PROFILE.recent` games is a new pair of hands (or a program).
   */
  ppsRatio: 1.5,
  /** …and by at least this much, so a beginner going from 0.6 to 1 PPS is not a jump. */
  minPpsGain: 1,
} as const;

/** Reasons one game can leave the human range for (HUMAN_RANGE); then the jump from a player's own history (JUMP). */
export const RANGE_REASONS = ['steady_taps', 'steady_reaction', 'sustained_presses', 'sustained_pps'] as const;
export type RangeReason = (typeof RANGE_REASONS)[number];
export const INTEGRITY_REASONS = [...RANGE_REASONS, 'pps_jump'] as const;
export type IntegrityReason = (typeof INTEGRITY_REASONS)[number];
