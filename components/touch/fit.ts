/** The smallest field box worth playing on (globals.css gives the same floor). */
const MIN_HEIGHT = 208;
/** Room left under the pad, so its bottom row is not against the screen's edge. */
const MARGIN = 8;

/**
 * Upright on a phone, the play page becomes a play view: it scrolls once so the game starts at the
 * top of the screen (the site's header goes above it), and the field's box takes the height that is
 * left once the rest of the game (title, badges, the pad under the field) is on screen. A fixed
 * guess of the page's other heights broke as soon as a badge gained a line: the pad's bottom row
 * ended below the screen, where a finger cannot reach it. On its side the pad floats over the
 * page's sides and globals.css sizes the field.
 */
export function fitField(root: HTMLElement, box: HTMLElement): () => void {
  const landscape = window.matchMedia('(orientation: landscape)');
  const fit = () => {
    if (landscape.matches) {
      box.style.removeProperty('height');
      return;
    }
    const rest = root.getBoundingClientRect().height - box.getBoundingClientRect().height;
    const height = `${Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - rest - MARGIN))}px`;
    // Measured without the box's own height, so setting it is stable: no loop with the observer.
    if (box.style.height !== height) box.style.height = height;
  };
  const toTop = () => {
    fit();
    if (!landscape.matches) root.scrollIntoView({ block: 'start' });
  };
  // What is around the field changes as the game loads (the live badge, the ghost bar, the pad itself).
  const observer = new ResizeObserver(fit);
  observer.observe(root);
  window.addEventListener('resize', fit);
  landscape.addEventListener('change', toTop);
  toTop();
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', fit);
    landscape.removeEventListener('change', toTop);
    box.style.removeProperty('height');
  };
}
