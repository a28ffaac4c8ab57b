import type { Key } from '@/lib/engine';
import type { Action } from '@/lib/validations/settings';
import { decideKey } from '@/lib/client/keymap';

export type SandboxKey = { preventDefault: boolean } & (
  | { kind: 'ignore' | 'undo' | 'reset' | 'pause' }
  | { kind: 'engine'; key: Key }
);

/**
 * Backspace undoes unless the player bound it to a game key. (Not Ctrl+Z: Ctrl and Z are both
 * rotation keys in the guideline preset.)
 */
export const UNDO_CODE = 'Backspace';

/**
 * What one keyboard event means in the practice sandbox: the player's own bindings for the game
 * keys, their restart key resets to the start, their pause key pauses.
 */
export function decideSandboxKey(
  e: { code: string; repeat: boolean; metaKey: boolean },
  down: boolean,
  keymap: ReadonlyMap<string, Action>,
  paused: boolean,
): SandboxKey {
  if (down && e.code === UNDO_CODE && !keymap.has(e.code)) {
    return { kind: e.repeat ? 'ignore' : 'undo', preventDefault: true };
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
    default:
      return { kind: 'ignore', preventDefault: d.preventDefault };
  }
}
