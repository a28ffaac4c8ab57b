import { fromBase64Url, toBase64Url } from './base64url';
import { BitReader, BitWriter, READ_AHEAD } from './bits';
import {
  ARR_MAX, DAS_MAX, DAS_MIN, isKeyed, isRoomRules, KEYS, keysOf, MAX_EVENT_TICK, MAX_GARBAGE_SIZE, MAX_REPLAY_BYTES,
  MAX_REPLAY_ENCODED_LENGTH, MAX_REPLAY_EVENTS, MAX_SEED_LENGTH, MIN_SEED_LENGTH, NEXT_COUNT_MAX, SDF_MAX,
  SUPPORTED_RULES_VERSIONS, VERSUS_RULES_VERSIONS,
} from './constants';
import { ReplayDecodeError, ReplayError } from './errors';
import { keyId } from './keys';
import { isVersusMode, modeById, MODES } from './modes';
import type { AnyMode, GarbageEvent, Handling, Mode, Replay, ReplayEvent, RoomSeat } from './types';
import { utf8Decode, utf8Encode } from './utf8';
import { checkReplay, checkRulesVersion, checkSeat, keyNotInRules } from './validate';
import { MAX_ROOM_BLOCK_BYTES, readRoom, writeRoom } from './room-codec';
import { checkRoomSeat } from './room-rules';

/**
 * Binary replay, format 1 (README has the byte layout): "LF", format version, rules version,
 * mode, das, arr, sdf (0 = instant), flags (dasCut | nextCount << 1), seed, event count,
 * Exp-Golomb order k, then per event: Exp-Golomb_k(tick delta), 3-bit key id, 1 down bit.
 */
export const REPLAY_MAGIC = [0x4c, 0x46] as const;
export const REPLAY_FORMAT_VERSION = 1;
/**
 * Format 2 = format 1 plus, after the events in the same bit stream, the garbage events: count,
 * then per event Exp-Golomb-0(tick − previous tick) and Exp-Golomb-0(size − 1).
 */
export const VERSUS_REPLAY_FORMAT_VERSION = 2;
/**
 * Every format by its version byte: whether garbage follows the events, the width of a key id, and
 * whether the flags byte holds the seat (bit 4). Formats 3 and 4 are 1 and 2 with 4-bit key ids,
 * for the rules versions with a 9th key (decision 0019); format 5 is 4 with the seat, for keyed
 * versus rules whose holes are per seat (0020). A replay's format follows from its rules version
 * (`formatOf`), so each replay has exactly one encoding; an old format is never given another meaning.
 */
const FORMATS: Readonly<Record<number, { versus: boolean; keyBits: number; seat: boolean; room: boolean }>> = {
  1: { versus: false, keyBits: 3, seat: false, room: false },
  2: { versus: true, keyBits: 3, seat: false, room: false },
  3: { versus: false, keyBits: 4, seat: false, room: false },
  4: { versus: true, keyBits: 4, seat: false, room: false },
  5: { versus: true, keyBits: 4, seat: true, room: false },
  // Rules 7 (rooms): format 4 plus a room block after the garbage (room-codec.ts); the seat is in it.
  6: { versus: true, keyBits: 4, seat: false, room: true },
};

/** The one format a supported rules version is written in: same versus-ness and seat, narrowest key id that holds its keys. */
function formatOf(rulesVersion: number): number {
  const keyBits = 32 - Math.clz32(keysOf(rulesVersion) - 1);
  const versus = VERSUS_RULES_VERSIONS.includes(rulesVersion);
  const room = isRoomRules(rulesVersion);
  const seat = versus && isKeyed(rulesVersion) && !room;
  return Number(Object.keys(FORMATS).find((f) => {
    const l = FORMATS[Number(f)]!;
    return l.versus === versus && l.keyBits === keyBits && l.seat === seat && l.room === room;
  }));
}
const MAX_SEED_BYTES = MAX_SEED_LENGTH * 4;

/** Only the decoder makes a PackedReplay: what it holds was checked as it was read. */
const PACKED: unique symbol = Symbol('packed replay');

/** Versus garbage, packed: event i lands `sizes[i]` rows at tick `ticks[i]`, in tick order. */
export type PackedGarbage = { ticks: Int32Array; sizes: Int32Array };

/**
 * A decoded replay whose inputs are typed arrays, not objects: input i is at tick `ticks[i]`,
 * `codes[i]` = key id × 2 + down (keys.ts), ticks in order and every key one its rules version
 * plays. `garbage` is null for a solo replay.
 */
