import { afterEach, describe, expect, it, vi } from 'vitest';
import { drawGame, layoutFor } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { PALETTES } from '@/components/game/palette';
import { reduceMotion } from '@/lib/client/motion';
import { createGame, DEFAULT_HANDLING } from '@/lib/engine';

/** A 2D context that only records the fill colours it was given (no DOM in unit tests). */
function recordingContext(): { ctx: CanvasRenderingContext2D; fills: string[] } {
  const fills: string[] = [];
  const ctx = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : () => ({ width: 0 })),
    set: (target, key, value) => {
      if (key === 'fillStyle') fills.push(String(value));
      target[key] = value;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, fills };
}

function frameAfterLineClear(reducedMotion: boolean): string[] {
  const snap = createGame({ mode: 'marathon', seed: 'motion', handling: { ...DEFAULT_HANDLING }, nextCount: 5 }).snapshot();
  const effects = new Effects();
  effects.clear = { rows: [0, 1], at: 1000 };
  effects.locked = { cells: [[4, 0]], at: 1000 };
  const { ctx, fills } = recordingContext();
  const options = { palette: PALETTES.standard, mode: 'marathon' as const, ghost: true, grid: true, rising: false, hidden: false };
  drawGame(ctx, snap, layoutFor(420, 460), { ...options, reducedMotion, effects, now: 1010 });
  return fills.filter((f) => f.startsWith('rgba(255,255,255,') && !f.endsWith(',0.28)'));
}

describe('reduced motion', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('draws no line-clear flash or lock glint', () => {
    expect(frameAfterLineClear(false).length).toBeGreaterThan(0);
    expect(frameAfterLineClear(true)).toEqual([]);
  });

  it('is on when the player asks or the device prefers it', () => {
    expect(reduceMotion(true)).toBe(true);
    vi.stubGlobal('window', { matchMedia: (q: string) => ({ matches: q === '(prefers-reduced-motion: reduce)' }) });
    expect(reduceMotion(false)).toBe(true);
    vi.stubGlobal('window', { matchMedia: () => ({ matches: false }) });
    expect(reduceMotion(false)).toBe(false);
  });
});
