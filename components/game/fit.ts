import { isPlayView, onPlayViewChange } from '@/lib/client/play-view';

/** Room kept between the game and the screen's edge (the versus fit and the pad's check keep it too). */
export const MARGIN = 8;
/** The smallest field box worth playing on, with the pad under it (globals.css gives the same floor). */
const MIN_WITH_PAD = 208;
/** The smallest field box at a desk (the box's own min-h-80), and the tallest one worth drawing. */
const MIN_AT_DESK = 320;
const MAX_AT_DESK = 880;
/** At a desk, outside a game, the field takes at most this share of the screen's height. */
const SHARE_AT_DESK = 0.78;

/** How a game screen is laid out: at a desk (no pad), or with the touch pad, upright or on its side. */
export type Layout = 'desk' | 'upright' | 'side';

const LANDSCAPE = '(orientation: landscape)';

/** The layout for a game screen's root (root[data-touch=on] while the pad is shown). */
export function layoutOf(root: HTMLElement): Layout {
  return root.dataset.touch !== 'on' ? 'desk' : window.matchMedia(LANDSCAPE).matches ? 'side' : 'upright';
}

/**
 * Runs `fit` now and whenever the room a game screen has may change: the root resizing (badges,
 * bars, the pad arriving), the pad being shown or hidden, the window, the phone turning, and the
 * header giving way or coming back (which moves the game without resizing it, so the observer
 * would not see it). Returns the stop.
 */
export function refitting(root: HTMLElement, fit: () => void): () => void {
  const landscape = window.matchMedia(LANDSCAPE);
  const observer = new ResizeObserver(fit);
  observer.observe(root);
  window.addEventListener('resize', fit);
  landscape.addEventListener('change', fit);
  const unwatch = onPlayViewChange(fit);
  // The pad arriving decides the layout (layoutOf); on a phone on its side it floats over the page
  // and changes no size, so the resize observer alone never saw it and the page stayed unscrolled.
  const touch = new MutationObserver(fit);
  touch.observe(root, { attributeFilter: ['data-touch'] });
  fit();
  return () => {
    observer.disconnect();
    touch.disconnect();
    unwatch();
    window.removeEventListener('resize', fit);
    landscape.removeEventListener('change', fit);
  };
}

/**
 * At a desk, the height a game's box may take: the screen below its top, less what the page puts
 * under it and a margin, within the desk's bounds; with the header given way (a game running, the
 * play view) up to the whole screen, else a share of it. The versus fit sizes its row by it too.
 */
export function deskHeight(top: number, below: number, screen: number): number {
  const share = isPlayView() ? 1 : SHARE_AT_DESK;
  return Math.max(MIN_AT_DESK, Math.min(screen - top - below - MARGIN, share * screen, MAX_AT_DESK));
}

/**
 * The play page as a play view: the field's box takes the height the screen has left, measured, so
 * the whole field and every control are on screen however tall the title, badges and bars around
 * it grow (a fixed guess of their heights put the pad's bottom row and the field's bottom rows
 * below the screen). With the touch pad (root[data-touch=on]), the page also scrolls once to the
 * game, the site's header above it: upright, the box leaves room for everything from the game's
 * top down to the pad; on its side, the pad floats at the sides and the field takes the screen's
 * height. At a desk the page does not move; the box ends above the screen's bottom, at most
 * 78% of it and 880 px, as before; while a game runs (the play view: the header has given way)
 * it takes all the room it has, up to 880 px.
 */
export function fitField(root: HTMLElement, box: HTMLElement): () => void {
  let last: Layout | null = null;
  const fit = () => {
    const layout = layoutOf(root);
    const boxRect = box.getBoundingClientRect();
    const rootRect = root.getBoundingClientRect();
    const screen = window.innerHeight;
    let height: number;
    switch (layout) {
      case 'desk':
        height = deskHeight(boxRect.top + window.scrollY, rootRect.bottom - boxRect.bottom, screen);
        break;
      case 'upright':
        height = Math.max(MIN_WITH_PAD, screen - (rootRect.height - boxRect.height) - MARGIN);
        break;
      case 'side':
        height = Math.max(MIN_WITH_PAD, screen - 2 * MARGIN);
        break;
    }
    const px = `${Math.floor(height)}px`;
    // Measured without the box's own height, so setting it is stable: no loop with the observer.
    if (box.style.height !== px) {
      box.style.height = px;
      box.style.minHeight = '0';
    }
    if (layout !== last && layout !== 'desk') (layout === 'side' ? box : root).scrollIntoView({ block: 'start' });
    last = layout;
  };
  const stop = refitting(root, fit);
  return () => {
    stop();
    box.style.removeProperty('height');
    box.style.removeProperty('min-height');
  };
}
