import type { Key } from '@/lib/engine/types';
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
