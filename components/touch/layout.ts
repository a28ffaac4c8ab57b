import type { ButtonPlace } from '@/lib/validations/touch-sound';

/**
 * The share of the screen's width each side of the field keeps for buttons in landscape. The field
 * takes the screen's height and so ~43 % of a phone's width in the middle: with a quarter each
 * side, a button at the middle of its half reached 3 px into the field on a Pixel 7.
 */
export const SIDE = 22;

/**
 * Where a button goes on screen. Layouts are drawn for a phone held upright, with the pad under
 * the field; in landscape the pad spans the screen and the field sits in the middle, so each half
 * of the layout is squeezed into its side's outer SIDE %. Left-handed mirrors left and right.
 */
export function placeFor(place: ButtonPlace, mirror: boolean, landscape: boolean): ButtonPlace {
  const x = mirror ? 100 - place.x : place.x;
  if (!landscape) return { ...place, x };
  const squeeze = SIDE / 50;
  return { ...place, x: x < 50 ? x * squeeze : 100 - (100 - x) * squeeze };
}
