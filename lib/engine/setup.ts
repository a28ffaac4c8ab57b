import { COLS, collides, PAD, TOTAL_ROWS } from './board';
import { DEFAULT_NEXT_COUNT, isKeyed, PIECES, ROTATIONS, RULES_VERSION, VERSUS_RULES_VERSION } from './constants';
import { Core } from './core';
import { GameConfigError } from './errors';
import { cheeseOf, isVersusMode, MODES } from './modes';
import { startCheese } from './cheese';
import { HOLE_SEED_SUFFIX } from './garbage';
import { KeyStream, seedKey, STREAM_HOLES } from './keystream';
import { seededQueue, type DealtQueue } from './queue';
import { seedState } from './rng';
import type { GameConfig } from './types';
import { checkRoomSeat } from './room-rules';
import { checkHandling, checkLock, checkMode, checkNextCount, checkRulesVersion, checkSeed } from './validate';

/** Cell letters in the board text form; index = colour id (0 empty, piece id + 1, 8 garbage). */
export const CELL_CHARS = '.IOTSZJLX';

/**
 * Builds the state for a config; `emit` off is the allocation-free path used by simulateReplay.
 * With `dealt`, pieces come from it instead of the seed (a live game, deal.ts).
 */
export function createCore(config: GameConfig, emit: boolean, dealt?: DealtQueue, holes?: readonly number[]): { core: Core; nextCount: number } {
  const bad = checkMode(config.mode) ?? checkSeed(config.seed) ?? checkHandling(config.handling) ?? checkNextCount(config.nextCount) ?? checkSeatConfig(config.seat) ?? checkLock(config.lock);
  if (bad) throw new GameConfigError(bad);
  const rulesVersion = config.rulesVersion ?? (isVersusMode(config.mode) ? VERSUS_RULES_VERSION : RULES_VERSION);
  const badRules = checkRulesVersion(rulesVersion, config.mode) ?? checkRoomSeat(rulesVersion, config.room);
  if (badRules) throw new GameConfigError(badRules);
  const h = config.handling;
  const pending = Int8Array.from((config.queue ?? []).map((p) => pieceId(p, 'queue')));
  const keyed = isKeyed(rulesVersion);
  // A dealt game has no seed: its pieces arrive from the host, and so does each hole column.
  const key = keyed && !dealt ? seedKey(config.seed) : null;
  const core = new Core({
    mode: MODES[config.mode],
    rulesVersion,
    das: h.das,
    arr: h.arr,
    sdf: h.sdf === 'instant' ? 0 : h.sdf,
    dasCut: h.dasCut,
    lockOnRest: (config.lock ?? 'delay') === 'delay',
    emit,
    queue: seededQueue(config.seed, rulesVersion, pending),
    holeRng: keyed ? 0 : seedState(config.seed + HOLE_SEED_SUFFIX),
    // Given hole columns (a dealt game's, a live game's plan) replace the seed's.
    holeStream: key && !holes && (isVersusMode(config.mode) || cheeseOf(MODES[config.mode])) ? new KeyStream(key, STREAM_HOLES + (config.room?.seat ?? config.seat ?? 0)) : null,
    room: config.room?.rules ?? null,
  });
  if (dealt) core.queue = dealt;
  if (holes) core.givenHoles = holes.slice();
  if (config.board) loadBoard(core, config.board);
  else if (core.cheese) startCheese(core);
  if (config.hold !== undefined) core.hold = pieceId(config.hold, 'hold');
  const a = config.active;
  if (a) {
    const rot = ROTATIONS.indexOf(a.rotation);
    const piece = pieceId(a.type, 'active.type');
    if (rot < 0) throw new GameConfigError('active.rotation must be 0, R, 2 or L');
    if (!Number.isInteger(a.x) || !Number.isInteger(a.y)) throw new GameConfigError('active.x and active.y must be integers');
    const slot = piece * 4 + rot;
    if (collides(core.board, slot, a.x, a.y)) throw new GameConfigError('active piece overlaps the board or leaves the field');
    core.piece = piece;
    core.rot = rot;
    core.slot = slot;
    core.x = a.x;
    core.y = a.y;
    core.place();
    if (emit) core.push({ type: 'spawn', piece: a.type, x: a.x, y: a.y });
  } else {
    core.spawn(core.queue.take());
  }
  return { core, nextCount: config.nextCount ?? DEFAULT_NEXT_COUNT };
}

function checkSeatConfig(seat: unknown): string | null {
  return seat === undefined || seat === 0 || seat === 1 ? null : 'seat must be 0 or 1';
}

function pieceId(p: unknown, field: string): number {
  const i = PIECES.indexOf(p as never);
  if (i < 0) throw new GameConfigError(`${field} holds an unknown piece`);
  return i;
}

function loadBoard(core: Core, rows: readonly string[]): void {
  if (rows.length > TOTAL_ROWS) throw new GameConfigError(`board has more than ${TOTAL_ROWS} rows`);
  rows.forEach((row, i) => {
    if (row.length !== COLS) throw new GameConfigError(`board row ${i} must be ${COLS} characters`);
    const y = rows.length - 1 - i;
    for (let x = 0; x < COLS; x++) {
      const id = CELL_CHARS.indexOf(row[x]!);
      if (id < 0) throw new GameConfigError(`board row ${i} has an unknown cell '${row[x]}'`);
      if (id === 0) continue;
      core.colors[y * COLS + x] = id;
      core.board[y + PAD] = core.board[y + PAD]! | (1 << (x + 4));
    }
  });
}
