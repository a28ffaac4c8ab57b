/**
 * The fuzz corpus: real games played by the test bot, and fast-check arbitraries that break them
 * two ways — as bytes of the encoded replay (bit flips, truncation, extension, splices, bad
 * characters) and as structure (events reordered, duplicated, dropped, moved to extreme ticks;
 * wrong seeds, modes, rules versions and handling; bursts; inputs after the end), re-encoded with
 * encodeReplay. Shared by tests/fuzz/bytes.fuzz.test.ts, structured.fuzz.test.ts and bench/fuzz.bench.ts.
 */
import fc from 'fast-check';
import {
  encodeReplay, KEYS, MAX_EVENT_TICK, MODE_NAMES, ReplayError, simulateReplay, SUPPORTED_RULES_VERSIONS,
  type Handling, type Replay, type ReplayEvent,
} from '@/lib/engine';
import { fromBase64Url, toBase64Url } from '@/lib/engine/base64url';
import { REPLAY_MAGIC } from '@/lib/engine/codec';
import { MAX_GAME_TICKS } from '@/lib/server/games/policy';
import { playGame } from '@/tests/support/bot';
import { CASUAL_HUMAN, FAST_HUMAN } from '@/tests/support/human';
import { hardDropGame, idleGame } from '@/tests/support/replays';

// A rules version no build knows yet (1 is solo's, 2 versus's).
const NEXT_RULES_VERSION = Math.max(...SUPPORTED_RULES_VERSIONS) + 1;

export type Claim = { score: number; lines: number; ticks: number };
export type Base = { replay: Replay; text: string; claimed: Claim };
export type FuzzCase = { kind: string; base: number; text: string; claimed: Claim };

const claimOf = (r: { score: number; lines: number; ticks: number }): Claim => ({ score: r.score, lines: r.lines, ticks: r.ticks });
const based = ({ replay, result }: { replay: Replay; result: Claim }): Base => ({ replay, text: encodeReplay(replay), claimed: claimOf(result) });

/** Short and long, every mode, odd handling, ended by goal, time and top-out. */
export const BASES: readonly Base[] = [
  based(playGame({ mode: 'sprint', seed: 'fuzz-robot' })),
  based(playGame({ mode: 'sprint', seed: 'fuzz-human', human: FAST_HUMAN })),
  based(playGame({ mode: 'sprint', seed: 'fuzz-spins', spins: true, softDrop: true, handling: { das: 7, arr: 1, sdf: 40, dasCut: true } })),
  based(playGame({ mode: 'marathon', seed: 'fuzz-arr0', maxPieces: 40, nextCount: 3, handling: { das: 4, arr: 0, sdf: 'instant', dasCut: false } })),
  based(playGame({ mode: 'marathon', seed: 'fuzz-casual', maxPieces: 25, human: CASUAL_HUMAN })),
  based(playGame({ mode: 'ultra', seed: 'fuzz-ultra', human: CASUAL_HUMAN, handling: { das: 20, arr: 5, sdf: 1, dasCut: true } })),
  based(hardDropGame('marathon', 'fuzz-drop-m')),
  based(hardDropGame('ultra', 'fuzz-drop-u')),
  based(idleGame('sprint', 'fuzz-idle')),
];

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length]!;

// ---- byte level ----

type ByteOp =
  | { t: 'flip'; pos: number; bit: number }
  | { t: 'truncate'; pos: number }
  | { t: 'extend'; bytes: number[] }
  | { t: 'set'; pos: number; value: number }
  | { t: 'splice'; from: number; start: number; length: number; at: number }
  | { t: 'char'; pos: number; ch: string };

const byteOp: fc.Arbitrary<ByteOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('flip' as const), pos: fc.nat(), bit: fc.nat({ max: 7 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('truncate' as const), pos: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('extend' as const), bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 12 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('set' as const), pos: fc.nat(), value: fc.constantFrom(0, 1, 0x7f, 0x80, 0xfe, 0xff) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('splice' as const), from: fc.nat(), start: fc.nat(), length: fc.nat({ max: 64 }), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('char' as const), pos: fc.nat(), ch: fc.constantFrom('=', '+', '/', ' ', '\n', 'é', '\u0000', 'A', '_') }) },
);

