import 'server-only';
import { Glicko2 } from 'glicko2';

/**
 * Versus ratings: Glicko-2 as the `glicko2` package computes it (none of the maths is ours).
 * Each ranked match is its own rating period with one result, the set's winner scoring 1: players
 * see their rating move after every match, as on the big online servers.
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

/** A rating is provisional (shown with a "?", kept off the rating board) while its deviation is above this. */
export const PROVISIONAL_RD = 110;

export interface Rating {
  rating: number;
  rd: number;
  vol: number;
}

export const NEW_PLAYER_RATING: Readonly<Rating> = Object.freeze({ rating: RATING_SETTINGS.rating, rd: RATING_SETTINGS.rd, vol: RATING_SETTINGS.vol });

export function isProvisional(r: Pick<Rating, 'rd'>): boolean {
  return r.rd > PROVISIONAL_RD;
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

/** The package's expected score of a against b (0–1), for the matchmaking window and the match page. */
export function expectedScore(a: Rating, b: Rating): number {
  const system = new Glicko2(RATING_SETTINGS);
  return system.predict(system.makePlayer(a.rating, a.rd, a.vol), system.makePlayer(b.rating, b.rd, b.vol));
}
