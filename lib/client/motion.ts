/**
 * Whether to draw without flashes, glints and fades: the player's "reduce motion" setting, or the
 * device asking for reduced motion (read each time, so changing it applies to the next frame).
 */
export function reduceMotion(setting: boolean): boolean {
  return setting || (typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}