function applyBytes(text: string, ops: readonly ByteOp[]): string {
  let bytes = Array.from(fromBase64Url(text)!);
  let chars: { pos: number; ch: string } | null = null;
  for (const op of ops) {
    const at = (p: number) => (bytes.length === 0 ? 0 : p % bytes.length);
    if (op.t === 'flip' && bytes.length) bytes[at(op.pos)]! ^= 1 << op.bit;
    else if (op.t === 'truncate') bytes = bytes.slice(0, at(op.pos));
    else if (op.t === 'extend') bytes.push(...op.bytes);
    else if (op.t === 'set' && bytes.length) bytes[at(op.pos)] = op.value;
    else if (op.t === 'splice') {
      const donor = Array.from(fromBase64Url(pick(BASES, op.from).text)!);
      const start = op.start % donor.length;
      bytes.splice(at(op.at), op.length % 8, ...donor.slice(start, start + op.length));
    } else if (op.t === 'char') chars = op;
  }
  const out = toBase64Url(Uint8Array.from(bytes));
  if (!chars || out.length === 0) return out;
  const p = chars.pos % out.length;
  return out.slice(0, p) + chars.ch + out.slice(p + 1);
}

export const byteCase: fc.Arbitrary<FuzzCase> = fc
  .record({ base: fc.nat({ max: BASES.length - 1 }), ops: fc.array(byteOp, { minLength: 1, maxLength: 4 }) })
  .map(({ base, ops }) => ({ kind: `bytes:${ops.map((o) => o.t).join('+')}`, base, text: applyBytes(BASES[base]!.text, ops), claimed: BASES[base]!.claimed }));

// ---- structured ----

type EventOp =
  | { t: 'swap'; i: number; j: number }
  | { t: 'move'; i: number; j: number }
  | { t: 'duplicate'; i: number }
  | { t: 'drop'; i: number; n: number }
  | { t: 'shift'; i: number; delta: number }
  | { t: 'key'; i: number; key: number; down: boolean }
  | { t: 'burst'; i: number; n: number; key: number }
  | { t: 'cut'; i: number }
  | { t: 'after'; n: number; gap: number }
  | { t: 'seed'; s: string }
  | { t: 'mode'; m: number }
  | { t: 'rules'; v: number }
  | { t: 'handling'; h: Handling; next: number };

const handlingArb: fc.Arbitrary<Handling> = fc.record({
  das: fc.oneof(fc.constantFrom(1, 20), fc.integer({ min: 1, max: 20 })),
  arr: fc.integer({ min: 0, max: 5 }),
  sdf: fc.oneof(fc.constant('instant' as const), fc.constantFrom(1, 40), fc.integer({ min: 1, max: 40 })),
  dasCut: fc.boolean(),
});

