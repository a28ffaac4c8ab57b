/**
 * A game's state as plain data, for a spectator: what a late watcher starts from instead of the
 * whole input log, so a catch-up costs the same at minute 50 as at second 5. It is what the player
 * can see (board and colours, piece, hold, the pieces dealt past the current one, counters, held
 * keys and every timer) and never the generators: restored, it is a DealtGame, which plays the
 * pieces the server deals, as the player's own browser does.
 *
 *   const state = sim.state(dealt.slice(sim.taken));        // the server's seeded stream (stream.ts)
 *   const game = restoreDealtGame({ mode, handling, nextCount }, state);
 *   game.deal(game.dealt, morePieces); game.tick(inputs);  // same play hash as the server's game
 */
import { COLS, EMPTY_ROW, PAD, TOTAL_ROWS } from './board';
import { PIECES, ROTATIONS } from './constants';
import type { Core } from './core';
import { END_NAMES } from './ends';
import { dealtGameOf, type DealtGame, type DealtGameConfig } from './deal';
import { GameConfigError } from './errors';
import { DealtQueue, QUEUE_CAP } from './queue';
import { CELL_CHARS, createCore } from './setup';
import type { PieceType } from './types';

type CoreField = { [K in keyof Core]: Core[K] extends (...args: never[]) => unknown ? never : K }[keyof Core];

/**
 * Where each field of Core goes, in one place. The compiler holds it complete: a field added to
 * Core is an error here until it is placed, and the round-trip test (tests/engine/state.test.ts)
 * compares play hashes, so a field placed wrong fails it.
 * - int, bool: carried as they are; ints: a list of integers;
 * - cells: the colours, as CELL_CHARS text (the collision rows are rebuilt from it);
 * - dealt: the queue, as the pieces taken and those dealt past the current one (never a generator);
 *   in Dig the hole columns dealt past the rows risen, likewise;
 * - level: recomputed from the level; config: the game's settings, given to restore;
 * - transient: a cache or the events of a tick in progress;
 * - secret: a generator (the keyed hole stream of rules 6): never carried, as the seed is not;
 * - versus: carried in versus modes only. Under rules 2 and 4 the hole generator's state is a hash
 *   of the seed with a known suffix, and FNV-1a runs backwards: it gives the piece generator away,
 *   so a solo game's state never carries it. Rules 6 draws holes from `holeStream` and leaves it 0.
 */
export const STATE_FIELDS = {
  piece: 'int', rot: 'int', x: 'int', y: 'int', slot: 'int', hold: 'int', holdUsed: 'bool',
  tickNo: 'int', score: 'int', lines: 'int', level: 'int', combo: 'int', b2b: 'bool', pieces: 'int', keys: 'int',
  ended: 'bool', toppedOut: 'bool', reason: 'int',
  held: 'int', dir: 'int', dasTicks: 'int', arrTimer: 'int',
  gravAcc: 'int', lockTimer: 'int', resets: 'int', lowestY: 'int', lastRotated: 'bool', lastKick: 'int', lastTurn: 'int',
  holeCol: 'int', sent: 'int', received: 'int', garbageQueue: 'ints', garbageLands: 'ints', clears: 'int',
  cheeseIn: 'int', cheeseRisen: 'int', cheeseCleared: 'int', cheese: 'config',
  colors: 'cells', board: 'cells',
  queue: 'dealt', givenHoles: 'dealt',
  gravity: 'level', softSpeed: 'level',
  mode: 'config', drill: 'config', rulesVersion: 'config', keyCount: 'config', das: 'config', arr: 'config', sdf: 'config', dasCut: 'config', lockOnRest: 'config', emit: 'config',
  garbageDelay: 'config', room: 'config',
  out: 'transient', restingHint: 'transient',
  holeStream: 'secret',
  holeRng: 'versus',
} as const satisfies Record<CoreField, 'int' | 'bool' | 'ints' | 'cells' | 'dealt' | 'level' | 'config' | 'transient' | 'secret' | 'versus'>;

type Fields = typeof STATE_FIELDS;
type IntField = { [K in keyof Fields]: Fields[K] extends 'int' ? K : never }[keyof Fields];
type BoolField = { [K in keyof Fields]: Fields[K] extends 'bool' ? K : never }[keyof Fields];
type ListField = { [K in keyof Fields]: Fields[K] extends 'ints' ? K : never }[keyof Fields];
const INTS = (Object.keys(STATE_FIELDS) as Array<keyof Fields>).filter((k): k is IntField => STATE_FIELDS[k] === 'int');
const BOOLS = (Object.keys(STATE_FIELDS) as Array<keyof Fields>).filter((k): k is BoolField => STATE_FIELDS[k] === 'bool');
const LISTS = (Object.keys(STATE_FIELDS) as Array<keyof Fields>).filter((k): k is ListField => STATE_FIELDS[k] === 'ints');

/** The wire form (JSON): named fields, so a state from another build fails loudly rather than shifts. */
export type GameState = {
  v: 1;
  rulesVersion: number;
  /** Colour ids row by row from the bottom (CELL_CHARS), empty rows on top left out. */
  cells: string;
  /** Pieces taken so far, the current one included, and the pieces dealt past it. */
  taken: number;
  next: PieceType[];
  /** Dig: the hole columns dealt past the rows already risen (absent or empty otherwise: a state from before Dig has none). */
  holes?: number[];
  core: { [K in IntField]: number } & { [K in BoolField]: boolean } & { [K in ListField]: number[] } & { holeRng?: number };
};

