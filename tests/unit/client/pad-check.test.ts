import { describe, expect, it } from 'vitest';
import { padProblems } from '@/components/touch/pad-check';
import { defaultSettings } from '@/lib/validations/settings';
import { TOUCH_PRESETS, presetButtons, type TouchPresetId } from '@/lib/validations/touch-sound';

const PIXEL_7 = { width: 412, height: 915 };
const SMALL = { width: 360, height: 740 };
const TABLET = { width: 768, height: 1024 };
const touch = (id: TouchPresetId = 'classic') => ({ ...defaultSettings().touch, buttons: presetButtons(id) });

describe('the layout editor’s check of a layout on the phone in hand', () => {
  it('finds nothing wrong with the starting layouts on a Pixel 7, and the classic pad on a small phone', () => {
    for (const id of Object.keys(TOUCH_PRESETS) as TouchPresetId[]) expect(padProblems(touch(id), PIXEL_7), id).toEqual([]);
    expect(padProblems(touch('classic'), SMALL)).toEqual([]);
  });

  it('warns that the split layout’s neighbours touch on a small phone on its side, squeezed to the screen’s edges', () => {
    expect(padProblems(touch('split'), SMALL)).toEqual([
      { kind: 'overlap', action: 'left', other: 'right', orientation: 'side' },
      { kind: 'overlap', action: 'rotateCCW', other: 'rotateCW', orientation: 'side' },
    ]);
  });

  it('a button dragged past the edge is no problem alone (the pad moves it in), but is when that puts it on another', () => {
    const t = touch();
    t.buttons.pause = { x: 100, y: 0, size: 48 };
    expect(padProblems(t, PIXEL_7)).toEqual([]);
    t.buttons.rotate180 = { x: 99, y: 2, size: 48 };
    expect(padProblems(t, PIXEL_7)).toContainEqual({ kind: 'overlap', action: 'rotate180', other: 'pause', orientation: 'upright' });
  });

  it('two buttons on top of each other; on a tablet on its side, a large button near the middle over the field', () => {
    const t = touch();
    t.buttons.hold = { ...t.buttons.hardDrop };
    expect(padProblems(t, PIXEL_7)).toContainEqual({ kind: 'overlap', action: 'hardDrop', other: 'hold', orientation: 'upright' });
    t.buttons.rowDown = { x: 49, y: 85, size: 96 };
    expect(padProblems(t, TABLET)).toContainEqual({ kind: 'field', action: 'rowDown' });
    expect(padProblems(t, PIXEL_7)).not.toContainEqual({ kind: 'field', action: 'rowDown' });
  });

  it('left-handed mirrors the check with the pad', () => {
    const t = touch();
    t.buttons.hold = { x: 44, y: 50, size: 96 };
    expect(padProblems(t, TABLET)).toContainEqual({ kind: 'field', action: 'hold' });
    expect(padProblems({ ...t, mirror: true }, TABLET)).toEqual(padProblems(t, TABLET));
  });
});
