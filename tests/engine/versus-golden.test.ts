import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACK_DEADLINE_TICKS, decodePackedReplay, decodeReplay, encodeReplay, simulatePacked, simulateReplay, VersusGame, type GameOutcome, type GarbageMessage, type Replay, type ReplayResult } from '@/lib/engine';

interface VersusGolden {
  name: string;
  rulesVersion: number;
  outcome: GameOutcome;
  players: Array<{ maxTicks: number; expected: Omit<ReplayResult, 'unusedEvents'>; encoded: string; replay: Replay }>;
}

const dir = new URL('../fixtures/versus-replays/', import.meta.url);
const goldens: VersusGolden[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as VersusGolden);

/** The versus rules each golden was played under; the others are rules-2 games. */
const LATER_RULES: Record<string, number> = { 'battle-rules4-row-down': 4, 'battle-rules6': 6, 'race30-rules6': 6 };
const rulesOf = (name: string) => LATER_RULES[name] ?? 2;
const BUMP = (name: string) =>
  `a change that alters a versus golden changes versus rules ${rulesOf(name)}, which old matches were played under: leave them as they were and add a rules version (constants.ts RULES)`;

describe('versus golden replays', () => {
  it('exist: a garbage battle, a Race 30 won by goal, a battle of deadline-forced garbage, a rules-4 battle, and a battle and a Race 30 under rules 6', () => {
    expect(goldens.map((g) => g.name)).toEqual(['battle-garbage', 'battle-late-acks', 'battle-rules4-row-down', 'battle-rules6', 'race30-goal', 'race30-rules6']);
    expect(goldens.map((g) => g.outcome.reason)).toEqual(['topOut', 'topOut', 'topOut', 'topOut', 'goal', 'goal']);
  });

  it('battle-rules4-row-down really is: both seats press rowDown and send garbage, and rules 2 refuses their replays', () => {
    const g = goldens.find((f) => f.name === 'battle-rules4-row-down')!;
    for (const p of g.players) {
      expect(p.replay.events.some((e) => e.key === 'rowDown')).toBe(true);
      expect(p.expected.versus!.sent).toBeGreaterThan(0);
      expect(() => simulateReplay({ ...p.replay, rulesVersion: 2 })).toThrow(/not played under rules version 2/);
    }
  });

  it('the rules-6 goldens rise garbage 30 ticks after it was sent: under rules 4 the same replays are other games', () => {
    for (const name of ['battle-rules6', 'race30-rules6']) {
      const g = goldens.find((f) => f.name === name)!;
      expect(g.players.every((p) => p.replay.garbage!.length > 0), name).toBe(true);
      for (const p of g.players) {
        const { seat, ...asRules4 } = p.replay;
        expect(seat).toBe(g.players.indexOf(p));
        expect(simulateReplay({ ...asRules4, rulesVersion: 4 }, { maxTicks: p.maxTicks }).hash).not.toBe(p.expected.hash);
      }
    }
  });

  it.each(goldens.flatMap((g) => g.players.map((p, i) => [`${g.name} seat ${i}`, g, p] as const)))(
    '%s re-simulates alone to its recorded result, on both paths, with garbage',
    (name, g, p) => {
      expect([g.rulesVersion, p.replay.rulesVersion], name).toEqual([rulesOf(g.name), rulesOf(g.name)]);
      const { unusedEvents, ...got } = simulateReplay(p.replay, { maxTicks: p.maxTicks });
      expect(got, `versus golden "${name}" no longer reproduces; ${BUMP(g.name)}`).toEqual(p.expected);
      expect(unusedEvents, name).toBe(0);
      expect(simulateReplay(p.replay, { maxTicks: p.maxTicks, evented: true }).hash, `${name}: evented path`).toBe(p.expected.hash);
      expect(decodeReplay(p.encoded), `${name}: decode`).toEqual(p.replay);
      // The packed path verification takes, garbage included.
      const packed = decodePackedReplay(p.encoded);
      expect(simulatePacked(packed, { maxTicks: p.maxTicks })).toEqual(simulateReplay(p.replay, { maxTicks: p.maxTicks }));
      expect([...packed.garbage!.ticks], name).toEqual(p.replay.garbage!.map((x) => x.tick));
      expect(encodeReplay(p.replay), `${name}: encodes differently; ${BUMP(g.name)} (or the format version)`).toBe(p.encoded);
    },
  );

  it('garbage flows both ways in the battle, and the late-ack battle took every message exactly at its deadline', () => {
    const battle = goldens.find((g) => g.name === 'battle-garbage')!;
    expect(battle.players.map((p) => p.expected.versus!.sent).every((n) => n > 0)).toBe(true);
    const late = goldens.find((g) => g.name === 'battle-late-acks')!;
    // Replaying the two streams through the referee (no acks) puts every message at sentAt + 30.
    const game = new VersusGame({ mode: 'battle', seed: late.players[0]!.replay.seed, handling: [late.players[0]!.replay.handling, late.players[1]!.replay.handling], rulesVersion: late.rulesVersion });
    const inputs = late.players.map((p) => p.replay.events);
    const idx = [0, 0];
    const routed: GarbageMessage[] = [];
    for (let t = 0; !game.outcome && t < 20_000; t++) {
      for (const s of [0, 1] as const) {
        const evs = [];
        while (idx[s]! < inputs[s]!.length && inputs[s]![idx[s]!]!.tick === game.tickOf(s)) evs.push(inputs[s]![idx[s]!++]!);
        routed.push(...game.tick(s, evs).sent);
      }
    }
    expect(game.outcome).toEqual(late.outcome);
    for (const s of [0, 1] as const) {
      // Messages whose deadline fell after the game was decided never arrived.
      const mine = routed.filter((m) => m.to === s && m.deadline < late.players[s]!.maxTicks);
      expect(late.players[s]!.replay.garbage!.map((g) => g.tick)).toEqual(mine.map((m) => m.sentAt + ACK_DEADLINE_TICKS));
    }
    expect(late.players[1]!.replay.garbage!.length).toBeGreaterThan(0);
  });
});
