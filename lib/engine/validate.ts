import { isRoomRules } from './constants';
import {
  ARR_MAX, ARR_MIN, DAS_MAX, DAS_MIN, isKeyed, KEYS, MAX_EVENT_TICK, MAX_GARBAGE_SIZE, MAX_REPLAY_EVENTS,
  MAX_SEED_LENGTH, MIN_SEED_LENGTH, NEXT_COUNT_MAX, NEXT_COUNT_MIN, SDF_MAX, SDF_MIN, SUPPORTED_RULES_VERSIONS,
  VERSUS_RULES_VERSIONS,
} from './constants';
import { ALL_MODE_NAMES, cheeseOf, isVersusMode, MODES } from './modes';
import { LOCK_RULES } from './timing';
import type { AnyMode } from './types';
import { utf8Encode } from './utf8';

const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Returns a message naming the first bad field, or null. Shared by createGame, the codec and simulateReplay. */
export function checkHandling(h: unknown): string | null {
  if (typeof h !== 'object' || h === null) return 'handling must be an object';
  const r = h as Record<string, unknown>;
  if (!isInt(r.das, DAS_MIN, DAS_MAX)) return `handling.das must be an integer ${DAS_MIN}–${DAS_MAX}`;
  if (!isInt(r.arr, ARR_MIN, ARR_MAX)) return `handling.arr must be an integer ${ARR_MIN}–${ARR_MAX}`;
  if (r.sdf !== 'instant' && !isInt(r.sdf, SDF_MIN, SDF_MAX))
    return `handling.sdf must be 'instant' or an integer ${SDF_MIN}–${SDF_MAX}`;
  if (typeof r.dasCut !== 'boolean') return 'handling.dasCut must be a boolean';
  return null;
}

export function checkSeed(seed: unknown): string | null {
  if (typeof seed !== 'string') return 'seed must be a string';
  if (seed.length < MIN_SEED_LENGTH || seed.length > MAX_SEED_LENGTH)
    return `seed must be ${MIN_SEED_LENGTH}–${MAX_SEED_LENGTH} characters`;
  if (!/^[\x20-\x7e]*$/.test(seed) && utf8Encode(seed) === null) return 'seed must be well-formed Unicode';
  return null;
}

export function checkMode(mode: unknown): string | null {
  return ALL_MODE_NAMES.includes(mode as never) ? null : `mode must be one of ${ALL_MODE_NAMES.join(', ')}`;
}

/**
 * Null when the rules version is supported and fits the mode: versus modes are played only under a
 * versus rules version, solo modes never. The mode must already be valid.
 */
export function checkRulesVersion(rulesVersion: unknown, mode: AnyMode): string | null {
  if (!SUPPORTED_RULES_VERSIONS.includes(rulesVersion as never)) return `rules version ${String(rulesVersion)} is not supported`;
  if (VERSUS_RULES_VERSIONS.includes(rulesVersion as never) !== isVersusMode(mode))
    return `rules version ${String(rulesVersion)} does not play ${mode}`;
  // Dig's holes come from the keyed hole stream: there is no other generator to draw them from.
  if (cheeseOf(MODES[mode]) && !isKeyed(rulesVersion as number)) return `rules version ${String(rulesVersion)} does not play ${mode}`;
  return null;
}

/** A keyed versus rules version (6) names the seat of every game (its hole stream); no other carries one. */
export function checkSeat(rulesVersion: number, mode: AnyMode, seat: unknown): string | null {
  if (isRoomRules(rulesVersion)) return seat === undefined ? null : 'a room replay names its seat in room';
  const seated = isVersusMode(mode) && isKeyed(rulesVersion);
  if (!seated) return seat === undefined ? null : `seat is only for versus replays under keyed rules, not rules version ${rulesVersion}`;
  return seat === 0 || seat === 1 ? null : 'seat must be 0 or 1';
}

/** The refusal of a known key that the rules version does not play (`rowDown` before rules 3). */
export function keyNotInRules(key: string, rulesVersion: number): string {
  return `key '${key}' is not played under rules version ${rulesVersion}`;
}

/** Versus replays carry a garbage array (possibly empty), in tick order; solo replays none. */
export function checkGarbage(mode: AnyMode, garbage: unknown): string | null {
  if (!isVersusMode(mode)) return garbage === undefined ? null : 'garbage is only for versus replays';
  if (!Array.isArray(garbage)) return 'garbage must be an array';
  if (garbage.length > MAX_REPLAY_EVENTS) return `garbage must hold at most ${MAX_REPLAY_EVENTS} entries`;
  let last = 0;
  for (let i = 0; i < garbage.length; i++) {
    const g: unknown = garbage[i];
    if (typeof g !== 'object' || g === null) return `garbage[${i}] must be an object`;
    const o = g as Record<string, unknown>;
    if (!isInt(o.tick, last, MAX_EVENT_TICK)) return `garbage[${i}].tick must be an integer ≥ the previous tick`;
    if (!isInt(o.size, 1, MAX_GARBAGE_SIZE)) return `garbage[${i}].size must be an integer 1–${MAX_GARBAGE_SIZE}`;
    last = o.tick;
  }
  return null;
}

export function checkLock(lock: unknown): string | null {
  return lock === undefined || LOCK_RULES.includes(lock as never) ? null : `lock must be one of ${LOCK_RULES.join(', ')}`;
}

export function checkNextCount(n: unknown): string | null {
  return n === undefined || isInt(n, NEXT_COUNT_MIN, NEXT_COUNT_MAX)
    ? null
    : `nextCount must be an integer ${NEXT_COUNT_MIN}–${NEXT_COUNT_MAX}`;
}

/** Validates a replay object's shape and bounds (not its rules version). */
export function checkReplay(r: unknown): string | null {
  if (typeof r !== 'object' || r === null) return 'replay must be an object';
  const o = r as Record<string, unknown>;
  const bad = checkMode(o.mode) ?? checkSeed(o.seed) ?? checkHandling(o.handling) ?? checkNextCount(o.nextCount) ?? checkGarbage(o.mode as AnyMode, o.garbage);
  if (bad) return bad;
  if (!Array.isArray(o.events)) return 'events must be an array';
  if (o.events.length > MAX_REPLAY_EVENTS) return `events must hold at most ${MAX_REPLAY_EVENTS} entries`;
  let last = 0;
  for (let i = 0; i < o.events.length; i++) {
    const e: unknown = o.events[i];
    if (typeof e !== 'object' || e === null) return `events[${i}] must be an object`;
    const ev = e as Record<string, unknown>;
    if (!isInt(ev.tick, last, MAX_EVENT_TICK)) return `events[${i}].tick must be an integer ≥ the previous tick`;
    if (!KEYS.includes(ev.key as never)) return `events[${i}].key is not a key`;
    if (typeof ev.down !== 'boolean') return `events[${i}].down must be a boolean`;
    last = ev.tick;
  }
  return null;
}
