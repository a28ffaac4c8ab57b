import { MAX_EVENT_TICK, MAX_REPLAY_EVENTS, MAX_REPLAY_TICKS, TICKS_PER_SECOND } from './constants';
import { queuedRows } from './garbage';
import type { Core } from './core';
import { END_NAMES } from './ends';
import { GameConfigError, ReplayError } from './errors';
import { hashCore } from './hash';
import { keyId } from './keys';
import { NO_DRILL } from './modes';
import { createCore } from './setup';
import { checkRoomSeat } from './room-rules';
import type { PackedReplay } from './codec';
import type { GameEvent, Replay, ReplayEvent, ReplayResult } from './types';
import { checkGarbage, checkMode, checkReplay, checkRulesVersion, checkSeat, keyNotInRules } from './validate';

export interface SimulateOptions {
  /** Stop after this many ticks even if the game has not ended (default one hour). */
  maxTicks?: number;
  /** Build event objects and step every tick, as interactive play does; tests compare both paths. */
  evented?: boolean;
  /** When given, receives the tick of every piece lock, in order (timing analysis on the server). */
  lockTicks?: number[];
  /**
   * Versus: when given, receives every tick whose locks sent garbage, with the rows sent (after
   * cancelling): the messages the referee routed, so a stored match can be checked against them.
   */
  sends?: Array<{ tick: number; size: number }>;
  /**
   * When given, receives each tick's events in order, with the tick (a lock's attack and cleared
   * rows, garbage rising): what the stats of a stored game are tallied from. Makes the run evented.
   */
  onEvents?: (events: readonly GameEvent[], tick: number) => void;
}

const MAX_EVENTS: number = MAX_REPLAY_EVENTS;
const MAX_TICK: number = MAX_EVENT_TICK;

/**
 * Re-plays a replay from its seed with the same code as live play, without building events.
 * After the last input the game keeps running (gravity still drops pieces) until it ends or
 * maxTicks pass. Throws ReplayError for an unsupported rules version or a malformed replay.
 */
export function simulateReplay(replay: Replay, opts: SimulateOptions = {}): ReplayResult {
  if (typeof replay !== 'object' || replay === null) throw new ReplayError('invalid_replay', 'replay must be an object');
  const core = coreOf(replay, opts, () => checkGarbage(replay.mode, replay.garbage));
  const events = replay.events;
  if (!Array.isArray(events)) throw new ReplayError('invalid_replay', 'events must be an array');
  const n = events.length;
  if (n > MAX_EVENTS) throw new ReplayError('invalid_replay', `events must hold at most ${MAX_EVENTS} entries`);
  const ticks = new Int32Array(n);
  const codes = new Uint8Array(n);
  // One pass converts and validates; the full (slower) checker only runs to name a bad field.
  let last = 0;
  for (let i = 0; i < n; i++) {
    const e: unknown = events[i];
    if (typeof e !== 'object' || e === null) throw new ReplayError('invalid_replay', `events[${i}] must be an object`);
    const ev = e as ReplayEvent;
    const tick: unknown = ev.tick;
    const down: unknown = ev.down;
    const key: unknown = ev.key;
    const id = keyId(key);
    if (typeof tick !== 'number' || !(tick >= last && tick <= MAX_TICK && (tick | 0) === tick) || id < 0 || typeof down !== 'boolean')
      throw new ReplayError('invalid_replay', checkReplay(replay) ?? `events[${i}] is invalid`);
    if (id >= core.keyCount) throw new ReplayError('invalid_replay', `events[${i}]: ${keyNotInRules(key as string, core.rulesVersion)}`);
    ticks[i] = tick;
    codes[i] = id * 2 + (down ? 1 : 0);
    last = tick;
  }
  const garbage = replay.garbage ?? [];
  return runAll(core, ticks, codes, Int32Array.from(garbage, (g) => g.tick), Int32Array.from(garbage, (g) => g.size), opts);
}

const NONE = new Int32Array(0);

/**
 * simulateReplay for a replay the decoder packed (decodePackedReplay): its inputs and garbage were
 * checked as they were read, so they go to the tick loop as they are, with no object per input.
 */
export function simulatePacked(replay: PackedReplay, opts: SimulateOptions = {}): ReplayResult {
  // Its garbage is the decoder's, checked as it was read.
  const core = coreOf(replay, opts, () => null);
  return runAll(core, replay.ticks, replay.codes, replay.garbage?.ticks ?? NONE, replay.garbage?.sizes ?? NONE, opts);
}

