import { describe, expect, it } from 'vitest';
import { buildKeymap, decideKey, keyLabel } from '@/lib/client/keymap';
import { ACTIONS, bindingConflicts, parseStoredSettings, presetBindings, PRESETS, type PresetId } from '@/lib/validations/settings';

describe('key bindings', () => {
  it('maps physical keys to actions for every preset, without conflicts', () => {
    for (const id of Object.keys(PRESETS) as PresetId[]) {
      const b = presetBindings(id);
      expect(bindingConflicts(b).size, id).toBe(0);
      const map = buildKeymap(b);
      for (const a of ACTIONS) for (const code of b[a]) expect(map.get(code)).toBe(a);
    }
  });

  it('has the presets the issue names', () => {
    const g = presetBindings('guideline');
    expect(g.left).toEqual(['ArrowLeft']);
    expect(g.rotateCCW).toContain('KeyZ');
    expect(g.rotateCW).toContain('KeyX');
    expect(g.rotate180).toEqual(['KeyA']);
    expect(g.hold).toEqual(['KeyC', 'ShiftLeft']);
    expect(g.hardDrop).toEqual(['Space']);
    const w = presetBindings('wasd');
    expect([w.left, w.right, w.rotateCW[0], w.softDrop]).toEqual([['KeyA'], ['KeyD'], 'KeyW', ['KeyS']]);
    expect(w.pause).toContain('KeyP');
    const c = presetBindings('classic');
    expect([c.rotateCW, c.rotateCCW, c.hardDrop, c.softDrop, c.rowDown]).toEqual([['ArrowUp'], ['ArrowDown'], ['Space'], ['KeyS'], ['KeyD']]);
    const n = presetBindings('numpad');
    expect([n.left, n.right, n.softDrop, n.hardDrop, n.hold]).toEqual([['Numpad4'], ['Numpad6'], ['Numpad2'], ['Numpad8'], ['Numpad0']]);
    expect([...n.rotateCW, ...n.rotateCCW].sort()).toEqual(['Numpad1', 'Numpad3', 'Numpad5', 'Numpad9']);
  });

  it('binds one row down to D in Classic only; the other presets leave it free', () => {
    const classic = buildKeymap(presetBindings('classic'));
    expect(classic.get('KeyD')).toBe('rowDown');
    expect(decideKey({ code: 'KeyD', repeat: false, metaKey: false }, true, classic, 'playing')).toEqual({ kind: 'engine', key: 'rowDown', preventDefault: true });
    // OS key repeat is dropped as for every key: one press, one row.
    expect(decideKey({ code: 'KeyD', repeat: true, metaKey: false }, true, classic, 'playing').kind).toBe('ignore');
    // Not a movement that charges: pressed during the countdown it is not preloaded.
    expect(decideKey({ code: 'KeyD', repeat: false, metaKey: false }, true, classic, 'countdown').kind).toBe('ignore');
    for (const id of ['guideline', 'wasd', 'numpad'] as const) expect(presetBindings(id).rowDown, id).toEqual([]);
    // Settings saved before the action existed parse with it unbound, so no saved key changes meaning.
    expect(parseStoredSettings({ bindings: { softDrop: ['KeyD'] } }).bindings.rowDown).toEqual([]);
  });

  it('flags a key bound to two actions; the first action wins', () => {
    const b = presetBindings('guideline');
    b.hold = ['Space'];
    expect([...bindingConflicts(b)]).toEqual([['Space', ['hardDrop', 'hold']]]);
    expect(buildKeymap(b).get('Space')).toBe('hardDrop');
  });

  it('labels keys briefly', () => {
    expect(['KeyZ', 'ArrowLeft', 'Numpad4', 'Digit1', 'ShiftLeft', 'Space'].map(keyLabel)).toEqual(['Z', '←', 'Num 4', '1', 'L Shift', 'Space']);
  });
});

describe('decideKey', () => {
  const map = buildKeymap(presetBindings('guideline'));
  const ev = (code: string, repeat = false, metaKey = false) => ({ code, repeat, metaKey });

  it('feeds bound keys to the engine only while playing, and keeps them from the browser', () => {
    expect(decideKey(ev('ArrowLeft'), true, map, 'playing')).toEqual({ kind: 'engine', key: 'left', preventDefault: true });
    expect(decideKey(ev('ArrowLeft'), false, map, 'playing')).toEqual({ kind: 'engine', key: 'left', preventDefault: true });
    expect(decideKey(ev('Space'), true, map, 'countdown')).toEqual({ kind: 'ignore', preventDefault: true });
    expect(decideKey(ev('Space'), true, map, 'paused')).toEqual({ kind: 'ignore', preventDefault: true });
    expect(decideKey(ev('Space'), true, map, 'ended')).toEqual({ kind: 'ignore', preventDefault: false });
    expect(decideKey(ev('KeyQ'), true, map, 'playing')).toEqual({ kind: 'ignore', preventDefault: false });
  });

  it('lets movement keys be held through the countdown (DAS preload), nothing else', () => {
    expect(decideKey(ev('ArrowLeft'), true, map, 'countdown')).toEqual({ kind: 'preload', key: 'left', preventDefault: true });
    expect(decideKey(ev('ArrowDown'), false, map, 'countdown')).toEqual({ kind: 'preload', key: 'softDrop', preventDefault: true });
    expect(decideKey(ev('KeyX'), true, map, 'countdown').kind).toBe('ignore');
  });

  it('lets movement keys be held while a restart loads: a restart has no countdown to hold them through', () => {
    expect(decideKey(ev('ArrowRight'), true, map, 'loading')).toEqual({ kind: 'preload', key: 'right', preventDefault: false });
    expect(decideKey(ev('Space'), true, map, 'loading').kind).toBe('ignore');
  });

  it('drops OS key repeat but not the release that follows it', () => {
    expect(decideKey(ev('ArrowRight', true), true, map, 'playing').kind).toBe('ignore');
    expect(decideKey(ev('ArrowRight', true), false, map, 'playing').kind).toBe('engine');
  });

  it('a bound modifier (Ctrl rotates) works, Cmd shortcuts stay the browser’s', () => {
    expect(decideKey(ev('ControlLeft'), true, map, 'playing')).toMatchObject({ kind: 'engine', key: 'rotateCCW' });
    expect(decideKey(ev('KeyR', false, true), true, map, 'playing').kind).toBe('ignore');
    // A key let go while Cmd is held is still released in the engine (no stuck key).
    expect(decideKey(ev('ArrowLeft', false, true), false, map, 'playing')).toEqual({ kind: 'engine', key: 'left', preventDefault: true });
  });

  it('pauses with P or Esc, resumes from pause, restarts with R', () => {
    expect(decideKey(ev('KeyP'), true, map, 'playing').kind).toBe('pause');
    expect(decideKey(ev('Escape'), true, map, 'countdown').kind).toBe('pause');
    expect(decideKey(ev('Escape'), true, map, 'paused').kind).toBe('resume');
    expect(decideKey(ev('KeyP'), false, map, 'paused').kind).toBe('ignore');
    expect(decideKey(ev('KeyP'), true, map, 'ended').kind).toBe('ignore');
    expect(decideKey(ev('KeyR'), true, map, 'ended').kind).toBe('restart');
    expect(decideKey(ev('KeyR'), true, map, 'loading').kind).toBe('ignore');
  });
});
