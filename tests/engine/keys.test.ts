import { describe, expect, it } from 'vitest';
import { KEYS } from '@/lib/engine/constants';
import * as keys from '@/lib/engine/keys';

// keys.ts is the one home of key ids: its constants and its fast lookup must be KEYS's own order.
describe('key ids', () => {
  it('are each key’s index in KEYS, for the fast lookup and for the engine’s constants', () => {
    KEYS.forEach((key, i) => expect(keys.keyId(key)).toBe(i));
    const named = { K_LEFT: 'left', K_RIGHT: 'right', K_SOFT: 'softDrop', K_HARD: 'hardDrop', K_CW: 'rotateCW', K_CCW: 'rotateCCW', K_180: 'rotate180', K_HOLD: 'hold', K_ROW_DOWN: 'rowDown' } as const;
    const constants = Object.entries(keys).filter(([name]) => name.startsWith('K_'));
    expect(constants.map(([name]) => name).sort()).toEqual(Object.keys(named).sort());
    for (const [name, id] of constants) expect(KEYS[id as number]).toBe(named[name as keyof typeof named]);
  });

  it('are -1 for anything else, however close', () => {
    for (const k of ['', 'lef', 'Left', 'rigth', 'hardDrip', 'rotateCCX', 'rowdown', 'hold ', 0, null, undefined, {}, ['left']]) expect(keys.keyId(k)).toBe(-1);
  });
});