const eventOp: fc.Arbitrary<EventOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('swap' as const), i: fc.nat(), j: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('move' as const), i: fc.nat(), j: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('duplicate' as const), i: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('drop' as const), i: fc.nat(), n: fc.integer({ min: 1, max: 8 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('shift' as const),
      i: fc.nat(),
      delta: fc.oneof(fc.integer({ min: -30, max: 30 }), fc.constantFrom(MAX_EVENT_TICK, 2 ** 20, MAX_GAME_TICKS, -(2 ** 31))),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('key' as const), i: fc.nat(), key: fc.nat({ max: KEYS.length - 1 }), down: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('burst' as const), i: fc.nat(), n: fc.integer({ min: 1, max: 16 }), key: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('cut' as const), i: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('after' as const), n: fc.integer({ min: 1, max: 4 }), gap: fc.nat({ max: 100 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('seed' as const), s: fc.string({ minLength: 1, maxLength: 64 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('mode' as const), m: fc.nat({ max: MODE_NAMES.length - 1 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('rules' as const), v: fc.constantFrom(0, ...SUPPORTED_RULES_VERSIONS, NEXT_RULES_VERSION, 127, 128, 0x7fffffff) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('handling' as const), h: handlingArb, next: fc.nat({ max: 6 }) }) },
);

/** Applies one change, keeping ticks non-decreasing and within MAX_EVENT_TICK so the replay still encodes. */
function applyEvent(r: Replay, op: EventOp): void {
  const ev = r.events;
  const n = ev.length;
  const at = (i: number) => i % Math.max(n, 1);
  const clampFrom = (from: number) => {
    for (let k = Math.max(from, 0); k < ev.length; k++) {
      const lo = k === 0 ? 0 : ev[k - 1]!.tick;
      ev[k] = { ...ev[k]!, tick: Math.min(MAX_EVENT_TICK, Math.max(lo, ev[k]!.tick)) };
    }
  };
  switch (op.t) {
    case 'swap': {
      if (!n) return;
      const [a, b] = [ev[at(op.i)]!, ev[at(op.j)]!];
      ev[at(op.i)] = { ...a, key: b.key, down: b.down };
      ev[at(op.j)] = { ...b, key: a.key, down: a.down };
      return;
    }
    case 'move': {
      if (!n) return;
      const [e] = ev.splice(at(op.i), 1);
      const j = op.j % (ev.length + 1);
      ev.splice(j, 0, { ...e!, tick: j === 0 ? 0 : ev[j - 1]!.tick });
      return clampFrom(j);
    }
    case 'duplicate':
      if (n) ev.splice(at(op.i), 0, { ...ev[at(op.i)]! });
      return;
    case 'drop':
      ev.splice(at(op.i), op.n);
      return;
    case 'shift':
      for (let k = at(op.i); k < n; k++) ev[k] = { ...ev[k]!, tick: Math.min(MAX_EVENT_TICK, Math.max(0, ev[k]!.tick + op.delta)) };
      return clampFrom(at(op.i));
    case 'key':
      if (n) ev[at(op.i)] = { ...ev[at(op.i)]!, key: KEYS[op.key]!, down: op.down };
      return;
    case 'burst': {
      const tick = n ? ev[at(op.i)]!.tick : 0;
      const burst: ReplayEvent[] = Array.from({ length: op.n }, (_, k) => ({ tick, key: pick(KEYS, op.key + k), down: k % 2 === 0 }));
      ev.splice(n ? at(op.i) : 0, 0, ...burst);
      return;
    }
    case 'cut':
      ev.length = at(op.i);
      return;
    case 'after': {
      const last = n ? ev[n - 1]!.tick : 0;
      for (let k = 0; k < op.n; k++) ev.push({ tick: Math.min(MAX_EVENT_TICK, last + op.gap + k), key: 'hardDrop', down: k % 2 === 0 });
      return;
    }
    case 'seed':
      r.seed = op.s;
      return;
    case 'mode':
      r.mode = MODE_NAMES[op.m]!;
      return;
    case 'rules':
      r.rulesVersion = op.v;
      return;
    case 'handling':
      r.handling = op.h;
      if (op.next === 0) delete r.nextCount;
      else r.nextCount = op.next;
  }
}

/** What the player claims: the original result, one nudged field, or whatever the fast path computes for the mutant. */
type ClaimMode = 'base' | 'nudge' | 'fast';

function claimFor(mode: ClaimMode, base: Base, replay: Replay, nudge: number): Claim {
  if (mode === 'base') return base.claimed;
  if (mode === 'nudge') {
    const c = { ...base.claimed };
    const field = (['score', 'lines', 'ticks'] as const)[nudge % 3]!;
    c[field] += nudge % 2 === 0 ? 1 : -1;
    return c;
  }
  try {
    return claimOf(simulateReplay(replay, { maxTicks: MAX_GAME_TICKS }));
  } catch (e) {
    if (e instanceof ReplayError) return base.claimed;
    throw e;
  }
}

/** The encoded replay with another rules version written in its header (after magic and format byte). */
function withRulesVersion(text: string, version: number): string {
  const bytes = fromBase64Url(text)!;
  const at = REPLAY_MAGIC.length + 1;
  const varint: number[] = [];
  let v = version;
  do {
    varint.push(v % 128 | (v >= 128 ? 128 : 0));
    v = Math.floor(v / 128);
  } while (v > 0);
  let end = at;
  while (bytes[end]! & 128) end++;
  return toBase64Url(Uint8Array.from([...bytes.slice(0, at), ...varint, ...bytes.slice(end + 1)]));
}

export const structuredCase: fc.Arbitrary<FuzzCase> = fc
  .record({
    base: fc.nat({ max: BASES.length - 1 }),
    ops: fc.array(eventOp, { minLength: 1, maxLength: 3 }),
    claim: fc.constantFrom<ClaimMode>('base', 'nudge', 'fast', 'fast'),
    nudge: fc.nat({ max: 5 }),
  })
  .map(({ base, ops, claim, nudge }) => {
    const b = BASES[base]!;
    const replay: Replay = { ...b.replay, handling: { ...b.replay.handling }, events: b.replay.events.map((e) => ({ ...e })) };
    for (const op of ops) applyEvent(replay, op);
    let text: string;
    try {
      text = encodeReplay(replay);
    } catch (e) {
      // A seed the format cannot hold (e.g. a lone surrogate), or a rules version encodeReplay will
      // not write (only a supported version has a format, since versus added format 2): fall back
      // to the base's. The byte-level fuzz still hands the decoder every version number.
      if (!(e instanceof ReplayError)) throw e;
      const rulesVersion = replay.rulesVersion;
      replay.seed = b.replay.seed;
      replay.rulesVersion = b.replay.rulesVersion;
      text = withRulesVersion(encodeReplay(replay), rulesVersion);
    }
    return { kind: `struct:${ops.map((o) => o.t).join('+')}:${claim}`, base, text, claimed: claimFor(claim, b, replay, nudge) };
  });
