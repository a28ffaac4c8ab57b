import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  attackFor, checkRoomRules, createGame, DEFAULT_ROOM_RULES, decodeReplay, encodeReplay, MODES, RULES, ReplayDecodeError, ReplayError, roomAttack,
  simulateReplay, type RoomRules,
} from '@/lib/engine';
import { GARBAGE_RISE_CAP } from '@/lib/engine/garbage';
import { roomRulesSchema } from '@/lib/validations/rooms';
import { HANDLING, ofType, tap } from '@/tests/engine/helpers';
import { playRoom, room } from '@/tests/engine/room-support';

const rules = (r: Partial<RoomRules> = {}): RoomRules => ({ ...DEFAULT_ROOM_RULES, ...r });

describe('room rules as data', () => {
  it('defaults play what a rules-6 battle plays', () => {
    expect(DEFAULT_ROOM_RULES.garbageDelay).toBe(RULES[6].garbageDelay);
    expect(DEFAULT_ROOM_RULES.garbageCap).toBe(GARBAGE_RISE_CAP);
    expect(DEFAULT_ROOM_RULES.firstTo).toBe(MODES.battle.firstTo);
    expect(DEFAULT_ROOM_RULES.startLevel).toBe(MODES.battle.startLevel);
    for (let spin = 0; spin < 3; spin++)
      for (let lines = 0; lines <= 4; lines++)
        for (const b2b of [false, true])
          for (let combo = -1; combo < 16; combo++)
            for (const pc of [false, true]) expect(roomAttack(DEFAULT_ROOM_RULES, spin, lines, b2b, combo, pc)).toBe(attackFor(spin, lines, b2b, combo, pc));
  });

  it('named tables and the multiplier', () => {
    expect(roomAttack(rules({ b2b: 'none' }), 0, 4, true, 0, false)).toBe(4);
    expect(roomAttack(rules({ b2b: 'double' }), 0, 4, true, 0, false)).toBe(6);
    expect(roomAttack(rules({ combo: 'none' }), 0, 1, false, 10, false)).toBe(0);
    expect(roomAttack(rules({ combo: 'steep' }), 0, 1, false, 1, false)).toBe(1);
    expect(roomAttack(rules({ attackPercent: 150 }), 0, 4, false, 0, false)).toBe(6);
    expect(roomAttack(rules({ attackPercent: 0 }), 2, 3, true, 12, true)).toBe(0);
  });

  it('refuses each bad value with a sentence naming it', () => {
    const cases: [unknown, number, RegExp][] = [
      [rules(), 1, /2–16 seats/],
      [rules(), 17, /2–16 seats/],
      [null, 4, /must be an object/],
      [{ ...rules(), extra: 1 }, 4, /unknown rule extra/],
      [{ ...rules(), hold: undefined }, 4, /hold must be true or false/],
      [rules({ garbageCap: 0 }), 4, /garbageCap must be an integer 1–40/],
      [rules({ messiness: 101 }), 4, /messiness/],
      [rules({ attackPercent: 1.5 }), 4, /attackPercent/],
      [rules({ preview: 7 }), 4, /preview/],
      [rules({ startLevel: 0 }), 4, /startLevel/],
      [rules({ firstTo: 8 }), 4, /firstTo/],
      [rules({ targeting: 'nearest' as never }), 4, /targeting must be one of/],
      [rules({ b2b: 'triple' as never }), 4, /b2b must be one of/],
      [rules({ teams: [0, 1, 0] }), 4, /one team per seat/],
      [rules({ teams: [0, 0, 0, 0] }), 4, /at least two teams/],
      [rules({ teams: [0, 1, 8, 1] }), 4, /team is an integer/],
    ];
    for (const [r, seats, message] of cases) expect(checkRoomRules(r, seats)).toMatch(message);
    expect(checkRoomRules(rules({ teams: [0, 0, 1, 1] }), 4)).toBeNull();
  });

  it('the zod schema says what the engine says', () => {
    expect(roomRulesSchema(4).safeParse(rules()).success).toBe(true);
    const bad = roomRulesSchema(4).safeParse(rules({ teams: [0, 0, 0, 0] }));
    expect(bad.success ? null : bad.error.issues.map((i) => i.message)).toEqual(['teams need at least two teams']);
    const range = roomRulesSchema(4).safeParse(rules({ garbageCap: 99 }));
    expect(range.success ? null : range.error.issues[0]!.message).toMatch(/garbageCap must be at most 40/);
  });
});

