import type { BitReader, BitWriter } from './bits';
import { MAX_EVENT_TICK, MAX_REPLAY_EVENTS } from './constants';
import { ReplayDecodeError } from './errors';
import { B2B_TABLES, checkRoomSeat, COMBO_TABLES, TARGETINGS, type B2BTable, type ComboTable, type RoomRules } from './room-rules';
import type { RoomSeat } from './types';

/**
 * A room seat in binary replay format 6 (rules 7), after the garbage in the same bit stream:
 * Exp-Golomb-0 of the seat, the targeting's index in TARGETINGS, a teams bit (then the team count
 * and each team), each number of INT_RULES in order, the b2b and combo tables' indexes, a hold
 * bit, then the target changes: count, and per change the tick gap and the seat. Every value has
 * one code, so every room replay has one encoding; the decoder refuses what checkRoomSeat refuses.
 */
const INT_RULES = ['garbageDelay', 'garbageCap', 'messiness', 'attackPercent', 'preview', 'startLevel', 'gravityLevel', 'firstTo', 'timeLimitTicks'] as const;
const B2B_NAMES = Object.keys(B2B_TABLES) as B2BTable[];
const COMBO_NAMES = Object.keys(COMBO_TABLES) as ComboTable[];
/** Largest a rule number is read as before the rules' own check (the largest limit is 216 000). */
const MAX_RULE_VALUE = 1 << 20;

export function writeRoom(w: BitWriter, room: RoomSeat): void {
  const r = room.rules;
  w.expGolomb(room.seat, 0);
  w.expGolomb(TARGETINGS.indexOf(r.targeting), 0);
  w.bit(r.teams ? 1 : 0);
  if (r.teams) {
    w.expGolomb(r.teams.length, 0);
    for (const t of r.teams) w.expGolomb(t, 0);
  }
  for (const k of INT_RULES) w.expGolomb(r[k], 0);
  w.expGolomb(B2B_NAMES.indexOf(r.b2b), 0);
  w.expGolomb(COMBO_NAMES.indexOf(r.combo), 0);
  w.bit(r.hold ? 1 : 0);
  w.expGolomb(room.targets.length, 0);
  room.targets.forEach((t, i) => {
    w.expGolomb(t.tick - (i === 0 ? 0 : room.targets[i - 1]!.tick), 0);
    w.expGolomb(t.target, 0);
  });
}

export function readRoom(r: BitReader, rulesVersion: number): RoomSeat {
  const num = (what: string, max = MAX_RULE_VALUE) => {
    const v = r.expGolomb(0, what);
    if (v > max) throw new ReplayDecodeError('invalid_field', `room ${what} is out of range`);
    return v;
  };
  const seat = num('seat', 64);
  const targeting = TARGETINGS[num('targeting', 64)];
  let teams: number[] | null = null;
  if (r.bit('teams') === 1) {
    const n = num('team count', 64);
    teams = [];
    for (let i = 0; i < n; i++) teams.push(num('team', 64));
  }
  const ints = Object.fromEntries(INT_RULES.map((k) => [k, num(k)])) as Record<(typeof INT_RULES)[number], number>;
  const b2b = B2B_NAMES[num('b2b', 64)];
  const combo = COMBO_NAMES[num('combo', 64)];
  const hold = r.bit('hold') === 1;
  const count = num('target count', MAX_REPLAY_EVENTS);
  if (count * 2 > r.remainingBits) throw new ReplayDecodeError('truncated', `data too short for ${count} target changes`);
  const targets = [];
  let tick = 0;
  for (let i = 0; i < count; i++) {
    tick += num('target tick', MAX_EVENT_TICK);
    if (tick > MAX_EVENT_TICK) throw new ReplayDecodeError('invalid_field', `target change ${i}: tick exceeds ${MAX_EVENT_TICK}`);
    targets.push({ tick, target: num('target', 64) });
  }
  // In DEFAULT_ROOM_RULES's key order, so a decoded object equals the one that was encoded.
  const rules = {
    targeting, teams, garbageDelay: ints.garbageDelay, garbageCap: ints.garbageCap, messiness: ints.messiness, attackPercent: ints.attackPercent,
    b2b, combo, preview: ints.preview, hold, startLevel: ints.startLevel, gravityLevel: ints.gravityLevel, firstTo: ints.firstTo, timeLimitTicks: ints.timeLimitTicks,
  } as RoomRules;
  const room: RoomSeat = { rules, seat, targets };
  const bad = checkRoomSeat(rulesVersion, room, true);
  if (bad) throw new ReplayDecodeError('invalid_field', bad);
  return room;
}

/** Bytes a room block takes at most without its target changes (each change: tick gap + seat). */
export const MAX_ROOM_BLOCK_BYTES = 64;