export interface PackedReplay extends PackedInputs {
  readonly [PACKED]: true;
  rulesVersion: number;
  mode: AnyMode;
  seed: string;
  handling: Handling;
  nextCount?: number;
  seat?: 0 | 1;
  garbage: PackedGarbage | null;
  /** Rules 7 only: the room's rules, the seat and its target changes. */
  room?: RoomSeat;
}
const MAX_K = 16;

export function encodeReplay(replay: Replay): string {
  const bad = checkReplay(replay) ?? checkRulesVersion(replay.rulesVersion, replay.mode) ?? checkSeat(replay.rulesVersion, replay.mode, replay.seat) ?? checkRoomSeat(replay.rulesVersion, replay.room, true) ?? checkKeys(replay);
  if (bad) throw new ReplayError('invalid_replay', bad);
  const seed = utf8Encode(replay.seed) ?? new Uint8Array(0);
  const deltas = replay.events.map((e, i) => e.tick - (i === 0 ? 0 : replay.events[i - 1]!.tick));
  const k = bestOrder(deltas);
  const w = new BitWriter();
  REPLAY_MAGIC.forEach((b) => w.byte(b));
  const versus = isVersusMode(replay.mode);
  const format = formatOf(replay.rulesVersion);
  const keyBits = FORMATS[format]!.keyBits;
  w.byte(format);
  w.varint(replay.rulesVersion);
  w.byte(MODES[replay.mode].id);
  const h = replay.handling;
  w.byte(h.das);
  w.byte(h.arr);
  w.byte(h.sdf === 'instant' ? 0 : h.sdf);
  w.byte((h.dasCut ? 1 : 0) | ((replay.nextCount ?? 0) << 1) | ((replay.seat ?? 0) << 4));
  w.varint(seed.length);
  seed.forEach((b) => w.byte(b));
  w.varint(replay.events.length);
  w.byte(k);
  replay.events.forEach((e, i) => {
    w.expGolomb(deltas[i]!, k);
    w.bits(keyId(e.key), keyBits);
    w.bit(e.down ? 1 : 0);
  });
  if (versus) writeGarbage(w, replay.garbage ?? []);
  if (replay.room) writeRoom(w, replay.room);
  return toBase64Url(w.finish());
}

function writeGarbage(w: BitWriter, garbage: readonly GarbageEvent[]): void {
  w.expGolomb(garbage.length, 0);
  garbage.forEach((g, i) => {
    w.expGolomb(g.tick - (i === 0 ? 0 : garbage[i - 1]!.tick), 0);
    w.expGolomb(g.size - 1, 0);
  });
}

function readGarbage(r: BitReader): PackedGarbage {
  const count = r.expGolomb(0, 'garbage count');
  if (count > MAX_REPLAY_EVENTS) throw new ReplayDecodeError('too_large', `more than ${MAX_REPLAY_EVENTS} garbage events`);
  // Each garbage event needs at least 2 bits: refuse before allocating for a count the data cannot hold.
  if (count * 2 > r.remainingBits) throw new ReplayDecodeError('truncated', `data too short for ${count} garbage events`);
  const ticks = new Int32Array(count);
  const sizes = new Int32Array(count);
  let tick = 0;
  for (let i = 0; i < count; i++) {
    tick += r.expGolomb(0, 'garbage tick');
    if (tick > MAX_EVENT_TICK) throw invalid(`garbage ${i}: tick exceeds ${MAX_EVENT_TICK}`);
    const size = r.expGolomb(0, 'garbage size') + 1;
    if (size > MAX_GARBAGE_SIZE) throw invalid(`garbage ${i}: size must be at most ${MAX_GARBAGE_SIZE}`);
    ticks[i] = tick;
    sizes[i] = size;
  }
  return { ticks, sizes };
}

/** Bytes a replay's header can take at most: magic, versions, mode, handling, flags, the longest seed, counts, k. */
const MAX_HEADER_BYTES = 2 + 1 + 5 + 1 + 4 + 2 + MAX_SEED_BYTES + 3 + 1;
/** Bits of Exp-Golomb order 0 for v ≥ 0. */
const eg0Bits = (v: number): number => 2 * (32 - Math.clz32(v + 1)) - 1;

/**
 * A bound on a replay's encoded size, kept as its inputs and garbage arrive: what a live host
 * checks so that a stream it accepted can always be encoded and stored (a replay over
 * MAX_REPLAY_EVENTS or MAX_REPLAY_BYTES cannot be). It counts the event deltas at Exp-Golomb order
 * 0, which the encoder's chosen order never exceeds, and the longest header.
 */
