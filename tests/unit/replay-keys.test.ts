import { describe, expect, it } from 'vitest';
import { nextSpeed, REPLAY_SHORTCUTS, replayActionFor } from '@/lib/client/replay-keys';
import { secondsParam, ticksFromParam } from '@/lib/ui/links';

const press = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
  replayActionFor({ key, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('replay viewer keys', () => {
  it('maps each listed key to its action, letters in either case', () => {
    expect(press(' ')).toBe('toggle');
    expect(press('K')).toBe('toggle');
    expect(press('ArrowRight')).toBe('pieceForward');
    expect(press(',')).toBe('tickBack');
    expect(press('End')).toBe('end');
    expect(press('x')).toBeNull();
    expect(press('l', { ctrlKey: true })).toBeNull();
  });

  it('gives every action exactly one shortcut entry and no key two actions', () => {
    const keys = REPLAY_SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    const actions = REPLAY_SHORTCUTS.map((s) => s.action);
    expect(new Set(actions).size).toBe(actions.length);
  });

  it('steps speeds within 0.25× and 4×', () => {
    expect(nextSpeed(1, 1)).toBe(2);
    expect(nextSpeed(4, 1)).toBe(4);
    expect(nextSpeed(0.25, -1)).toBe(0.25);
  });

  it('reads ?t= as seconds with decimals and writes it back', () => {
    expect(ticksFromParam('12.5')).toBe(750);
    expect(ticksFromParam('0')).toBe(0);
    for (const bad of ['-1', 'abc', '1e9', '', '1.2.3', '999999']) expect(ticksFromParam(bad)).toBeNull();
    expect(ticksFromParam(undefined)).toBeNull();
    expect(secondsParam(750)).toBe('12.5');
    expect(secondsParam(1)).toBe('0.02');
    expect(ticksFromParam(secondsParam(1234))).toBe(1234);
  });
});
