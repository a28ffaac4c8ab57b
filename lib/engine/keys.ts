import { KEYS } from './constants';

/**
 * Key ids: the index of each key in KEYS (constants.ts), also its id in the binary replay and on the
 * wire. This file is their one home: the engine's K_* constants and `keyId`, the name → id lookup
 * that every other part (codec, live protocol, browser, bots) uses. tests/engine/keys.test.ts checks
 * both against KEYS.
 */
export const K_LEFT = 0;
export const K_RIGHT = 1;
export const K_SOFT = 2;
export const K_HARD = 3;
export const K_CW = 4;
export const K_CCW = 5;
export const K_180 = 6;
export const K_HOLD = 7;
export const K_ROW_DOWN = 8;

const KEY_NAMES: readonly string[] = KEYS;

/**
 * A key's id, or -1 for anything that is not a key. KEYS.indexOf for hot loops (a replay's events,
 * every tick's inputs): dispatch on length and one letter, then confirm by comparing the name.
 */
export function keyId(k: unknown): number {
  if (typeof k !== 'string') return -1;
  let id: number;
  switch (k.length) {
    case 4:
      id = k.charCodeAt(0) === 108 ? K_LEFT : K_HOLD;
      break;
    case 5:
      id = K_RIGHT;
      break;
    case 7:
      id = K_ROW_DOWN;
      break;
    case 8: {
      const c = k.charCodeAt(0);
      id = c === 115 ? K_SOFT : c === 104 ? K_HARD : K_CW; // softDrop | hardDrop | rotateCW
      break;
    }
    case 9:
      id = k.charCodeAt(6) === 67 ? K_CCW : K_180; // rotateCCW | rotate180
      break;
    default:
      return -1;
  }
  return KEY_NAMES[id] === k ? id : -1;
}