export class ReplaySizeBound {
  events = 0;
  garbage = 0;
  private bits = 0;
  private lastTick = 0;
  private lastGarbageTick = 0;
  private readonly eventBits: number;
  private readonly roomBytes: number;
  private targets = 0;
  private lastTargetTick = 0;

  constructor(rulesVersion: number) {
    this.eventBits = FORMATS[formatOf(rulesVersion)]!.keyBits + 1;
    this.roomBytes = isRoomRules(rulesVersion) ? MAX_ROOM_BLOCK_BYTES : 0;
  }

  /** A room seat's target change (rules 7). */
  addTarget(tick: number, target: number): void {
    this.bits += eg0Bits(tick - this.lastTargetTick) + eg0Bits(target);
    this.lastTargetTick = tick;
    this.targets++;
  }

  addEvent(tick: number): void {
    this.bits += eg0Bits(tick - this.lastTick) + this.eventBits;
    this.lastTick = tick;
    this.events++;
  }

  addGarbage(tick: number, size: number): void {
    this.bits += eg0Bits(tick - this.lastGarbageTick) + eg0Bits(size - 1);
    this.lastGarbageTick = tick;
    this.garbage++;
  }

  /** At least the encoded replay's bytes (before base64url). */
  get bytes(): number {
    return MAX_HEADER_BYTES + this.roomBytes + Math.ceil((this.bits + eg0Bits(this.garbage) + eg0Bits(this.targets)) / 8);
  }

  /** Whether the replay so far (garbage count included) is sure to encode. */
  get fits(): boolean {
    return this.events <= MAX_REPLAY_EVENTS && this.garbage <= MAX_REPLAY_EVENTS && this.targets <= MAX_REPLAY_EVENTS && this.bytes <= MAX_REPLAY_BYTES;
  }
}

/**
 * The order k that codes the tick deltas in the fewest bits (the smallest such k on a tie). The
 * encoder always writes it, so the decoder accepts no other: one replay, one string.
 */
export function bestOrder(deltas: ArrayLike<number>): number {
  const orders = new OrderCounts();
  for (let i = 0; i < deltas.length; i++) orders.add(deltas[i]!);
  return orders.best();
}

/**
 * Tick deltas counted so that every order's cost follows from the counts: the decoder counts as it
 * reads, with no second pass. An order-k code of d takes 2·bitLength(d + 2^k) − 1 − k bits. With
 * L = bitLength(d): bitLength(d + 2^k) is k + 1 when k ≥ L, and L, or L + 1 when bits k…L−1 of d
 * are all ones (the add carries out), when k < L. So a delta's cost at every k follows from L and
 * its highest zero bit below L, and the deltas are counted by those two numbers.
 */
class OrderCounts {
  private readonly counts = new Int32Array(33 * 33);
  private readonly used: number[] = [];

  add(d: number): void {
    const L = 32 - Math.clz32(d);
    const zeros = ~d & (L === 32 ? -1 : (1 << L) - 1);
    const slot = L * 33 + (zeros === 0 ? 0 : 32 - Math.clz32(zeros)); // highest zero bit + 1
    if (this.counts[slot] === 0) this.used.push(slot);
    this.counts[slot]!++;
  }

  best(): number {
    let best = 0;
    let bestBits = Infinity;
    for (let k = 0; k <= MAX_K; k++) {
      let bits = 0;
      for (const slot of this.used) {
        const L = (slot / 33) | 0;
        const carryFrom = slot % 33; // k ≥ carryFrom (and k < L) carries
        const len = k >= L ? k + 1 : k >= carryFrom ? L + 1 : L;
        bits += this.counts[slot]! * (2 * len - 1 - k);
      }
      if (bits < bestBits) [best, bestBits] = [k, bits];
    }
    return best;
  }
}

const invalid = (msg: string): ReplayDecodeError => new ReplayDecodeError('invalid_field', msg);

/** Throws only ReplayDecodeError; work and memory are bounded by MAX_REPLAY_BYTES / MAX_REPLAY_EVENTS. */
export function decodeReplay(data: string): Replay {
  return unpackReplay(decodePackedReplay(data));
}

/**
 * decodeReplay without an object per input: what verification simulates (simulatePacked). Throws
 * only ReplayDecodeError, on exactly the strings decodeReplay refuses.
 */
