import { describe, expect, it } from 'vitest';
import {
  createGame, createStreamSim, decodeReplay, encodeReplay, GameConfigError, ReplayError, RULES_VERSION, simulateReplay,
  VERSUS_RULES_VERSION, VersusGame, type Replay,
} from '@/lib/engine';
import { fromBase64Url } from '@/lib/engine/base64url';
import { createCore } from '@/lib/engine/setup';
import { K_ROW_DOWN } from '@/lib/engine/keys';
import { down, game, HANDLING, idle, ofType, tap, up } from '@/tests/engine/helpers';

/** The `rowDown` key (rules 3 and 4, decision 0019): one row down per press. */

const air = { type: 'T', rotation: '0', x: 4, y: 5 } as const;
const floor = { type: 'T', rotation: '0', x: 4, y: 0 } as const;

describe('rowDown moves the piece', () => {
  it('exactly one row per press, however long it is held, scoring a soft-drop row', () => {
    const g = game({ active: air });
    const events = g.tick([down('rowDown')]);
    expect(ofType(events, 'move')).toEqual([{ type: 'move', dx: 0, dy: -1, source: 'tap' }]);
    expect(g.snapshot().active?.y).toBe(4);
    expect(g.snapshot().score).toBe(1);
    idle(g, 30); // held: no auto-repeat, and gravity (60 ticks a row at level 1) has not moved it yet
    expect(g.snapshot().active?.y).toBe(4);
    g.tick([up('rowDown')]);
    tap(g, 'rowDown');
    expect(g.snapshot().active?.y).toBe(3);
    expect(g.snapshot().score).toBe(2);
  });

  it('does nothing on the floor: no move, no points, and the lock delay runs on', () => {
    const g = game({ active: floor });
    idle(g, 20);
    const events = [...g.tick([down('rowDown')]), ...g.tick([up('rowDown')])];
    expect(ofType(events, 'move')).toEqual([]);
    expect(g.snapshot().score).toBe(0);
    // Landed at tick 0 it locks in tick 29, as if the key had not been pressed.
    const locks: number[] = [];
    for (let t = 22; t < 40; t++) if (ofType(g.tick(), 'lock').length > 0) locks.push(t);
    expect(locks).toEqual([29]);
  });

  it('landing by rowDown starts the lock delay like any landing', () => {
    const g = game({ active: { ...floor, y: 1 } });
    const locks: number[] = [];
    for (let t = 0; t < 40; t++) if (ofType(g.tick(t === 0 ? [down('rowDown')] : []), 'lock').length > 0) locks.push(t);
    expect(locks).toEqual([29]);
  });

  it('clears a pending T-spin: the last action is then a move, not a rotation', () => {
    const { core } = createCore({ mode: 'marathon', seed: 'x', handling: HANDLING, active: air }, false);
    core.lastRotated = true;
    core.input(K_ROW_DOWN, true);
    expect(core.lastRotated).toBe(false);
  });
});

describe('rowDown and the lock delay (extended placement)', () => {
  const core = () => createCore({ mode: 'marathon', seed: 'x', handling: HANDLING, active: air }, false).core;

  it('a new lowest row gives every reset back', () => {
    const c = core();
    [c.resets, c.lockTimer] = [9, 12];
    c.input(K_ROW_DOWN, true);
    expect([c.y, c.lowestY, c.resets, c.lockTimer]).toEqual([4, 4, 0, 0]);
  });

  it('above the lowest row reached (after an upward kick) it is a move: one reset used, timer restarted', () => {
    const c = core();
    [c.lowestY, c.resets, c.lockTimer] = [2, 3, 12];
    c.input(K_ROW_DOWN, true);
    expect([c.y, c.lowestY, c.resets, c.lockTimer]).toEqual([4, 2, 4, 0]);
  });

  it('with the 15 resets used it still moves, but restarts nothing', () => {
    const c = core();
    [c.lowestY, c.resets, c.lockTimer] = [2, 15, 12];
    c.input(K_ROW_DOWN, true);
    expect([c.y, c.resets, c.lockTimer]).toEqual([4, 15, 12]);
  });
});

