'use client';

import { useEffect, useRef } from 'react';
import type { Mode, Snapshot } from '@/lib/engine';
import type { DisplaySettings } from '@/lib/validations/settings';
import { CanvasView } from './canvas-view';
import type { Effects } from './effects';
import { PALETTES } from './palette';

export interface BoardCanvasProps {
  snapshot: Snapshot;
  mode: Mode;
  display: DisplaySettings;
  hidden?: boolean;
  effects?: Effects | null;
  className?: string;
}

/**
 * Draws a snapshot (e.g. each frame of a replay) with the player's display settings. The parent
 * element sets the size; the canvas fits inside it at the picture's aspect ratio.
 */
export function BoardCanvas({ snapshot, mode, display, hidden = false, effects = null, className }: BoardCanvasProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const view = useRef<CanvasView | null>(null);

  useEffect(() => {
    if (!ref.current) return;
    const v = new CanvasView(ref.current);
    view.current = v;
    return () => {
      v.dispose();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    view.current?.draw(snapshot, {
      palette: PALETTES[display.palette],
      mode,
      ghost: display.ghost,
      grid: display.grid,
      rising: display.rising,
      reducedMotion: display.reducedMotion,
      hidden,
      effects,
      now: performance.now(),
    });
  }, [snapshot, mode, display, hidden, effects]);

  return <canvas ref={ref} className={className} aria-label="Game field" role="img" />;
}
