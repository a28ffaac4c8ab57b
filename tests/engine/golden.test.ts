import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createGame, decodePackedReplay, decodeReplay, encodeReplay, packEvents, simulatePacked, simulateReplay } from '@/lib/engine';
import type { Replay, ReplayResult } from '@/lib/engine';

interface GoldenFixture {
  name: string;
  description: string;
  rulesVersion: number;
  /** A game that never ends (Zen) is pinned at this tick. */
  maxTicks?: number;
  expected: Omit<ReplayResult, 'unusedEvents'>;
  encoded: string;
  replay: Replay;
}

const dir = new URL('../fixtures/replays/', import.meta.url);
const goldens: GoldenFixture[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as GoldenFixture);

/** The rules each golden was played under; every other golden is a rules-1 game. */
const LATER_RULES: Record<string, number> = {
  'rules3-row-down': 3, 'rules5-sprint-3min': 5, 'rules5-marathon-spins': 5,
  'rules5-tsd20': 5, 'rules5-tsd20-wrong-clear': 5, 'rules5-pc': 5, 'rules5-zen': 5,
  'rules5-dig10': 5, 'rules5-dig18': 5, 'rules5-dig100': 5, 'rules5-survival': 5, 'rules5-pc-clear': 5,
};
const rulesOf = (name: string) => LATER_RULES[name] ?? 1;
const BUMP = (name: string) =>
  `a change that alters a golden replay changes rules ${rulesOf(name)}, which old replays were played under: leave them as they were and add a rules version (constants.ts RULES)`;

describe('golden replays', () => {
  it('exist', () => {
    expect(goldens.map((g) => g.name)).toEqual(
      expect.arrayContaining(['sprint-40l', 'ultra-2min', 'marathon-topout', 'tspin-heavy', 'handling-arr0', 'handling-sdf-instant', 'handling-dascut', 'rules3-row-down', 'rules5-sprint-3min', 'rules5-marathon-spins',
        'rules5-tsd20', 'rules5-tsd20-wrong-clear', 'rules5-pc', 'rules5-zen', 'rules5-dig10', 'rules5-dig18', 'rules5-dig100', 'rules5-survival', 'rules5-pc-clear']),
    );
  });

  it('rules3-row-down really is: rowDown before every hard drop, a game rules 1 refuses', () => {
    const g = goldens.find((f) => f.name === 'rules3-row-down')!;
    const presses = (key: string) => g.replay.events.filter((e) => e.key === key && e.down).length;
    expect(presses('rowDown')).toBe(2 * presses('hardDrop'));
    expect(() => simulateReplay({ ...g.replay, rulesVersion: 1 })).toThrow(/not played under rules version 1/);
  });

  it('the drill goldens end by their own rules and carry their count', () => {
    const expected = (name: string) => goldens.find((f) => f.name === name)!.expected;
    expect(expected('rules5-tsd20')).toMatchObject({ clears: 1, lines: 2, reason: 'blockOut' });
    expect(expected('rules5-tsd20-wrong-clear')).toMatchObject({ clears: 0, lines: 1, reason: 'wrongClear', finished: false });
    expect(expected('rules5-pc')).toMatchObject({ clears: 0, reason: 'tooHigh', finished: false });
    // The drills' ends reached: a perfect clear counted, then a miss.
    expect(expected('rules5-pc-clear')).toMatchObject({ clears: 1, lines: 4, reason: 'tooHigh', finished: false });
    expect(expected('rules5-zen')).toMatchObject({ clears: 0, ended: false, reason: null, ticks: 6000 });
    // The classic modes' results have no count at all, as before the drills.
    expect(goldens.filter((g) => !g.name.startsWith('rules5-') || g.name.startsWith('rules5-s') || g.name.startsWith('rules5-m')).every((g) => !('clears' in g.expected))).toBe(true);
  });

  it('rules5-survival really is: rows rose on the clock past the shortest interval, and the stack topped out', () => {
    const g = goldens.find((f) => f.name === 'rules5-survival')!;
    expect(g.expected).toMatchObject({ toppedOut: true, finished: false });
    // Rise 110 (tick 12 918) is the first at the shortest interval; the game outlived it.
    expect(g.expected.ticks).toBeGreaterThan(12_918);
    expect(g.expected.lines).toBeGreaterThan(100);
  });

  it('the rules-5 goldens deal from the keyed generator: the same inputs under rules 3 are another game', () => {
    for (const name of ['rules5-sprint-3min', 'rules5-marathon-spins']) {
      const g = goldens.find((f) => f.name === name)!;
      expect(simulateReplay({ ...g.replay, rulesVersion: 3 }).hash, name).not.toBe(g.expected.hash);
    }
  });

  it.each(goldens.map((g) => [g.name, g] as const))('%s re-simulates to its recorded result', (name, g) => {
    // These goldens prove that games played under their rules version still verify after any later one.
    expect([g.rulesVersion, g.replay.rulesVersion], `${name}: recorded under rules ${g.rulesVersion}`).toEqual([rulesOf(name), rulesOf(name)]);
    const budget = g.maxTicks === undefined ? {} : { maxTicks: g.maxTicks };
    const { unusedEvents, ...got } = simulateReplay(g.replay, budget);
    expect(got, `golden replay "${name}" no longer reproduces; ${BUMP(name)}`).toEqual(g.expected);
    expect(unusedEvents, `${name}: inputs after the end`).toBe(0);
    expect(simulateReplay(g.replay, { ...budget, evented: true }).hash, `${name}: evented path diverges from the fast path`).toBe(g.expected.hash);
  });

  it('tspin-heavy really is: ten or more full T-spins, most of them doubles', () => {
    const g = goldens.find((f) => f.name === 'tspin-heavy')!;
    const game = createGame({ mode: g.replay.mode, seed: g.replay.seed, handling: g.replay.handling, rulesVersion: g.rulesVersion });
    const spins: string[] = [];
    let i = 0;
    for (let t = 0; !game.over; t++) {
      const inputs = [];
      for (; i < g.replay.events.length && g.replay.events[i]!.tick === t; i++) inputs.push(g.replay.events[i]!);
      for (const e of game.tick(inputs)) if (e.type === 'lock' && e.spin !== 'none') spins.push(`${e.spin}${e.linesCleared}`);
    }
    expect(spins.filter((s) => s.startsWith('full')).length).toBeGreaterThanOrEqual(10);
    expect(spins.filter((s) => s === 'full2').length).toBeGreaterThanOrEqual(8);
    expect(game.hash()).toBe(g.expected.hash);
  });

  it.each(goldens.map((g) => [g.name, g] as const))('%s: binary form is stable', (name, g) => {
    expect(decodeReplay(g.encoded), `${name}: decode`).toEqual(g.replay);
    // The packed path verification takes: the same inputs, the same game.
    const packed = decodePackedReplay(g.encoded);
    expect(packed).toMatchObject(packEvents(g.replay.events));
    const budget = g.maxTicks === undefined ? {} : { maxTicks: g.maxTicks };
    expect(simulatePacked(packed, budget)).toEqual(simulateReplay(g.replay, budget));
    expect(encodeReplay(g.replay), `golden replay "${name}" encodes differently; ${BUMP(name)} (or the format version)`).toBe(g.encoded);
  });
});
