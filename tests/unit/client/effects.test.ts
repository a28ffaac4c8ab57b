import { describe, expect, it } from 'vitest';
import { calloutFor, Effects } from '@/components/game/effects';
import { layoutFor, UNITS_H, UNITS_W } from '@/components/game/draw';
import { formatPps, formatTime } from '@/lib/ui/format';
import type { GameEvent } from '@/lib/engine';

type Lock = Extract<GameEvent, { type: 'lock' }>;
const lock = (p: Partial<Lock>): Lock => ({
  type: 'lock', piece: 'T', rotation: '0', x: 4, y: 0, cells: [[4, 0]], linesCleared: 0, clearedRows: [], spin: 'none', b2b: false, combo: 0, perfectClear: false, points: 0, attack: 0, sent: 0, ...p,
});

describe('callouts', () => {
  it('names special clears', () => {
    expect(calloutFor(lock({ linesCleared: 1 }))).toBeNull();
    expect(calloutFor(lock({ linesCleared: 4, piece: 'I' }))).toEqual({ text: 'TETRIS', detail: '' });
    expect(calloutFor(lock({ linesCleared: 2, spin: 'full' }))).toEqual({ text: 'T-SPIN DOUBLE', detail: '' });
    expect(calloutFor(lock({ linesCleared: 1, spin: 'mini', b2b: true }))).toEqual({ text: 'T-SPIN MINI SINGLE', detail: 'B2B' });
    expect(calloutFor(lock({ linesCleared: 1, combo: 3 }))).toEqual({ text: '3 COMBO', detail: '' });
    expect(calloutFor(lock({ linesCleared: 4, perfectClear: true, b2b: true, combo: 1 }))).toEqual({ text: 'PERFECT CLEAR · TETRIS', detail: 'B2B · 1 COMBO' });
  });

  it('turns lock events into timed feedback', () => {
    const fx = new Effects();
    fx.push([lock({ linesCleared: 4, clearedRows: [0, 1, 2, 3] })], 100);
    expect(fx.clear).toEqual({ rows: [0, 1, 2, 3], at: 100 });
    expect(fx.callout?.text).toBe('TETRIS');
    expect(fx.locked?.at).toBe(100);
  });
});

describe('HUD and layout', () => {
  it('formats time and pieces per second', () => {
    expect(formatTime(0)).toBe('0:00.00');
    expect(formatTime(3723)).toBe('1:02.05');
    expect(formatPps(100, 3000)).toBe('2.00');
    expect(formatPps(0, 0)).toBe('0.00');
  });

  it('fits whole-pixel cells into any canvas', () => {
    const l = layoutFor(1000, 700);
    expect(Number.isInteger(l.cell)).toBe(true);
    expect(l.cell * UNITS_W).toBeLessThanOrEqual(1000);
    expect(l.cell * UNITS_H).toBeLessThanOrEqual(700);
  });
});
