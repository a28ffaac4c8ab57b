import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createGame, decodeReplay, decodeSoloReplay, encodeReplay, KEYS, ReplayDecodeError, ReplayError, simulateReplay,
  VERSUS_RULES_VERSION, type Game, type GameConfig, type Replay,
} from '@/lib/engine';
import { HANDLING, idle, ofType, tap } from '@/tests/engine/helpers';

// Rules 4: garbage joins the queue when acknowledged and may rise at once (rules 6's delay: garbage-delay.test.ts).
const battle = (config: Partial<GameConfig> = {}): Game => createGame({ mode: 'battle', seed: 'holes', handling: HANDLING, rulesVersion: 4, ...config });
const well = (rows: number) => Array.from({ length: rows }, () => 'XXXXXXXXX.');
const iIntoWell = (g: Game) => [...tap(g, 'rotateCW'), ...tap(g, 'right'), ...tap(g, 'right'), ...tap(g, 'right'), ...tap(g, 'right'), ...tap(g, 'hardDrop')];

/** Garbage rows of the board as text, bottom row last, for an ASCII check of holes. */
const bottom = (g: Game, n: number) => g.snapshot().board.slice(-n);

describe('garbage queue and cancelling', () => {
  it('an attack cancels queued garbage first: 3 queued, a tetris sends 1', () => {
    const g = battle({ board: [...well(4), 'XXXX.XXXXX'], queue: ['I'] });
    g.receiveGarbage(3);
    expect(g.snapshot().garbageQueued).toBe(3);
    const [lock] = ofType(iIntoWell(g), 'lock');
    expect([lock!.attack, lock!.sent, g.snapshot().garbageQueued]).toEqual([4, 1, 0]);
  });

  it('a smaller attack only shrinks the queue, oldest message first; nothing is sent', () => {
    const g = battle({ board: [...well(4), 'XXXX.XXXXX'], queue: ['I'] });
    g.receiveGarbage(2);
    g.receiveGarbage(5);
    const [lock] = ofType(iIntoWell(g), 'lock');
    expect([lock!.sent, g.snapshot().garbageQueued]).toEqual([0, 3]);
  });

  it('a clearing lock raises nothing; the next lock that clears nothing does', () => {
    const g = battle({ board: [...well(1), 'XXXX.XXXXX'], queue: ['I', 'O'] });
    g.receiveGarbage(1);
    const first = iIntoWell(g);
    expect(ofType(first, 'lock')[0]!.linesCleared).toBe(1);
    expect(ofType(first, 'garbageRise')).toEqual([]);
    expect(g.snapshot().garbageQueued).toBe(1); // a single attacks 0: nothing cancelled
    const second = tap(g, 'hardDrop');
    expect(ofType(second, 'garbageRise')).toEqual([{ type: 'garbageRise', rows: 1, queued: 0 }]);
  });
});

describe('garbage rising', () => {
  it('at most 8 rows per lock; each message keeps its own hole; the rest waits', () => {
    const g = battle();
    g.receiveGarbage(5);
    g.receiveGarbage(6);
    const [first, second] = ofType(g.tick(), 'garbageQueued');
    const events = tap(g, 'hardDrop');
    expect(ofType(events, 'garbageRise')).toEqual([{ type: 'garbageRise', rows: 8, queued: 3 }]);
    expect(g.snapshot().garbageQueued).toBe(3);
    const hole = (col: number) => 'XXXXXXXXXX'.slice(0, col) + '.' + 'XXXXXXXXXX'.slice(col + 1);
    // Rows rise from the floor in arrival order: the first message's five rows rose first, so they
    // sit above the three of the second message that rose after them.
    expect(bottom(g, 8)).toEqual([...Array(5).fill(hole(first!.column)), ...Array(3).fill(hole(second!.column))]);
    expect(bottom(g, 9)[0]).not.toMatch(/X/); // the piece that locked rose with the stack, above them
  });

  it('garbage that pushes the stack past the top of the field tops the player out', () => {
    const tower = [...Array.from({ length: 36 }, () => 'X.........')];
    const g = battle({ board: tower, queue: ['O'] });
    g.receiveGarbage(8);
    const events = tap(g, 'hardDrop');
    expect(ofType(events, 'gameOver')).toEqual([{ type: 'gameOver', reason: 'garbageOut' }]);
    expect(g.snapshot().reason).toBe('garbageOut');
    expect(g.over).toBe(true);
  });

  it('solo modes ignore garbage', () => {
    const g = createGame({ mode: 'sprint', seed: 'holes', handling: HANDLING });
    g.receiveGarbage(4);
    expect(g.snapshot().garbageQueued).toBe(0);
    expect(g.replay().garbage).toBeUndefined();
  });

  it('refuses a garbage size outside 1–64', () => {
    expect(() => battle().receiveGarbage(0)).toThrow(/garbage size/);
    expect(() => battle().receiveGarbage(65)).toThrow(/garbage size/);
  });
});