/** The longest list a state may carry (the garbage queue: each message is at least one row, the field holds 40). */
const MAX_LIST = 256;

/** The state of `c`, whose next pieces (dealt past the current one) are `next`, and (Dig) next hole columns `holes`. */
export function stateOfCore(c: Core, next: readonly PieceType[], holes: readonly number[] = c.givenHoles): GameState {
  let cells = '';
  for (let i = 0; i < c.colors.length; i++) cells += CELL_CHARS[c.colors[i]!];
  const core: Record<string, number | boolean | number[]> = {};
  for (const k of LISTS) core[k] = c[k].slice();
  for (const k of INTS) core[k] = c[k];
  for (const k of BOOLS) core[k] = c[k];
  if (c.mode.garbage) core.holeRng = c.holeRng;
  return { v: 1, rulesVersion: c.rulesVersion, cells: cells.replace(/\.+$/, ''), taken: c.queue.taken, next: next.slice(), holes: holes.slice(), core: core as GameState['core'] };
}

/**
 * A dealt game in exactly `state` (same play hash, same future for the same inputs and deals).
 * It has no seed and never saw the pieces before the current one, so it cannot be revealed.
 * Throws GameConfigError for a state that is not one.
 */
export function restoreDealtGame(config: DealtGameConfig, state: GameState): DealtGame {
  const s = checked(state);
  const queue = new DealtQueue();
  // createCore spawns a first piece from the queue; every field it sets is overwritten below.
  queue.push(0);
  for (const p of s.next) queue.push(PIECES.indexOf(p));
  // An empty board: Dig's starting rows are not drawn, the state's cells are the field.
  const { core: c, nextCount } = createCore({ ...config, rulesVersion: s.rulesVersion, seed: 'restored', board: [] }, true, queue);
  c.out = null;
  queue.taken = s.taken;
  for (const k of INTS) c[k] = s.core[k];
  for (const k of BOOLS) c[k] = s.core[k];
  for (const k of LISTS) c[k] = s.core[k].slice();
  c.givenHoles = (s.holes ?? []).slice();
  c.setLevel(s.core.level);
  for (let y = 0; y < TOTAL_ROWS; y++) {
    let row = EMPTY_ROW;
    for (let x = 0; x < COLS; x++) {
      const id = CELL_CHARS.indexOf(s.cells[y * COLS + x] ?? '.');
      c.colors[y * COLS + x] = id;
      if (id !== 0) row |= 1 << (x + 4);
    }
    c.board[y + PAD] = row;
  }
  if (c.mode.garbage) {
    if (!int32(s.core.holeRng)) throw new GameConfigError('not a game state: a versus state needs holeRng');
    c.holeRng = s.core.holeRng;
  }
  c.restingHint = -1;
  return dealtGameOf(c, nextCount, { mode: config.mode, handling: config.handling, nextCount: config.nextCount, rulesVersion: s.rulesVersion });
}

const int32 = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= -(2 ** 31) && (n as number) < 2 ** 31;
const within = (n: number, lo: number, hi: number) => n >= lo && n <= hi;

/** The state if it is one: every field of the right type, every index in range. */
function checked(state: GameState): GameState {
  const bad = (what: string): never => {
    throw new GameConfigError(`not a game state: ${what}`);
  };
  if (typeof state !== 'object' || state === null) return bad('not an object');
  if (state.v !== 1) return bad(`format ${String(state.v)}`);
  if (!int32(state.rulesVersion)) bad('rulesVersion');
  if (typeof state.cells !== 'string' || state.cells.length > COLS * TOTAL_ROWS || [...state.cells].some((ch) => !CELL_CHARS.includes(ch))) bad('cells');
  if (!int32(state.taken) || state.taken < 1) bad('taken');
  if (!Array.isArray(state.next) || state.next.length >= QUEUE_CAP || state.next.some((p) => !PIECES.includes(p))) bad('next');
  if (state.holes !== undefined && (!Array.isArray(state.holes) || state.holes.length > QUEUE_CAP || state.holes.some((h) => !(Number.isInteger(h) && within(h, 0, COLS - 1))))) bad('holes');
  const core = state.core as Record<string, unknown> | null;
  if (typeof core !== 'object' || core === null) return bad('core');
  for (const k of INTS) if (!int32(core[k])) bad(k);
  for (const k of BOOLS) if (typeof core[k] !== 'boolean') bad(k);
  for (const k of LISTS) {
    const list = core[k];
    if (!Array.isArray(list) || list.length > MAX_LIST || !list.every(int32)) bad(k);
  }
  const c = state.core;
  if (!within(c.piece, -1, PIECES.length - 1) || !within(c.hold, -1, PIECES.length - 1) || !within(c.rot, 0, ROTATIONS.length - 1)) bad('piece');
  if (c.piece >= 0 && c.slot !== c.piece * 4 + c.rot) bad('slot');
  if (!within(c.x, -2, COLS + 1) || !within(c.y, -2, TOTAL_ROWS + 1)) bad('position');
  if (c.level < 1 || !within(c.reason, 0, END_NAMES.length - 1)) bad('level or reason');
  return state;
}
