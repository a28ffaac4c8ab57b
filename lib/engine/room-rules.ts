import { ATTACK_LINES, B2B_ATTACK, COMBO_ATTACK, PERFECT_CLEAR_ATTACK } from './attack';
import { isRoomRules, MAX_EVENT_TICK, MAX_REPLAY_EVENTS, NEXT_COUNT_MAX, NEXT_COUNT_MIN } from './constants';
import { GARBAGE_RISE_CAP } from './garbage';
import { GRAVITY } from './gravity';
import { isDifficult } from './scoring';
import type { B2BTable, ComboTable, RoomRules, Targeting } from './types';

export type { B2BTable, ComboTable, RoomRules, Targeting };

/**
 * A room's rules (the RoomRules type lives in types.ts, so the engine's types import nothing
 * back): their limits, tables and checks. `DEFAULT_ROOM_RULES` plays what a rules-6 battle plays.
 */

export const TARGETINGS = ['even', 'random', 'kos', 'attackers', 'manual'] as const satisfies readonly Targeting[];
/** Every targeting rule types.ts names is in the list: a rule added there and not here fails to compile. */
const EVERY_TARGETING: Exclude<Targeting, (typeof TARGETINGS)[number]> extends never ? true : never = true;
void EVERY_TARGETING;

/** Back-to-back bonus tables: what a difficult clear after another adds. */
export const B2B_TABLES = {
  /** Versus rules 2–6: +1 on any back-to-back clear. */
  guideline: [B2B_ATTACK],
  /** No bonus. */
  none: [0],
  /** +2: rooms that reward keeping the chain. */
  double: [2],
} as const satisfies Record<B2BTable, readonly number[]>;

/** Combo tables, by the clearing lock's combo count; past the end the last entry holds. */
export const COMBO_TABLES = {
  /** Versus rules 2–6 (attack.ts COMBO_ATTACK). */
  guideline: COMBO_ATTACK,
  /** No combo attack. */
  none: [0],
  /** A steeper table: +1 per two locks of the chain, capped at 6. */
  steep: [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6],
} as const satisfies Record<ComboTable, readonly number[]>;


export const MIN_SEATS = 2;
export const MAX_SEATS = 16;
export const MAX_TEAMS = 8;

/** Each numeric rule's bounds, inclusive: the one home for the schema, the checks and the UI. */
export const ROOM_RULE_LIMITS = {
  garbageDelay: [0, 300],
  garbageCap: [1, 40],
  messiness: [0, 100],
  attackPercent: [0, 400],
  preview: [NEXT_COUNT_MIN, NEXT_COUNT_MAX],
  startLevel: [1, GRAVITY.length],
  gravityLevel: [0, GRAVITY.length],
  firstTo: [1, 7],
  timeLimitTicks: [0, 216_000],
} as const satisfies Partial<Record<keyof RoomRules, readonly [number, number]>>;

/** Today's versus (rules 6 battle) as room rules. */
export const DEFAULT_ROOM_RULES: Readonly<RoomRules> = Object.freeze({
  targeting: 'even',
  teams: null,
  garbageDelay: 30,
  garbageCap: GARBAGE_RISE_CAP,
  messiness: 0,
  attackPercent: 100,
  b2b: 'guideline',
  combo: 'guideline',
  preview: 5,
  hold: true,
  startLevel: 1,
  gravityLevel: 0,
  firstTo: 2,
  timeLimitTicks: 0,
});

const KEYS = Object.keys(DEFAULT_ROOM_RULES) as (keyof RoomRules)[];

/**
 * The first thing wrong with a rules object for a room of `seats`, as a sentence, or null. Pure
 * and total: any value may come in (a stored replay, a form), nothing throws.
 */
export function checkRoomRules(rules: unknown, seats: number): string | null {
  if (!Number.isInteger(seats) || seats < MIN_SEATS || seats > MAX_SEATS) return `a room has ${MIN_SEATS}–${MAX_SEATS} seats`;
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) return 'rules must be an object';
  const o = rules as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!KEYS.includes(k as keyof RoomRules)) return `unknown rule ${k}`;
  for (const k of KEYS) if (!Object.hasOwn(o, k)) return `rule ${k} is missing`;
  for (const [k, [lo, hi]] of Object.entries(ROOM_RULE_LIMITS)) {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) return `${k} must be an integer ${lo}–${hi}`;
  }
  if (!TARGETINGS.includes(o.targeting as Targeting)) return `targeting must be one of ${TARGETINGS.join(', ')}`;
  if (!Object.hasOwn(B2B_TABLES, o.b2b as string)) return `b2b must be one of ${Object.keys(B2B_TABLES).join(', ')}`;
  if (!Object.hasOwn(COMBO_TABLES, o.combo as string)) return `combo must be one of ${Object.keys(COMBO_TABLES).join(', ')}`;
  if (typeof o.hold !== 'boolean') return 'hold must be true or false';
  return checkTeams(o.teams, seats);
}

