/** Why a rating shows a "?" and is off the board: said the same way on the board and the profile. */
export const PROVISIONAL_TEXT = 'Provisional (the “?”): off the rating board until the rating settles, after a few more ranked matches.';
