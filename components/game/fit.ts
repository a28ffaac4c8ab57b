import { isPlayView, onPlayViewChange } from '@/lib/client/play-view';

/** Room kept between the game and the screen's edge. The versus fit (fit-versus.ts) shares these. */
export const MARGIN = 8;
/** The smallest field box worth playing on, with the pad under it (globals.css gives the same floor). */
const MIN_WITH_PAD = 208;
/** The smallest field box at a desk (the box's own min-h-80), and the tallest one worth drawing. */
export const MIN_AT_DESK = 320;
export const MAX_AT_DESK = 880;
/** At a desk, outside a game, the field takes at most this share of the screen's height. */
export const SHARE_AT_DESK = 0.78;

type Layout = 'desk' | 'upright' | 'side';

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
  const landscape = window.matchMedia('(orientation: landscape)');
  let last: Layout | null = null;
  const fit = () => {
    const layout: Layout = root.dataset.touch !== 'on' ? 'desk' : landscape.matches ? 'side' : 'upright';
    const boxRect = box.getBoundingClientRect();
    const rootRect = root.getBoundingClientRect();
    const screen = window.innerHeight;
    let height: number;
    switch (layout) {
      case 'desk': {
        const top = boxRect.top + window.scrollY;
        const below = rootRect.bottom - boxRect.bottom;
        const share = isPlayView() ? 1 : SHARE_AT_DESK;
        height = Math.max(MIN_AT_DESK, Math.min(screen - top - below - MARGIN, share * screen, MAX_AT_DESK));
        break;
      }
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
  // What is around the field changes as the game loads (the live badge, the ghost bar, the pad).
  const observer = new ResizeObserver(fit);
  observer.observe(root);
  window.addEventListener('resize', fit);
  landscape.addEventListener('change', fit);
  // The header giving way moves the game up without resizing it: the observer would not see it.
  const unwatch = onPlayViewChange(fit);
  fit();
  return () => {
    observer.disconnect();
    unwatch();
    window.removeEventListener('resize', fit);
    landscape.removeEventListener('change', fit);
    box.style.removeProperty('height');
    box.style.removeProperty('min-height');
  };
}
