import { describe, expect, it } from 'vitest';
import { ALL_MODE_NAMES, decodeReplay, encodeReplay, isVersusMode, MODE_NAMES, MODES, RULES_VERSION, VERSUS_MODE_NAMES, VERSUS_RULES_VERSION, modeById } from '@/lib/engine';

/**
 * A mode's id is the mode byte of every stored replay and part of the state hash: the ids of the
 * modes that exist are pinned here. A new mode, solo or versus, adds its own line; none may move.
 * (The ids were once the index in solo-then-versus order: a solo mode appended to its list would
 * have made every stored Battle replay decode as the new mode.)
 */
const STORED_IDS = { marathon: 0, sprint: 1, ultra: 2, battle: 3, race30: 4, tsd20: 5, pc: 6, zen: 7, dig10: 8, dig18: 9, dig100: 10, survival: 11 } as const;

describe('mode ids', () => {
  it('keeps the id of every mode stored replays already name', () => {
    for (const [mode, id] of Object.entries(STORED_IDS)) expect(MODES[mode as keyof typeof STORED_IDS].id, mode).toBe(id);
  });

  it('gives every mode its own id, and finds each mode by it', () => {
    const ids = ALL_MODE_NAMES.map((m) => MODES[m].id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const mode of ALL_MODE_NAMES) expect(modeById(MODES[mode].id)).toBe(mode);
    expect(modeById(Math.max(...ids) + 1)).toBeUndefined();
    expect([...ALL_MODE_NAMES].sort()).toEqual([...MODE_NAMES, ...VERSUS_MODE_NAMES].sort());
  });

  it('every mode decodes as itself in its replay format', () => {
    for (const mode of ALL_MODE_NAMES) {
      const versus = isVersusMode(mode);
      const replay = {
        rulesVersion: versus ? VERSUS_RULES_VERSION : RULES_VERSION,
        mode, seed: `ids-${mode}`, handling: { das: 10, arr: 2, sdf: 20 as const, dasCut: false },
        events: [{ tick: 3, key: 'hardDrop' as const, down: true }],
        ...(versus ? { seat: 1 as const, garbage: [] } : {}),
      };
      expect(decodeReplay(encodeReplay(replay)).mode, mode).toBe(mode);
    }
  });
});