describe('a seat under room rules', () => {
  const seat = (r: Partial<RoomRules>) => createGame({ mode: 'battle', seed: 's', handling: HANDLING, rulesVersion: 7, room: { rules: rules(r), seat: 0 } });

  it('hold off: the hold key does nothing', () => {
    expect(ofType(tap(seat({ hold: false }), 'hold'), 'hold')).toEqual([]);
    expect(ofType(tap(seat({}), 'hold'), 'hold')).toHaveLength(1);
  });

  it('starting level and a fixed gravity', () => {
    expect(seat({ startLevel: 5 }).snapshot().level).toBe(5);
    // Versus modes never level up, so the room's level holds past the first lock (it fell back to the mode's 1).
    const locked = seat({ startLevel: 5 });
    tap(locked, 'hardDrop');
    expect(locked.snapshot().pieces).toBe(1);
    expect(locked.snapshot().level).toBe(5);
    const fast = seat({ gravityLevel: 20 });
    fast.tick();
    expect(fast.snapshot().ghost!.y).toBe(fast.snapshot().active!.y);
  });

  it('rules 7 needs its room, and no other version takes one', () => {
    expect(() => createGame({ mode: 'battle', seed: 's', handling: HANDLING, rulesVersion: 7 })).toThrow(/room is missing/);
    expect(() => createGame({ mode: 'battle', seed: 's', handling: HANDLING, rulesVersion: 6, room: { rules: rules(), seat: 0 } })).toThrow(/only for rules versions played in rooms/);
  });
});

describe('replay format 6', () => {
  const played = () => {
    const g = room(4, { targeting: 'manual', messiness: 30, teams: [0, 1, 0, 1] });
    g.play(1, []);
    g.play(2, []);
    g.play(3, []);
    g.play(0, [], 3);
    playRoom(g, [0, 1, 2, 3].map((s) => ({ seed: `rt/${s}`, mistakes: 0.1 * s })), 3000);
    return g;
  };

  it('round-trips every seat, rules and target changes included, and re-simulates it alone', () => {
    const g = played();
    for (let s = 0; s < 4; s++) {
      const r = g.replay(s);
      const text = encodeReplay(r);
      expect(decodeReplay(text)).toEqual(r);
      expect(encodeReplay(decodeReplay(text))).toBe(text);
      expect(r.garbage!.length).toBeGreaterThan(0);
      expect(simulateReplay(r, { maxTicks: g.game(s).tickNo }).hash).toBe(g.game(s).hash());
    }
  });

  it('the encoder refuses what the decoder refuses, and neither reads a rules-7 replay without its room', () => {
    const r = played().replay(0);
    expect(() => encodeReplay({ ...r, room: { ...r.room!, seat: 4 } })).toThrow(ReplayError);
    expect(() => encodeReplay({ ...r, room: undefined })).toThrow(/room is missing/);
    expect(() => encodeReplay({ ...r, room: { ...r.room!, targets: [{ tick: 0, target: 0 }] } })).toThrow(/another seat/);
  });

  it('refuses two target changes at one tick: the referee takes one a tick, so such a replay was never played', () => {
    const r = played().replay(0);
    const first = r.room!.targets[0]!;
    const twice = { ...r, room: { ...r.room!, targets: [first, { ...first }, ...r.room!.targets.slice(1)] } };
    expect(() => encodeReplay(twice)).toThrow(/after the previous/);
  });

  it('any string decodes to a replay that re-encodes to itself, or throws ReplayDecodeError', () => {
    const text = encodeReplay(played().replay(0));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: text.length - 1 }), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), (i, ch) => {
        const mutated = text.slice(0, i) + ch + text.slice(i + 1);
        try {
          expect(encodeReplay(decodeReplay(mutated))).toBe(mutated);
        } catch (e) {
          expect(e).toBeInstanceOf(ReplayDecodeError);
        }
      }),
      { numRuns: 400 },
    );
  });
});
