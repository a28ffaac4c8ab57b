import { describe, expect, it } from 'vitest';
import { placeFor } from '@/components/touch/layout';
import { wantsTouch } from '@/components/touch/attach';
import { defaultSettings } from '@/lib/validations/settings';
import { TOUCH_ACTIONS, TOUCH_LABELS, TOUCH_PRESETS, BUTTON_SIZE_MIN, touchSchema } from '@/lib/validations/touch-sound';

describe('touch layout', () => {
  it('mirrors left to right for the left-handed, and keeps each half on its side in landscape', () => {
    const place = { x: 10, y: 55, size: 60 };
    expect(placeFor(place, false, false)).toEqual(place);
    expect(placeFor(place, true, false)).toEqual({ ...place, x: 90 });
    expect(placeFor(place, false, true).x).toBeCloseTo(4.4);
    expect(placeFor({ ...place, x: 90 }, false, true).x).toBeCloseTo(95.6);
    expect(placeFor(place, true, true).x).toBeCloseTo(95.6);
    // The middle of the layout lands at the inner edge of each side's 22 %, clear of the field.
    expect(placeFor({ ...place, x: 50 }, false, true).x).toBeCloseTo(78);
  });

  it('the three rotations are told apart at a glance: two arrows, and 180 written out', () => {
    const arrows = /[\u2190-\u21ff\u27f0-\u27ff\u2900-\u297f]/u;
    const rotations = (['rotateCCW', 'rotateCW', 'rotate180'] as const).map((a) => TOUCH_LABELS[a].glyph);
    expect(rotations.filter((g) => arrows.test(g))).toHaveLength(2);
    expect(TOUCH_LABELS.rotate180.glyph).toContain('180');
  });

  it('both presets place every action, each button a fingertip or larger', () => {
    for (const preset of Object.values(TOUCH_PRESETS)) {
      for (const action of TOUCH_ACTIONS) expect(preset.buttons[action].size).toBeGreaterThanOrEqual(BUTTON_SIZE_MIN);
    }
  });

  it('no two buttons of a preset overlap on a 360 px wide phone (the pad is 13 rem high)', () => {
    const [w, h] = [360, 13 * 16];
    for (const [id, preset] of Object.entries(TOUCH_PRESETS)) {
      const places = TOUCH_ACTIONS.map((a) => [a, preset.buttons[a]] as const);
      for (const [i, [a, p]] of places.entries()) {
        for (const [b, q] of places.slice(i + 1)) {
          const gap = Math.hypot(((p.x - q.x) * w) / 100, ((p.y - q.y) * h) / 100) - (p.size + q.size) / 2;
          expect(gap, `${id}: ${a} and ${b}`).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });

  it('shows the pad on touch screens, or when asked for, and refuses buttons smaller than a fingertip', () => {
    const s = defaultSettings();
    expect(wantsTouch(s, true)).toBe(true);
    expect(wantsTouch(s, false)).toBe(false);
    expect(wantsTouch({ ...s, touch: { ...s.touch, show: 'on' } }, false)).toBe(true);
    expect(wantsTouch({ ...s, touch: { ...s.touch, show: 'off' } }, true)).toBe(false);
    expect(touchSchema.safeParse({ buttons: { left: { x: 10, y: 10, size: 30 } } }).success).toBe(false);
  });
});
