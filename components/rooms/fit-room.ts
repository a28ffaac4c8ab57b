import { UNITS_H, UNITS_W } from '@/components/game/draw';
import { deskHeight, layoutOf, MARGIN, refitting, type Layout } from '@/components/game/fit';
import { sideWidth, type Box } from '@/components/versus/fit-versus';

/** Between fields, and the name and aim lines under each small field (px). */
const GAP = 6;
const LABELS = 30;
/** Upright on a phone, the small fields take at most this share of the height; the own field the rest. */
const GRID_SHARE_UPRIGHT = 0.4;
/** Beside the own field (desk, side), the small fields take at most this share of the width. */
const GRID_SHARE_BESIDE = 0.55;

const aspect = UNITS_W / UNITS_H;

/**
 * The small fields' grid: the fewest columns (at least `least`) whose rows fit `height` in `width`,
 * a cell never taller than the height; and the grid's width (its cells no wider than that).
 */
function gridFor(others: number, width: number, height: number, least: number): { cols: number; height: number; width: number } {
  let best = { cols: others, height: 0, width };
  for (let cols = Math.min(least, others); cols <= others; cols++) {
    const cell = Math.min((width - (cols - 1) * GAP) / cols, Math.max(1, height - LABELS) * aspect);
    const rows = Math.ceil(others / cols);
    best = { cols, height: rows * (cell / aspect + LABELS) + (rows - 1) * GAP, width: Math.floor(cols * cell + (cols - 1) * GAP) };
    if (best.height <= height) return best;
  }
  return best;
}

/**
 * The own field's box and the small fields' columns for the space a room's row has. Upright (a
 * phone with the pad under the game) the small fields go under the own field, in as many columns
 * as keep them to 40% of the height; elsewhere beside it, in as many as keep them within the
 * height. Watching (no own field), the grid has the whole row.
 */
export function roomSizes(layout: Layout, space: Box, others: number, watching: boolean): { own: Box; cols: number; gridWidth: number } {
  const box = (h: number): Box => ({ width: Math.floor(h * aspect), height: Math.max(1, Math.floor(h)) });
  if (watching) {
    const grid = gridFor(others, space.width, space.height, Math.ceil(Math.sqrt(others)));
    return { own: { width: 0, height: 0 }, cols: grid.cols, gridWidth: grid.width };
  }
  if (layout === 'upright') {
    const grid = gridFor(others, space.width, space.height * GRID_SHARE_UPRIGHT, Math.min(others, 4));
    return { own: box(Math.min(space.height - grid.height - GAP, space.width / aspect)), cols: grid.cols, gridWidth: grid.width };
  }
  const own = box(Math.min(space.height, (space.width * (1 - GRID_SHARE_BESIDE) - GAP) / aspect));
  const grid = gridFor(others, space.width - own.width - GAP, space.height, Math.ceil(Math.sqrt(others)));
  return { own, cols: grid.cols, gridWidth: grid.width };
}

/**
 * A room's set as a play view, as fitVersus does for two fields: measures the row's space, sizes
 * the own field's box and sets the grid's columns; with the pad, scrolls once to the game and
 * stops the page panning under the fingers.
 */
export function fitRoom(root: HTMLElement, row: HTMLElement, own: HTMLElement, grid: HTMLElement, others: number, watching: boolean): () => void {
  let last: Layout | null = null;
  const fit = () => {
    const layout = layoutOf(root);
    const rowRect = row.getBoundingClientRect();
    const rootRect = root.getBoundingClientRect();
    const screen = window.innerHeight;
    const space: Box =
      layout === 'desk'
        ? { width: row.clientWidth, height: deskHeight(rowRect.top + window.scrollY, rootRect.bottom - rowRect.bottom, screen) }
        : layout === 'upright'
          ? { width: row.clientWidth, height: screen - (rootRect.height - rowRect.height) - MARGIN }
          : { width: Math.min(row.clientWidth, sideWidth(window.innerWidth)), height: screen - 2 * MARGIN };
    const sizes = roomSizes(layout, space, others, watching);
    row.dataset.beside = String(layout !== 'upright' && !watching);
    own.style.width = `${sizes.own.width}px`;
    own.style.height = `${sizes.own.height}px`;
    grid.style.gridTemplateColumns = `repeat(${sizes.cols}, minmax(0, 1fr))`;
    grid.style.maxWidth = `${sizes.gridWidth}px`;
    root.style.touchAction = layout === 'desk' ? '' : 'none';
    if (layout !== last && layout !== 'desk') window.scrollTo({ top: (layout === 'side' ? row : root).getBoundingClientRect().top + window.scrollY - (layout === 'side' ? MARGIN : 0), behavior: 'instant' });
    last = layout;
  };
  const stop = refitting(root, fit);
  return () => {
    stop();
    root.style.removeProperty('touch-action');
    for (const p of ['width', 'height']) own.style.removeProperty(p);
    for (const p of ['grid-template-columns', 'max-width']) grid.style.removeProperty(p);
  };
}
