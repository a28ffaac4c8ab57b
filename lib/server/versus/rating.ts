import 'server-only';
import { Glicko2 } from 'glicko2';

/**
 * Versus ratings: Glicko-2 as the `glicko2` package computes it (none of the maths is ours).
 * Each ranked match is its own rating period with one result, the set's winner scoring 1: players
 * see their rating move after every match, as on the big online servers. Each idle day past a
 * week is an empty rating period (RATING_TIME, ratingAt).
 */
export const RATING_SETTINGS = {
  /** Glickman suggests 0.3–1.2; 0.5 is the package's and the paper's example value. */
  tau: 0.5,
  rating: 1500,
  /** A new player's deviation: wide, so the first matches move the rating a lot. */
  rd: 350,
  vol: 0.06,
} as const;

/**
 * A match whose leaver (the seat that forfeited, or whose replay could not be stored) played
 * fewer pieces than this in the whole set, as its verified replays show, is no contest: the
 * winner gains no rating and no weekly win (two accounts cannot farm a win by one leaving in the
 * countdown); the leaver's loss still counts (leaving never insures against losing).
 */
export const NO_CONTEST = { minLeaverPieces: 5 } as const satisfies Record<string, number>;

export function isNoContest(leaverPieces: number | null): boolean {
  return leaverPieces !== null && leaverPieces < NO_CONTEST.minLeaverPieces;
}

/** Whether a ranked match is a rated match for a seat (its count, its idle clock): always, but for a no-contest winner. */
export function countsAsRated(seat: { won: boolean; noContest: boolean }): boolean {
  return !(seat.won && seat.noContest);
}

/** A rating is provisional (shown with a "?", kept off the rating board) while its deviation is above this… */
export const PROVISIONAL_RD = 110;
/** …or while its player has played fewer rated matches than this: the placement matches. */
export const PLACEMENT_MATCHES = 10;

/**
 * Time away, as rating periods: each whole day a player goes without a rated match, past the
 * first `idleGraceDays`, is one rating period in which they did not compete. Glicko-2 grows the
 * deviation of such a player by the paper's own pre-period step and leaves rating and volatility
 * alone, so a player back after months is placed with a wide deviation and moves fast again.
 */
export const RATING_TIME = {
  idleGraceDays: 7,
  dayMs: 86_400_000,
} as const satisfies Record<string, number>;

/** Glicko-2's scale: the paper's φ is the deviation divided by this (the package uses the same). */
export const GLICKO2_SCALE = 173.7178;

export interface Rating {
  rating: number;
  rd: number;
  vol: number;
}

export const NEW_PLAYER_RATING: Readonly<Rating> = Object.freeze({ rating: RATING_SETTINGS.rating, rd: RATING_SETTINGS.rd, vol: RATING_SETTINGS.vol });

/** A rating as players see it: its deviation grown for time away (`ratingAt`) and the rated matches played. */
export type Standing = Pick<Rating, 'rd'> & { matches: number };

export function isProvisional(r: Standing): boolean {
  return r.matches < PLACEMENT_MATCHES || r.rd > PROVISIONAL_RD;
}

/** How far into the placement matches a player is ("placement 3/10"); null once they are all played. */
export type Placement = { played: number; of: number };

export function placementOf(matches: number): Placement | null {
  return matches < PLACEMENT_MATCHES ? { played: Math.max(0, matches), of: PLACEMENT_MATCHES } : null;
}

/** The empty rating periods between the last rated match and `now`: whole days idle past the grace. */
export function idlePeriods(ratedAt: Date, now: Date): number {
  const days = Math.floor((now.getTime() - ratedAt.getTime()) / RATING_TIME.dayMs);
  return Math.max(0, days - RATING_TIME.idleGraceDays);
}

/**
 * A stored rating as it stands at `now`: one pre-period step per idle period, φ* = √(φ² + σ²)
 * (Glickman, "Example of the Glicko-2 system", step 6), never past a new player's deviation.
 * σ does not change in a period without games, so n steps are φ² + nσ² at once. Every read that
 * shows or compares a rating and every match's starting point go through here, so they agree;
 * the board's filter repeats this sum in SQL (rating-sql.ts), operation for operation.
 */
export function ratingAt(stored: Rating, ratedAt: Date, now: Date): Rating {
  const n = idlePeriods(ratedAt, now);
  if (n === 0 || stored.rd >= RATING_SETTINGS.rd) return stored;
  const phi = stored.rd / GLICKO2_SCALE;
  const rd = Math.sqrt(phi * phi + n * stored.vol * stored.vol) * GLICKO2_SCALE;
  return { ...stored, rd: Math.min(RATING_SETTINGS.rd, rd) };
}

/** Both players' ratings after one match; `draw` for a set with no winner (an abandoned pairing). */
export function rateMatch(winner: Rating, loser: Rating, draw = false): { winner: Rating; loser: Rating } {
  const system = new Glicko2(RATING_SETTINGS);
  const w = system.makePlayer(winner.rating, winner.rd, winner.vol);
  const l = system.makePlayer(loser.rating, loser.rd, loser.vol);
  system.updateRatings([[w, l, draw ? 0.5 : 1]]);
  return {
    winner: { rating: w.getRating(), rd: w.getRd(), vol: w.getVol() },
    loser: { rating: l.getRating(), rd: l.getRd(), vol: l.getVol() },
  };
}

/**
 * A rating as stored: each number rounded to 9 decimals. The drivers return float8 columns
 * through their decimal text, so a full double would come back a hair off; with at most 13
 * significant digits it comes back exactly, and the rating board's keyset cursor stays exact.
 */
export function storedRating(r: Rating): Rating {
  const round = (v: number) => Math.round(v * 1e9) / 1e9;
  return { rating: round(r.rating), rd: round(r.rd), vol: round(r.vol) };
}

/** The package's expected score of a against b (0–1); give it ratings as they stand now (`ratingAt`). */
export function expectedScore(a: Rating, b: Rating): number {
  const system = new Glicko2(RATING_SETTINGS);
  return system.predict(system.makePlayer(a.rating, a.rd, a.vol), system.makePlayer(b.rating, b.rd, b.vol));
}