export function decodePackedReplay(data: string): PackedReplay {
  try {
    return decode(data);
  } catch (e) {
    if (e instanceof ReplayDecodeError) throw e;
    throw new ReplayDecodeError('bad_encoding', `unreadable replay: ${e instanceof Error ? e.message : 'unknown error'}`);
  }
}

/** Inputs in typed arrays: input i at tick `ticks[i]`, `codes[i]` = key id × 2 + down. */
export type PackedInputs = { ticks: Int32Array; codes: Uint8Array };

/** Replay events packed (events of known keys, as a Replay holds): for code that reads inputs packed. */
export function packEvents(events: readonly ReplayEvent[]): PackedInputs {
  const ticks = new Int32Array(events.length);
  const codes = new Uint8Array(events.length);
  events.forEach((e, i) => {
    ticks[i] = e.tick;
    codes[i] = keyId(e.key) * 2 + (e.down ? 1 : 0);
  });
  return { ticks, codes };
}

/** A packed replay's inputs and garbage as objects: the Replay decodeReplay returns. */
export function unpackReplay(p: PackedReplay): Replay {
  const { ticks, codes, garbage } = p;
  const events: ReplayEvent[] = new Array(ticks.length);
  for (let i = 0; i < ticks.length; i++) events[i] = { tick: ticks[i]!, key: KEYS[codes[i]! >> 1]!, down: (codes[i]! & 1) === 1 };
  const { rulesVersion, mode, seed, handling, nextCount, seat, room } = p;
  return {
    rulesVersion, mode, seed, handling, ...(nextCount === undefined ? {} : { nextCount }), events,
    ...(garbage ? { garbage: Array.from(garbage.ticks, (tick, i) => ({ tick, size: garbage.sizes[i]! })) } : {}),
    ...(seat === undefined ? {} : { seat }),
    ...(room === undefined ? {} : { room }),
  };
}

