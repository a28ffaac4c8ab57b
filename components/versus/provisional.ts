/** Why a rating shows a "?" and is off the board: said the same way on the board and the profile. */
export const PROVISIONAL_TEXT =
  'Provisional (the “?”): off the rating board until the placement matches are played and the rating has settled. Weeks without a ranked match unsettle it again.';
