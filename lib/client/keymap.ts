import type { Key } from '@/lib/engine';
import { ACTIONS, type Action, type Bindings } from '@/lib/validations/settings';

/**
 * KeyboardEvent.code → action. With conflicting bindings the first action in ACTIONS order wins,
 * so a conflict is predictable (and the settings page flags it).
 */
export function buildKeymap(bindings: Bindings): Map<string, Action> {
  const map = new Map<string, Action>();
  for (const action of ACTIONS) for (const code of bindings[action]) if (!map.has(code)) map.set(code, action);
  return map;
}

export function isEngineKey(action: Action): action is Key {
  return action !== 'pause' && action !== 'restart';
}

const NAMED: Record<string, string> = {
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
  Space: 'Space',
  Escape: 'Esc',
  ShiftLeft: 'L Shift',
  ShiftRight: 'R Shift',
  ControlLeft: 'L Ctrl',
  ControlRight: 'R Ctrl',
  AltLeft: 'L Alt',
  AltRight: 'R Alt',
  Enter: 'Enter',
  Backspace: 'Backspace',
  Tab: 'Tab',
};

/** A short label for a KeyboardEvent.code ("KeyZ" → "Z", "Numpad4" → "Num 4"). */
export function keyLabel(code: string): string {
  const named = NAMED[code];
  if (named) return named;
  if (/^Key[A-Z]$/.test(code)) return code.slice(3);
  if (/^Digit\d$/.test(code)) return code.slice(5);
  if (code.startsWith('Numpad')) return `Num ${code.slice(6)}`;
  return code;
}

export type PlayPhase = 'loading' | 'ticketError' | 'countdown' | 'playing' | 'paused' | 'ended';

export type KeyDecision = { preventDefault: boolean } & (
  | { kind: 'ignore' | 'pause' | 'resume' | 'restart' }
  | { kind: 'engine' | 'preload'; key: Key }
);

/** Keys a player may hold through the countdown so the piece moves (DAS charged) from the first tick. */
const PRELOADABLE: ReadonlySet<Key> = new Set<Key>(['left', 'right', 'softDrop']);

/**
 * What one keyboard event means for the game. Bound keys are kept from the browser (no scrolling
 * on Space or arrows) while a game is on screen; OS key repeat is dropped, since the engine's
 * DAS/ARR does the repeating; Cmd shortcuts are left to the browser.
 */
export function decideKey(
  e: { code: string; repeat: boolean; metaKey: boolean },
  down: boolean,
  keymap: ReadonlyMap<string, Action>,
  phase: PlayPhase,
): KeyDecision {
  // Cmd shortcuts go to the browser, but a key-up always counts: otherwise a key released
  // while Cmd is held would stay down in the engine.
  const action = e.metaKey && down ? undefined : keymap.get(e.code);
  if (!action) return { kind: 'ignore', preventDefault: false };
  return decideAction(action, e.repeat, down, phase);
}

/** What pressing or releasing an action means in this phase, whatever pressed it (a key, an on-screen button, a gesture). */
export function decideAction(action: Action, repeat: boolean, down: boolean, phase: PlayPhase): KeyDecision {
  const preventDefault = phase === 'countdown' || phase === 'playing' || phase === 'paused';
  if (repeat && down) return { kind: 'ignore', preventDefault };
  if (action === 'pause') {
    if (!down || (phase !== 'playing' && phase !== 'countdown' && phase !== 'paused')) return { kind: 'ignore', preventDefault };
    return { kind: phase === 'paused' ? 'resume' : 'pause', preventDefault };
  }
  if (action === 'restart') return { kind: down && phase !== 'loading' ? 'restart' : 'ignore', preventDefault };
  if (!isEngineKey(action)) return { kind: 'ignore', preventDefault };
  // Held through a countdown, or through a restart's brief load (it has no countdown), a movement
  // key is down from the game's first tick.
  if ((phase === 'countdown' || phase === 'loading') && PRELOADABLE.has(action)) return { kind: 'preload', key: action, preventDefault };
  if (phase !== 'playing') return { kind: 'ignore', preventDefault };
  return { kind: 'engine', key: action, preventDefault };
}
