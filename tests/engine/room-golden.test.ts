import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeReplay, encodeReplay, replayRoom, simulateReplay, type Replay, type ReplayResult, type RoomOutcome, type RoomRules } from '@/lib/engine';

interface RoomGolden {
  name: string;
  rulesVersion: number;
  seed: string;
  rules: RoomRules;
  outcome: RoomOutcome;
  placements: number[];
  seats: Array<{ maxTicks: number; expected: Omit<ReplayResult, 'unusedEvents'>; encoded: string; replay: Replay }>;
}

const dir = new URL('../fixtures/room-replays/', import.meta.url);
const goldens: RoomGolden[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as RoomGolden);
const BUMP = 'a change that alters a room golden changes rules version 7, which stored room matches were played under: leave them as they were and add a rules version (constants.ts RULES)';

describe('room golden replays (rules 7)', () => {
  it('exist: a 4-seat free-for-all and a 2v2, with garbage to every seat', () => {
    expect(goldens.map((g) => [g.name, g.seats.length, g.rules.teams])).toEqual([['ffa4-rules7', 4, null], ['teams2v2-rules7', 4, [0, 1, 0, 1]]]);
    for (const g of goldens) expect(g.seats.every((p) => p.replay.garbage!.length > 0), g.name).toBe(true);
  });

  it.each(goldens.flatMap((g) => g.seats.map((p, i) => [`${g.name} seat ${i}`, g, p] as const)))('%s re-simulates alone to its recorded result', (name, g, p) => {
    expect(p.replay.rulesVersion).toBe(7);
    const { unusedEvents, ...got } = simulateReplay(p.replay, { maxTicks: p.maxTicks });
    expect(got, `room golden "${name}" no longer reproduces; ${BUMP}`).toEqual(p.expected);
    expect(unusedEvents).toBe(0);
    expect(decodeReplay(p.encoded)).toEqual(p.replay);
    expect(encodeReplay(p.replay)).toBe(p.encoded);
  });

  it.each(goldens.map((g) => [g.name, g] as const))('%s plays again through the referee: the same garbage to every seat, the same end', (name, g) => {
    const { game, unused } = replayRoom({ mode: 'battle', seed: g.seed, rules: g.rules }, g.seats.map((p) => p.replay));
    expect(game.outcome, `${name}: ${BUMP}`).toEqual(g.outcome);
    expect(game.placements()).toEqual(g.placements);
    g.seats.forEach((p, s) => {
      expect(game.replay(s).garbage, `${name} seat ${s}`).toEqual(p.replay.garbage);
      expect(game.game(s).hash()).toBe(p.expected.hash);
    });
    expect(unused.every((u) => u.events === 0 && u.targets === 0)).toBe(true);
  });
});
