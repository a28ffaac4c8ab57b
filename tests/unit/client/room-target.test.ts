import { describe, expect, it } from 'vitest';
import { canAim, isTargetKey, nextTarget, TARGET_KEY } from '@/lib/client/room-target';
import { buildKeymap } from '@/lib/client/keymap';
import { defaultSettings, presetBindings, PRESETS, type PresetId } from '@/lib/validations/settings';

describe('manual targeting in a room', () => {
  it('cycles through living opponents after the current one, skipping itself, teammates and seats out', () => {
    const teams = [0, 1, 0, 1, 2];
    const out = [false, false, false, true, false];
    expect(nextTarget(1, 0, teams, out)).toBe(4);
    expect(nextTarget(4, 0, teams, out)).toBe(1);
    // Before any aim the seat "aims" at itself: the first opponent after it.
    expect(nextTarget(0, 0, teams, out)).toBe(1);
    expect(nextTarget(0, 0, teams, [false, true, false, true, true])).toBeNull();
  });

  it('refuses itself, a teammate, a seat out and no such seat', () => {
    const teams = [0, 1, 2, 3];
    const out = [false, false, true, false];
    expect(canAim(0, 1, teams, out)).toBe(true);
    expect(canAim(0, 0, teams, out)).toBe(false);
    expect(canAim(0, 2, teams, out)).toBe(false);
    expect(canAim(0, 4, teams, out)).toBe(false);
    expect(canAim(0, 1, [0, 0, 1, 1], out)).toBe(false);
  });

  it('the target key is bound to nothing in every preset, and a binding of it wins', () => {
    for (const id of Object.keys(PRESETS) as PresetId[]) expect(isTargetKey(TARGET_KEY, buildKeymap(presetBindings(id)))).toBe(true);
    const keymap = buildKeymap(defaultSettings().bindings);
    expect(isTargetKey(TARGET_KEY, keymap)).toBe(true);
    expect(isTargetKey('KeyX', keymap)).toBe(false);
    expect(isTargetKey(TARGET_KEY, new Map([[TARGET_KEY, 'hold']]))).toBe(false);
  });
});