describe('rowDown is played from rules 3 and 4 on', () => {
  const events = [{ tick: 0, key: 'rowDown', down: true }, { tick: 1, key: 'rowDown', down: false }] as const;
  const solo = (rulesVersion: number): Replay => ({ rulesVersion, mode: 'sprint', seed: 'rd', handling: { ...HANDLING }, events: events.map((e) => ({ ...e })) });

  it('new games play the new versions', () => {
    expect([RULES_VERSION, VERSUS_RULES_VERSION]).toEqual([5, 6]);
    expect(createGame({ mode: 'sprint', seed: 'a', handling: HANDLING }).replay().rulesVersion).toBe(5);
  });

  it('a rules-1 replay holding the key is refused with a clear error, everywhere', () => {
    expect(() => simulateReplay(solo(1))).toThrow(ReplayError);
    expect(() => simulateReplay(solo(1))).toThrow("events[0]: key 'rowDown' is not played under rules version 1");
    expect(() => encodeReplay(solo(1))).toThrow(/not played under rules version 1/);
    const old = createGame({ mode: 'sprint', seed: 'a', handling: HANDLING, rulesVersion: 1 });
    expect(() => old.tick([down('rowDown')])).toThrow(GameConfigError);
    const stream = createStreamSim({ mode: 'sprint', seed: 'a', handling: HANDLING, rulesVersion: 1 });
    expect(() => stream.feed([{ tick: 0, key: 'rowDown', down: true }], 5)).toThrow(/not played under rules version 1/);
    expect(stream.tick).toBe(0);
  });

  it('a versus-rules-2 replay holding the key is refused; versus rules 4 plays it', () => {
    const v2 = new VersusGame({ mode: 'battle', seed: 'v', handling: [HANDLING, HANDLING], rulesVersion: 2 });
    expect(() => v2.tick(0, [down('rowDown')], [])).toThrow(GameConfigError);
    const v4 = new VersusGame({ mode: 'battle', seed: 'v', handling: [HANDLING, HANDLING], rulesVersion: 4 });
    v4.tick(0, [down('rowDown')], []);
    const replay = v4.replay(0);
    expect(replay.rulesVersion).toBe(4);
    const encoded = encodeReplay(replay);
    expect(fromBase64Url(encoded)![2]).toBe(4); // format 4: format 2 with 4-bit key ids
    expect(decodeReplay(encoded)).toEqual(replay);
    expect(() => simulateReplay({ ...replay, rulesVersion: 2 })).toThrow(/not played under rules version 2/);
  });

  it('round-trips in format 3 and re-simulates to the live game', () => {
    const g = createGame({ mode: 'sprint', seed: 'rd', handling: HANDLING, rulesVersion: 3 });
    g.tick([down('rowDown')]);
    g.tick([up('rowDown'), down('left')]);
    g.tick([up('left'), down('rowDown')]);
    g.tick([up('rowDown'), down('hardDrop')]);
    const replay = g.replay();
    const encoded = encodeReplay(replay);
    expect(fromBase64Url(encoded)![2]).toBe(3);
    expect(decodeReplay(encoded)).toEqual(replay);
    const result = simulateReplay(replay, { maxTicks: 4 });
    expect(result.hash).toBe(g.hash());
    expect(result.score).toBe(2 + 2 * 17); // two rows by rowDown, then a hard drop from y = 17
    expect(simulateReplay(replay, { maxTicks: 4, evented: true }).hash).toBe(g.hash());
  });

  it('a frozen rules-3 replay keeps its encoding and its result', () => {
    // Written once by encodeReplay: format 3, rules 3, sprint, two rowDown taps then a hard drop.
    const encoded = 'TEYDAwEKAhQAAnJkBgGjw48M-YA';
    const replay = decodeReplay(encoded);
    expect(replay.events.map((e) => e.key)).toEqual(['rowDown', 'rowDown', 'rowDown', 'rowDown', 'hardDrop', 'hardDrop']);
    expect(encodeReplay(replay)).toBe(encoded);
    const { hash, score, pieces } = simulateReplay(replay, { maxTicks: 10 });
    expect({ hash, score, pieces }).toEqual({ hash: 'a8836ed2656fd26d', score: 2 + 2 * 17, pieces: 1 });
  });

  it('without the key, rules 3 plays exactly as rules 1: the same result and hash', () => {
    const inputs: Replay['events'] = [{ tick: 3, key: 'left', down: true }, { tick: 9, key: 'left', down: false }, { tick: 20, key: 'hardDrop', down: true }];
    const base: Replay = { rulesVersion: 1, mode: 'sprint', seed: 'same', handling: { ...HANDLING }, events: inputs };
    expect(simulateReplay({ ...base, rulesVersion: 3 })).toEqual(simulateReplay(base));
  });
});