function checkTeams(teams: unknown, seats: number): string | null {
  if (teams === null) return null;
  if (!Array.isArray(teams) || teams.length !== seats) return `teams must be null or one team per seat (${seats})`;
  for (const t of teams) if (!Number.isInteger(t) || t < 0 || t >= MAX_TEAMS) return `a team is an integer 0–${MAX_TEAMS - 1}`;
  const counts = new Map<number, number>();
  for (const t of teams as number[]) counts.set(t, (counts.get(t) ?? 0) + 1);
  if (counts.size < 2) return 'teams need at least two teams';
  return null;
}

/** The team of each seat: its own number in a free-for-all. */
export function teamsOf(rules: RoomRules, seats: number): number[] {
  return rules.teams ? rules.teams.slice() : Array.from({ length: seats }, (_, i) => i);
}

/**
 * Garbage rows one lock sends under room rules: the versus table, the room's back-to-back and combo
 * tables, the perfect clear, then × attackPercent / 100 rounded down (integers only).
 */
export function roomAttack(r: RoomRules, spin: number, lines: number, b2bActive: boolean, combo: number, perfectClear: boolean): number {
  if (lines === 0) return 0;
  let attack: number = (ATTACK_LINES[spin] ?? ATTACK_LINES[0])[Math.min(lines, 4)] ?? 0;
  if (b2bActive && isDifficult(spin, lines)) attack += B2B_TABLES[r.b2b][0];
  const table: readonly number[] = COMBO_TABLES[r.combo];
  if (combo > 0) attack += table[Math.min(combo, table.length - 1)]!;
  if (perfectClear) attack += PERFECT_CLEAR_ATTACK;
  return Math.floor((attack * r.attackPercent) / 100);
}

/**
 * A seat's room setup against its rules version: rules 7 needs one (valid rules, a seat 0–15), every
 * other version none. `withTargets`: a replay's, whose target changes must be one a tick in tick order, each
 * naming another seat of the room (the referee checks they are opponents when it plays them).
 */
export function checkRoomSeat(rulesVersion: number, room: unknown, withTargets = false): string | null {
  if (!isRoomRules(rulesVersion)) return room === undefined ? null : `room is only for rules versions played in rooms, not ${rulesVersion}`;
  if (typeof room !== 'object' || room === null) return `rules version ${rulesVersion} is played in a room: room is missing`;
  const o = room as Record<string, unknown>;
  const rules = o.rules as RoomRules | undefined;
  const seats = Array.isArray(rules?.teams) ? rules.teams.length : MAX_SEATS;
  const bad = checkRoomRules(rules, seats);
  if (bad) return `room.rules: ${bad}`;
  if (!Number.isInteger(o.seat) || (o.seat as number) < 0 || (o.seat as number) >= seats) return `room.seat must be an integer 0–${seats - 1}`;
  if (!withTargets) return null;
  const t = o.targets;
  if (!Array.isArray(t) || t.length > MAX_REPLAY_EVENTS) return `room.targets must be an array of at most ${MAX_REPLAY_EVENTS}`;
  if (t.length > 0 && rules!.targeting !== 'manual') return 'room.targets are only for manual targeting';
  // The referee takes at most one change a tick (referee.ts play): ticks strictly increase.
  let last = -1;
  for (let i = 0; i < t.length; i++) {
    const e = t[i] as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null) return `room.targets[${i}] must be an object`;
    if (!Number.isInteger(e.tick) || (e.tick as number) <= last || (e.tick as number) > MAX_EVENT_TICK) return `room.targets[${i}].tick must be an integer 0–${MAX_EVENT_TICK}, after the previous change's`;
    if (!Number.isInteger(e.target) || (e.target as number) < 0 || (e.target as number) >= seats || e.target === o.seat) return `room.targets[${i}].target must be another seat`;
    last = e.tick as number;
  }
  return null;
}
