import { UNITS_H, UNITS_W } from '@/components/game/draw';
import { deskHeight, layoutOf, MARGIN, refitting, type Layout } from '@/components/game/fit';
import { SIDE } from '@/components/touch/layout';

export type VersusLayout = Layout;
export type Box = { width: number; height: number };

/** Between the player's field and the column beside it (the opponent's field and the stats). */
export const GAP = 8;
/**
 * The opponent's picture against the player's. At a desk both fit with room to spare, so theirs is
 * large enough to read a stack from; a phone's width is shared by both, and the player's own
 * field, the one played, keeps most of it (on its side, the pad's two bands take 44% of it).
 */
const OPPONENT: Record<VersusLayout, number> = { desk: 0.7, upright: 0.5, side: 0.35 };

/**
 * Both fields' boxes for the space the row has: the player's as tall as the height allows, unless
 * both pictures (each UNITS_W × UNITS_H cells) side by side would be wider than the row.
 */
export function versusSizes(layout: VersusLayout, space: Box): { own: Box; opponent: Box } {
  const r = OPPONENT[layout];
  const aspect = UNITS_W / UNITS_H;
  const height = Math.max(1, Math.floor(Math.min(space.height, (space.width - GAP) / (aspect * (1 + r)))));
  const box = (h: number): Box => ({ width: Math.floor(h * aspect), height: Math.floor(h) });
  return { own: box(height), opponent: box(height * r) };
}

/** The width the fields have on a phone on its side: between the pad's two bands. */
export function sideWidth(screenWidth: number): number {
  return screenWidth * (1 - (2 * SIDE) / 100) - 2 * MARGIN;
}

/**
 * The versus match as a play view: measures the space the page leaves the fields' row and sizes
 * both fields' boxes (their canvases follow their box). With the touch pad (root[data-touch=on])
 * the page also scrolls once to the game and stops panning under the fingers: upright, the row
 * gets the height left between the title and the pad under it; on its side, the screen's height,
 * the row scrolled to the top. At a desk the page does not move. Orientation changes refit.
 */
export function fitVersus(root: HTMLElement, row: HTMLElement, own: HTMLElement, opponent: HTMLElement): () => void {
  let last: VersusLayout | null = null;
  const set = (el: HTMLElement, b: Box) => {
    const [w, h] = [`${b.width}px`, `${b.height}px`];
    if (el.style.width !== w) el.style.width = w;
    if (el.style.height !== h) el.style.height = h;
    el.style.minHeight = '0';
  };
  const fit = () => {
    const layout = layoutOf(root);
    const rowRect = row.getBoundingClientRect();
    const rootRect = root.getBoundingClientRect();
    const screen = window.innerHeight;
    let space: Box;
    switch (layout) {
      case 'desk':
        space = { width: row.clientWidth, height: deskHeight(rowRect.top + window.scrollY, rootRect.bottom - rowRect.bottom, screen) };
        break;
      case 'upright':
        space = { width: row.clientWidth, height: screen - (rootRect.height - rowRect.height) - MARGIN };
        break;
      case 'side':
        space = { width: Math.min(row.clientWidth, sideWidth(window.innerWidth)), height: screen - 2 * MARGIN };
        break;
    }
    const sizes = versusSizes(layout, space);
    set(own, sizes.own);
    set(opponent, sizes.opponent);
    // The fingers play the game, not the page: no panning or zooming from anywhere on it.
    root.style.touchAction = layout === 'desk' ? '' : 'none';
    if (layout !== last && layout !== 'desk') {
      const target = layout === 'side' ? row : root;
      window.scrollTo({ top: target.getBoundingClientRect().top + window.scrollY - (layout === 'side' ? MARGIN : 0), behavior: 'instant' });
    }
    last = layout;
  };
  const stop = refitting(root, fit);
  return () => {
    stop();
    root.style.removeProperty('touch-action');
    for (const el of [own, opponent]) for (const p of ['width', 'height', 'min-height']) el.style.removeProperty(p);
  };
}
