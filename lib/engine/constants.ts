/**
 * Every rules version a replay may name, and what each plays: versus or solo modes, how many of
 * KEYS (from the start) its inputs may use, the generator behind its pieces and garbage holes, and
 * (versus) when incoming garbage can rise. Old replays must keep verifying under the rules they
 * were played with, so a version is never edited once games exist under it: a rule change is a new
 * entry, and the goldens of the old one stay as they are.
 *
 * 1: the solo rules of the README. 2: version 1 plus the attack table, the garbage queue and
 * garbage replay events (attack.ts, garbage.ts; decision 0012). 3 and 4: versions 1 and 2 plus the
 * `rowDown` key (moves.ts; decision 0019). 5 and 6: versions 3 and 4 with pieces and holes from
 * ChaCha20 keyed by the whole seed (keystream.ts), and in 6 incoming garbage that rises only
 * GARBAGE_DELAY_TICKS after it was sent, with no acknowledgement (garbage.ts; decision 0020).
 *
 * `randomizer`: 'mulberry32' is rng.ts (a 32-bit state: readable from a few dealt pieces),
 * 'chacha20' is keystream.ts. 7: version 6 played in a room of 2–16 seats, every garbage rule
 * taken from the room's rules object (room-rules.ts; its garbageDelay replaces the one here;
 * decision 0031). `garbageDelay`: null where the receiver acknowledges garbage
 * (versions 2 and 4, match.ts ACK_DEADLINE_TICKS), else the ticks from sending to rising.
 */
export const RULES = {
  1: { versus: false, keys: 8, randomizer: 'mulberry32', garbageDelay: null },
  2: { versus: true, keys: 8, randomizer: 'mulberry32', garbageDelay: null },
  3: { versus: false, keys: 9, randomizer: 'mulberry32', garbageDelay: null },
  4: { versus: true, keys: 9, randomizer: 'mulberry32', garbageDelay: null },
  5: { versus: false, keys: 9, randomizer: 'chacha20', garbageDelay: null },
  6: { versus: true, keys: 9, randomizer: 'chacha20', garbageDelay: 30 },
  7: { versus: true, keys: 9, randomizer: 'chacha20', garbageDelay: 30, room: true },
} as const satisfies Record<number, { versus: boolean; keys: number; randomizer: 'mulberry32' | 'chacha20'; garbageDelay: number | null; room?: true }>;
export type RulesVersion = keyof typeof RULES;
/** What new solo games are played under. */
export const RULES_VERSION: RulesVersion = 5;
/** What new versus games are played under; versus modes are played only under a versus version, solo modes never. */
export const VERSUS_RULES_VERSION: RulesVersion = 6;
export const SUPPORTED_RULES_VERSIONS: readonly number[] = Object.keys(RULES).map(Number);
export const VERSUS_RULES_VERSIONS: readonly number[] = SUPPORTED_RULES_VERSIONS.filter((v) => RULES[v as RulesVersion].versus);

/** How many of KEYS a supported rules version plays; 0 for an unknown version. */
export function keysOf(rulesVersion: number): number {
  return Object.hasOwn(RULES, rulesVersion) ? RULES[rulesVersion as RulesVersion].keys : 0;
}

/** Whether a supported rules version draws from the keyed generator (keystream.ts). */
export function isKeyed(rulesVersion: number): boolean {
  return Object.hasOwn(RULES, rulesVersion) && RULES[rulesVersion as RulesVersion].randomizer === 'chacha20';
}

/** Whether a rules version is played in rooms, its garbage rules from a room rules object (room-rules.ts). */
export function isRoomRules(rulesVersion: number): boolean {
  return Object.hasOwn(RULES, rulesVersion) && 'room' in RULES[rulesVersion as RulesVersion];
}

/** The ticks from sending to rising under a versus rules version; null where the receiver acknowledges garbage. */
export function garbageDelayOf(rulesVersion: number): number | null {
  return Object.hasOwn(RULES, rulesVersion) ? RULES[rulesVersion as RulesVersion].garbageDelay : null;
}

export const TICKS_PER_SECOND = 60;

/**
 * Key ids are their index here; the binary replay format stores the index. Only append: a rules
 * version plays the first `RULES[v].keys` of them.
 */
export const KEYS = ['left', 'right', 'softDrop', 'hardDrop', 'rotateCW', 'rotateCCW', 'rotate180', 'hold', 'rowDown'] as const;
/** Piece ids are their index here; hashes and the queue store the index. */
export const PIECES = ['I', 'O', 'T', 'S', 'Z', 'J', 'L'] as const;
export const ROTATIONS = ['0', 'R', '2', 'L'] as const;
/** Solo modes: the boards, play pages and tickets list these, in this order. A mode's id is in its `MODES` entry. */
export const MODE_NAMES = ['marathon', 'sprint', 'ultra', 'tsd20', 'pc', 'zen', 'dig10', 'dig18', 'dig100', 'survival'] as const;
/** Two-player modes (garbage battles): never a solo board or play page. */
export const VERSUS_MODE_NAMES = ['battle', 'race30'] as const;

// Validation bounds, shared with the server's zod schemas and the settings UI.
export const MIN_SEED_LENGTH = 1;
/** In UTF-16 code units (JS string length). */
export const MAX_SEED_LENGTH = 64;
export const DAS_MIN = 1;
export const DAS_MAX = 20;
/** 0 means "instant": a charged direction moves to the wall every tick. */
export const ARR_MIN = 0;
export const ARR_MAX = 5;
export const SDF_MIN = 1;
export const SDF_MAX = 40;
export const NEXT_COUNT_MIN = 1;
export const NEXT_COUNT_MAX = 6;
export const DEFAULT_NEXT_COUNT = 5;
/** simulateReplay's default tick budget: one hour. */
export const MAX_REPLAY_TICKS = 216_000;
export const MAX_REPLAY_EVENTS = 100_000;
/** Largest event tick a replay may carry (fits an int32). */
export const MAX_EVENT_TICK = 0x7fffffff;
/** Decoded binary size cap; the base64url text cap follows from it. */
export const MAX_REPLAY_BYTES = 131_072;
/** Garbage rows one replay event may carry: more than any one lock can send (attack.ts). */
export const MAX_GARBAGE_SIZE = 64;
export const MAX_REPLAY_ENCODED_LENGTH = Math.ceil((MAX_REPLAY_BYTES * 4) / 3);
