import type { ButtonPlace } from '@/lib/validations/touch-sound';

/**
 * Where a button goes on screen. Layouts are drawn for a phone held upright, with the pad under
 * the field; in landscape the pad spans the screen and the field sits in the middle, so each half
 * of the layout is squeezed into its side's outer quarter. Left-handed mirrors left and right.
 */
export function placeFor(place: ButtonPlace, mirror: boolean, landscape: boolean): ButtonPlace {
  const x = mirror ? 100 - place.x : place.x;
  if (!landscape) return { ...place, x };
  return { ...place, x: x < 50 ? x / 2 : 50 + x / 2 };
}