describe('hole columns', () => {
  const columns = (seed: string, sizes: number[]) => {
    const g = battle({ seed });
    return sizes.map((n) => {
      g.receiveGarbage(n);
      return ofType(g.tick(), 'garbageQueued')[0]!.column;
    });
  };

  it('come from the seeded hole generator: same seed, same columns; a new column for every attack', () => {
    const sizes = Array.from({ length: 40 }, (_, i) => 1 + (i % 4));
    const a = columns('match-1', sizes);
    expect(columns('match-1', sizes)).toEqual(a);
    expect(columns('match-2', sizes)).not.toEqual(a);
    for (let i = 1; i < a.length; i++) expect(a[i]).not.toBe(a[i - 1]);
    expect(new Set(a).size).toBeGreaterThan(5);
    expect(a.every((c) => c >= 0 && c <= 9)).toBe(true);
  });

  it('do not depend on message sizes (one draw per message)', () => {
    expect(columns('match-1', [1, 1, 1, 1])).toEqual(columns('match-1', [4, 2, 7, 1]));
  });
});

describe('versus replays', () => {
  function played(): Game {
    const g = battle({ seed: 'replay' });
    for (let t = 0; t < 900 && !g.over; t++) {
      if (t % 41 === 3) g.receiveGarbage(1 + (t % 5));
      g.tick(t % 23 === 0 ? [{ key: 'hardDrop', down: true }] : t % 23 === 1 ? [{ key: 'hardDrop', down: false }] : t % 11 === 0 ? [{ key: 'left', down: t % 22 === 0 }] : []);
    }
    return g;
  }

  it('carry garbage as (tick, size) and re-simulate to the live state on both paths', () => {
    const g = played();
    const replay = g.replay();
    expect(replay.rulesVersion).toBe(4);
    expect(replay.garbage!.length).toBeGreaterThan(3);
    const result = simulateReplay(replay, { maxTicks: g.snapshot().tick });
    expect(result.hash).toBe(g.hash());
    expect(simulateReplay(replay, { maxTicks: g.snapshot().tick, evented: true }).hash).toBe(g.hash());
    expect(result.versus!.received).toBe(replay.garbage!.reduce((n, e) => n + e.size, 0));
    expect(simulateReplay({ ...replay, garbage: [] }, { maxTicks: g.snapshot().tick }).hash).not.toBe(g.hash());
  });

  it('encode in format 2 and decode to the same replay', () => {
    const replay = played().replay();
    const text = encodeReplay(replay);
    expect(decodeReplay(text)).toEqual(replay);
    expect(() => decodeSoloReplay(text)).toThrow(ReplayDecodeError);
  });

  it('refuse mixed rules: a versus mode under rules 1, garbage in a solo replay, a solo mode under rules 2', () => {
    const replay = played().replay();
    expect(() => simulateReplay({ ...replay, rulesVersion: 1 })).toThrow(ReplayError);
    expect(() => encodeReplay({ ...replay, rulesVersion: 1 })).toThrow(ReplayError);
    const solo: Replay = { rulesVersion: 1, mode: 'sprint', seed: 'x', handling: HANDLING, events: [] };
    expect(() => simulateReplay({ ...solo, garbage: [] })).toThrow(/only for versus/);
    expect(() => simulateReplay({ ...solo, rulesVersion: 2 })).toThrow(/does not play/);
    expect(() => simulateReplay({ ...replay, garbage: [{ tick: 5, size: 1 }, { tick: 4, size: 1 }] })).toThrow(/garbage\[1\]/);
  });

  it('random inputs and garbage: live play, the evented path and the fast path agree, and the board stays sound', () => {
    const eventArb = fc.record({ gap: fc.nat({ max: 40 }), key: fc.constantFrom(...KEYS), down: fc.boolean(), garbage: fc.nat({ max: 9 }) });
    fc.assert(
      fc.property(fc.constantFrom('battle' as const, 'race30' as const), fc.constantFrom(4, VERSUS_RULES_VERSION), fc.string({ minLength: 1, maxLength: 8 }), fc.array(eventArb, { maxLength: 120 }), (mode, rulesVersion, seed, steps) => {
        const g = createGame({ mode, seed, handling: HANDLING, rulesVersion });
        for (const s of steps) {
          idle(g, s.gap);
          if (s.garbage > 5) g.receiveGarbage(s.garbage);
          g.tick([{ key: s.key, down: s.down }]);
        }
        idle(g, 30);
        const replay = g.replay();
        const ticks = g.snapshot().tick;
        expect(simulateReplay(replay, { maxTicks: ticks }).hash).toBe(g.hash());
        expect(simulateReplay(replay, { maxTicks: ticks, evented: true }).hash).toBe(g.hash());
        expect(decodeReplay(encodeReplay(replay))).toEqual(replay);
        for (const row of g.snapshot().board) expect(row).toMatch(/^[.IOTSZJLX]{10}$/);
      }),
      { numRuns: 60 },
    );
  });
});