/** The game a replay starts from, after the checks its header needs (`garbageCheck`: the caller's check of its garbage, after the mode's). */
function coreOf(replay: Omit<Replay, 'events' | 'garbage'>, opts: SimulateOptions, garbageCheck: () => string | null): Core {
  const badMode = checkMode(replay.mode);
  if (badMode) throw new ReplayError('invalid_replay', badMode);
  const badRules = checkRulesVersion(replay.rulesVersion, replay.mode);
  if (badRules) throw new ReplayError('unsupported_rules_version', badRules);
  const bad = garbageCheck() ?? checkSeat(replay.rulesVersion, replay.mode, replay.seat) ?? checkRoomSeat(replay.rulesVersion, replay.room, true);
  if (bad) throw new ReplayError('invalid_replay', bad);
  try {
    return createCore(
      { mode: replay.mode, seed: replay.seed, handling: replay.handling, nextCount: replay.nextCount, rulesVersion: replay.rulesVersion, ...(replay.seat === undefined ? {} : { seat: replay.seat }),
        ...(replay.room ? { room: { rules: replay.room.rules, seat: replay.room.seat } } : {}) },
      evented(opts),
    ).core;
  } catch (e) {
    if (e instanceof GameConfigError) throw new ReplayError('invalid_replay', e.message);
    throw e;
  }
}

const evented = (opts: SimulateOptions) => opts.evented === true || opts.onEvents !== undefined;

function runAll(core: Core, ticks: Int32Array, codes: Uint8Array, gTicks: Int32Array, gSizes: Int32Array, opts: SimulateOptions): ReplayResult {
  const [used, usedGarbage] = run(
    core, ticks, codes, gTicks, gSizes, opts.maxTicks ?? MAX_REPLAY_TICKS, !evented(opts), opts.lockTicks ?? null, opts.sends ?? null, opts.onEvents ?? null,
  );
  const result = resultOf(core, ticks.length - used);
  if (core.mode.garbage) result.versus = { sent: core.sent, received: core.received, queued: queuedRows(core), unusedGarbage: gTicks.length - usedGarbage };
  return result;
}

/**
 * The tick loop; applies garbage and inputs exactly as Game does. Returns how many input events
 * and garbage events were applied.
 */
function run(
  c: Core, ticks: Int32Array, codes: Uint8Array, gTicks: Int32Array, gSizes: Int32Array,
  maxTicks: number, skip: boolean, locks: number[] | null, sends: Array<{ tick: number; size: number }> | null,
  onEvents: ((events: readonly GameEvent[], tick: number) => void) | null,
): [number, number] {
  const n = ticks.length;
  const gn = gTicks.length;
  let i = 0;
  let g = 0;
  while (!c.ended && c.tickNo < maxTicks) {
    const t = c.tickNo;
    const pieces = c.pieces;
    const sent = c.sent;
    while (g < gn && gTicks[g] === t) c.receive(gSizes[g++]!);
    while (i < n && ticks[i] === t && !c.ended) {
      const code = codes[i]!;
      c.input(code >> 1, (code & 1) === 1);
      i++;
    }
    c.step();
    if (onEvents !== null && c.out !== null) onEvents(c.out, t);
    c.out = null;
    // Several hard drops on one tick lock several pieces; skipQuiet never locks, so this sees every lock.
    if (locks !== null) for (let p = pieces; p < c.pieces; p++) locks.push(t);
    if (sends !== null && c.sent > sent) sends.push({ tick: t, size: c.sent - sent });
    if (skip) {
      let next = i < n ? ticks[i]! : maxTicks;
      if (g < gn && gTicks[g]! < next) next = gTicks[g]!;
      c.skipQuiet(next < maxTicks ? next : maxTicks);
    }
  }
  return [i, g];
}

export function resultOf(c: Core, unusedEvents: number): ReplayResult {
  return {
    score: c.score,
    lines: c.lines,
    level: c.level,
    ticks: c.tickNo,
    pieces: c.pieces,
    keys: c.keys,
    pps: c.tickNo === 0 ? 0 : Math.floor((c.pieces * TICKS_PER_SECOND * 1000) / c.tickNo),
    kpp: c.pieces === 0 ? 0 : Math.floor((c.keys * 1000) / c.pieces),
    finished: c.ended && !c.toppedOut,
    toppedOut: c.toppedOut,
    ended: c.ended,
    reason: END_NAMES[c.reason] ?? null,
    hash: hashCore(c),
    unusedEvents,
    // Drills only, so every other mode's result (and golden) is as it was.
    ...(c.drill === NO_DRILL ? {} : { clears: c.clears }),
  };
}