function decode(data: string): PackedReplay {
  if (typeof data !== 'string') throw new ReplayDecodeError('bad_encoding', 'replay data must be a string');
  if (data.length > MAX_REPLAY_ENCODED_LENGTH)
    throw new ReplayDecodeError('too_large', `replay is longer than ${MAX_REPLAY_BYTES} bytes`);
  const bytes = fromBase64Url(data, READ_AHEAD);
  if (!bytes) throw new ReplayDecodeError('bad_encoding', 'replay is not unpadded base64url');
  const r = new BitReader(bytes, bytes.length - READ_AHEAD);
  for (const m of REPLAY_MAGIC) if (r.byte('magic') !== m) throw new ReplayDecodeError('bad_magic', 'not a Linefall replay');
  const format = r.byte('format version');
  const layout = Object.hasOwn(FORMATS, format) ? FORMATS[format]! : null;
  if (!layout) throw new ReplayDecodeError('unsupported_version', `replay format ${format} is not supported`);
  const { versus, keyBits, seat: seated } = layout;
  const rulesVersion = r.varint('rules version', 0x7fffffff);
  if (!SUPPORTED_RULES_VERSIONS.includes(rulesVersion) || formatOf(rulesVersion) !== format)
    throw new ReplayDecodeError('unsupported_version', `rules version ${rulesVersion} is not supported in replay format ${format}`);
  const keyCount = keysOf(rulesVersion);
  const mode = modeById(r.byte('mode'));
  if (!mode) throw invalid('mode is not a known mode');
  if (isVersusMode(mode) !== versus) throw invalid(`mode ${mode} is not played in replay format ${format}`);
  // What encodeReplay refuses, decoding refuses too: a mode its rules version does not play (Dig
  // needs the keyed hole stream), so every replay that decodes re-encodes to the same text.
  const unplayed = checkRulesVersion(rulesVersion, mode);
  if (unplayed) throw invalid(unplayed);
  const handling = readHandling(r);
  const flags = r.byte('flags');
  if (flags >> (seated ? 5 : 4) !== 0) throw invalid('flags has reserved bits set');
  const seat = seated ? ((flags >> 4) as 0 | 1) : null;
  const nextCount = (flags >> 1) & 7;
  if (nextCount > NEXT_COUNT_MAX) throw invalid(`nextCount must be at most ${NEXT_COUNT_MAX}`);
  handling.dasCut = (flags & 1) === 1;
  const seedLen = r.varint('seed length', MAX_SEED_BYTES);
  const seedBytes = new Uint8Array(seedLen);
  for (let i = 0; i < seedLen; i++) seedBytes[i] = r.byte('seed');
  const seed = utf8Decode(seedBytes);
  if (seed === null) throw invalid('seed is not valid UTF-8');
  if (seed.length < MIN_SEED_LENGTH || seed.length > MAX_SEED_LENGTH)
    throw invalid(`seed must be ${MIN_SEED_LENGTH}–${MAX_SEED_LENGTH} characters`);
  const count = r.varint('event count', 0x7fffffff);
  if (count > MAX_REPLAY_EVENTS) throw new ReplayDecodeError('too_large', `more than ${MAX_REPLAY_EVENTS} events`);
  const k = r.byte('event order');
  if (k > MAX_K) throw invalid(`event order must be at most ${MAX_K}`);
  // Each event needs at least keyBits + 2 bits: refuse before allocating for a count the data cannot hold.
  if (count * (keyBits + 2) > r.remainingBits) throw new ReplayDecodeError('truncated', `data too short for ${count} events`);
  const ticks = new Int32Array(count);
  const codes = new Uint8Array(count);
  const orders = new OrderCounts();
  let tick = 0;
  let i = 0;
  try {
    // Fixed labels: building one string per field per event was most of the decoding time.
    for (; i < count; i++) {
      // The tick gap, then the key id and the down bit: one look at the data for all three.
      const delta = r.expGolombThen(k, keyBits + 1, 'tick', 'key');
      tick += delta;
      if (tick > MAX_EVENT_TICK) throw invalid(`tick exceeds ${MAX_EVENT_TICK}`);
      orders.add(delta);
      const keyAndDown = r.after;
      if (keyAndDown >> 1 >= keyCount) throw invalid(`key ${keyAndDown >> 1} is not a key of rules version ${rulesVersion}`);
      ticks[i] = tick;
      codes[i] = keyAndDown;
    }
  } catch (e) {
    if (e instanceof ReplayDecodeError) throw new ReplayDecodeError(e.code, `event ${i}: ${e.message}`);
    throw e;
  }
  const garbage = versus ? readGarbage(r) : null;
  const room = layout.room ? readRoom(r, rulesVersion) : null;
  r.end();
  // Any order decodes, but only the encoder's choice is canonical: a second spelling of the same
  // replay would get a different digest and slip past the server's repeat detection.
  const canonical = orders.best();
  if (k !== canonical) throw invalid(`event order ${k} is not the canonical ${canonical}`);
  return {
    [PACKED]: true, rulesVersion, mode, seed, handling, ...(nextCount === 0 ? {} : { nextCount }), ticks, codes, garbage,
    ...(seat === null ? {} : { seat }),
    ...(room === null ? {} : { room }),
  };
}

/** A known key the rules version does not play cannot be written: the format may have no id for it. */
function checkKeys(replay: Replay): string | null {
  const count = keysOf(replay.rulesVersion);
  const i = replay.events.findIndex((e) => keyId(e.key) >= count);
  return i < 0 ? null : `events[${i}]: ${keyNotInRules(replay.events[i]!.key, replay.rulesVersion)}`;
}

/** A replay of a solo mode: what boards, the solo viewer, ghosts and the sandbox accept. */
export type SoloReplay = Replay & { mode: Mode };

/** decodeReplay for places that only play solo games: a versus replay is refused as invalid_field. */
export function decodeSoloReplay(data: string): SoloReplay {
  return unpackReplay(decodeSoloPacked(data)) as SoloReplay;
}

/** decodePackedReplay for places that only play solo games (verification of a ticket's replay). */
export function decodeSoloPacked(data: string): PackedReplay & { mode: Mode } {
  const replay = decodePackedReplay(data);
  if (isVersusMode(replay.mode)) throw invalid(`a ${replay.mode} replay is a versus replay, not a solo game`);
  return replay as PackedReplay & { mode: Mode };
}

function readHandling(r: BitReader): Handling {
  const das = r.byte('das');
  if (das < DAS_MIN || das > DAS_MAX) throw invalid(`das must be ${DAS_MIN}–${DAS_MAX}`);
  const arr = r.byte('arr');
  if (arr > ARR_MAX) throw invalid(`arr must be at most ${ARR_MAX}`);
  const sdf = r.byte('sdf');
  if (sdf > SDF_MAX) throw invalid(`sdf must be at most ${SDF_MAX}`);
  return { das, arr, sdf: sdf === 0 ? 'instant' : sdf, dasCut: false };
}
