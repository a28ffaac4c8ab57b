import { describe, expect, it } from 'vitest';
import { buildKeymap } from '@/lib/client/keymap';
import { decideSandboxKey } from '@/lib/client/sandbox-keys';
import { presetBindings } from '@/lib/validations/settings';

const keymap = buildKeymap(presetBindings('guideline'));
const ev = (code: string, repeat = false) => ({ code, repeat, metaKey: false });

describe('decideSandboxKey', () => {
  it('plays the bound game keys', () => {
    expect(decideSandboxKey(ev('Space'), true, keymap, false)).toEqual({ kind: 'engine', key: 'hardDrop', preventDefault: true });
    expect(decideSandboxKey(ev('Space'), true, keymap, true).kind).toBe('ignore');
  });

  it('undoes on Backspace once per press, resets on the restart key, pauses and resumes on the pause key', () => {
    expect(decideSandboxKey(ev('Backspace'), true, keymap, false).kind).toBe('undo');
    expect(decideSandboxKey(ev('Backspace', true), true, keymap, false).kind).toBe('ignore');
    expect(decideSandboxKey(ev('KeyR'), true, keymap, false).kind).toBe('reset');
    expect(decideSandboxKey(ev('Escape'), true, keymap, false).kind).toBe('pause');
    expect(decideSandboxKey(ev('Escape'), true, keymap, true).kind).toBe('pause');
  });

  it('leaves Backspace to the game when the player bound it', () => {
    const custom = buildKeymap({ ...presetBindings('guideline'), hold: ['Backspace'] });
    expect(decideSandboxKey(ev('Backspace'), true, custom, false)).toMatchObject({ kind: 'engine', key: 'hold' });
  });

  it('steps fumen pages on PageUp/PageDown and [ ], once per press, only when there are pages', () => {
    expect(decideSandboxKey(ev('PageDown'), true, keymap, false, true)).toEqual({ kind: 'page', step: 1, preventDefault: true });
    expect(decideSandboxKey(ev('BracketRight'), true, keymap, true, true)).toMatchObject({ kind: 'page', step: 1 });
    expect(decideSandboxKey(ev('PageUp'), true, keymap, false, true)).toMatchObject({ kind: 'page', step: -1 });
    expect(decideSandboxKey(ev('BracketLeft'), true, keymap, false, true)).toMatchObject({ kind: 'page', step: -1 });
    expect(decideSandboxKey(ev('PageDown', true), true, keymap, false, true).kind).toBe('ignore');
    expect(decideSandboxKey(ev('PageDown'), false, keymap, false, true).kind).toBe('ignore');
    // Without a fumen the page scrolls as usual.
    expect(decideSandboxKey(ev('PageDown'), true, keymap, false, false)).toEqual({ kind: 'ignore', preventDefault: false });
    const custom = buildKeymap({ ...presetBindings('guideline'), hold: ['PageDown'] });
    expect(decideSandboxKey(ev('PageDown'), true, custom, false, true)).toMatchObject({ kind: 'engine', key: 'hold' });
  });
});
