import { UNITS_H, UNITS_W } from '@/components/game/draw';
import { MARGIN, MAX_AT_DESK, MIN_AT_DESK, SHARE_AT_DESK } from '@/components/game/fit';
import { SIDE } from '@/components/touch/layout';
import { isPlayView, onPlayViewChange } from '@/lib/client/play-view';

export type VersusLayout = 'desk' | 'upright' | 'side';
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
  const landscape = window.matchMedia('(orientation: landscape)');
  let last: VersusLayout | null = null;
  const set = (el: HTMLElement, b: Box) => {
    const [w, h] = [`${b.width}px`, `${b.height}px`];
    if (el.style.width !== w) el.style.width = w;
    if (el.style.height !== h) el.style.height = h;
    el.style.minHeight = '0';
  };
  const fit = () => {
    const layout: VersusLayout = root.dataset.touch !== 'on' ? 'desk' : landscape.matches ? 'side' : 'upright';
    const rowRect = row.getBoundingClientRect();
    const rootRect = root.getBoundingClientRect();
    const screen = window.innerHeight;
    let space: Box;
    switch (layout) {
      case 'desk': {
        const top = rowRect.top + window.scrollY;
        const below = rootRect.bottom - rowRect.bottom;
        // As the play page's fit: with the header given way (a game running) the row may take the screen.
        const share = isPlayView() ? 1 : SHARE_AT_DESK;
        space = { width: row.clientWidth, height: Math.max(MIN_AT_DESK, Math.min(screen - top - below - MARGIN, share * screen, MAX_AT_DESK)) };
        break;
      }
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
  // What is around the fields changes as the match goes (the away notice, the pad arriving).
  const observer = new ResizeObserver(fit);
  observer.observe(root);
  window.addEventListener('resize', fit);
  landscape.addEventListener('change', fit);
  // The header giving way (or coming back) moves the row without resizing the page's root.
  const unwatch = onPlayViewChange(fit);
  fit();
  return () => {
    unwatch();
    observer.disconnect();
    window.removeEventListener('resize', fit);
    landscape.removeEventListener('change', fit);
    root.style.removeProperty('touch-action');
    for (const el of [own, opponent]) for (const p of ['width', 'height', 'min-height']) el.style.removeProperty(p);
  };
}
