/**
 * Everything a replay's meaning depends on. Bump RULES_VERSION whenever any table, the PRNG, the
 * tick order or the scoring changes: old replays must keep verifying under the rules they were
 * played with.
 */
export const RULES_VERSION = 1;
/**
 * Versus rules: version 1 plus the attack table, the garbage queue and garbage replay events
 * (attack.ts, garbage.ts). Only versus modes are played under it, and versus modes only under it.
 */
export const VERSUS_RULES_VERSION = 2;
export const VERSUS_RULES_VERSIONS: readonly number[] = [2];
export const SUPPORTED_RULES_VERSIONS: readonly number[] = [1, 2];

export const TICKS_PER_SECOND = 60;

/** Key ids are their index here; the binary replay format stores the index. */
export const KEYS = ['left', 'right', 'softDrop', 'hardDrop', 'rotateCW', 'rotateCCW', 'rotate180', 'hold'] as const;
/** Piece ids are their index here; hashes and the queue store the index. */
export const PIECES = ['I', 'O', 'T', 'S', 'Z', 'J', 'L'] as const;
export const ROTATIONS = ['0', 'R', '2', 'L'] as const;
/** Solo modes: the boards, play pages and tickets list these. */
export const MODE_NAMES = ['marathon', 'sprint', 'ultra'] as const;
/** Two-player modes (garbage battles): never a solo board or play page. */
export const VERSUS_MODE_NAMES = ['battle', 'race30'] as const;
/** Every mode; a mode's id is its index here (binary replay format), so solo ids stay 0–2. */
export const ALL_MODE_NAMES = [...MODE_NAMES, ...VERSUS_MODE_NAMES] as const;

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
