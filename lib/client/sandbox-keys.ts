import type { Key } from '@/lib/engine';
import type { Action } from '@/lib/validations/settings';
import { decideKey } from '@/lib/client/keymap';

export type SandboxKey = { preventDefault: boolean } & (
  | { kind: 'ignore' | 'undo' | 'reset' | 'pause' }
  | { kind: 'engine'; key: Key }
  | { kind: 'page'; step: -1 | 1 }
);

/**
 * Backspace undoes unless the player bound it to a game key. (Not Ctrl+Z: Ctrl and Z are both
 * rotation keys in the guideline preset.)
 */
export const UNDO_CODE = 'Backspace';

/**
 * Keys that step a fumen's pages (unless bound to a game key): Page Up/Down, and [ ] for keyboards
 * without them.
 */
export const PAGE_CODES: ReadonlyMap<string, -1 | 1> = new Map([
  ['PageUp', -1],
  ['PageDown', 1],
  ['BracketLeft', -1],
  ['BracketRight', 1],
]);

/**
 * What one keyboard event means in the practice sandbox: the player's own bindings for the game
 * keys, their restart key resets to the start, their pause key pauses; with a fumen (`paging`),
 * the page keys step its pages, once per press (each step opens a new sandbox).
 */
export function decideSandboxKey(
  e: { code: string; repeat: boolean; metaKey: boolean },
  down: boolean,
  keymap: ReadonlyMap<string, Action>,
  paused: boolean,
  paging = false,
): SandboxKey {
  if (down && e.code === UNDO_CODE && !keymap.has(e.code)) {
    return { kind: e.repeat ? 'ignore' : 'undo', preventDefault: true };
  }
  const step = PAGE_CODES.get(e.code);
  if (paging && step && !keymap.has(e.code)) {
    return down && !e.repeat && !e.metaKey ? { kind: 'page', step, preventDefault: true } : { kind: 'ignore', preventDefault: true };
  }
  const d = decideKey(e, down, keymap, paused ? 'paused' : 'playing');
  switch (d.kind) {
    case 'engine':
      return { kind: 'engine', key: d.key, preventDefault: d.preventDefault };
    case 'restart':
      return { kind: 'reset', preventDefault: d.preventDefault };
    case 'pause':
    case 'resume':
      return { kind: 'pause', preventDefault: d.preventDefault };
    case 'ignore':
    case 'preload':
      return { kind: 'ignore', preventDefault: d.preventDefault };
    default: {
      const unhandled: never = d;
      return unhandled;
    }
  }
}
