'use client';

import { useSyncExternalStore, type RefObject } from 'react';

/**
 * The live finesse faults of the game on screen. The play controller writes the count on the
 * page's root as `data-faults` when a piece locks (it owns the game; React does not re-render per
 * tick), and this follows that one attribute.
 */
export function FinesseCounter({ root }: { root: RefObject<HTMLElement | null> }) {
  const subscribe = (changed: () => void) => {
    const el = root.current;
    if (!el) return () => {};
    const observer = new MutationObserver(changed);
    observer.observe(el, { attributes: true, attributeFilter: ['data-faults'] });
    return () => observer.disconnect();
  };
  const faults = useSyncExternalStore(subscribe, () => root.current?.dataset.faults ?? null, () => null);
  if (faults === null) return null;
  return (
    <p
      data-testid="finesse-faults"
      title="Finesse faults: presses beyond the fewest that place each piece"
      className="pointer-events-none absolute rounded-md bg-field-panel/80 px-2 py-1 text-xs text-field-muted tabular-nums"
      // Just above the stats column's first row, its text in line with theirs, as the canvas placed
      // them (canvas-view.ts): at the field box's bottom corner it covered a phone's PPS.
      style={{ left: 'calc(var(--stats-left, 1rem) - 0.5rem)', bottom: 'calc(100% - var(--stats-top, 100%) + 0.25rem)' }}
    >
      Faults <span className="font-semibold text-field-fg">{faults}</span>
    </p>
  );
}
