import { COLS, dropDistance, VISIBLE_ROWS } from './board';
import type { Core } from './core';
import { END_NAMES } from './ends';
import { queuedRows, readyRows } from './garbage';
import { KEYS, PIECES, ROTATIONS } from './constants';
import { CELL_CHARS } from './setup';
import type { GameStats, Key, PiecePlacement, Snapshot } from './types';

export function boardRows(c: Core, rows = VISIBLE_ROWS): string[] {
  const out: string[] = [];
  for (let y = rows - 1; y >= 0; y--) {
    let s = '';
    for (let x = 0; x < COLS; x++) s += CELL_CHARS[c.colors[y * COLS + x]!];
    out.push(s);
  }
  return out;
}

/** The live counters alone: read every batch of every live game, where a snapshot's board strings would be garbage. */
export function statsCore(c: Core): GameStats {
  return { score: c.score, lines: c.lines, level: c.level, pieces: c.pieces, tick: c.tickNo };
}

/** Incoming garbage rows waiting to rise (the meter); 0 in solo modes. */
export function meterCore(c: Core): number {
  return c.mode.garbage ? queuedRows(c) : 0;
}

export function snapshotCore(c: Core, nextCount: number): Snapshot {
  const live = !c.ended && c.piece >= 0;
  const at = (y: number): PiecePlacement => ({ type: PIECES[c.piece]!, rotation: ROTATIONS[c.rot]!, x: c.x, y });
  const next: Snapshot['next'] = [];
  // A live game's queue may be short while it waits for the server's next deal.
  for (let i = 0; i < nextCount && c.queue.peek(i) >= 0; i++) next.push(PIECES[c.queue.peek(i)]!);
  return {
    board: boardRows(c),
    active: live ? at(c.y) : null,
    ghost: live ? at(c.y - dropDistance(c.board, c.slot, c.x, c.y)) : null,
    hold: c.hold < 0 ? null : PIECES[c.hold]!,
    holdUsed: c.holdUsed,
    next,
    score: c.score,
    lines: c.lines,
    level: c.level,
    tick: c.tickNo,
    combo: c.combo,
    b2b: c.b2b,
    pieces: c.pieces,
    keys: c.keys,
    held: heldKeys(c.held),
    over: c.ended,
    finished: c.ended && !c.toppedOut,
    toppedOut: c.toppedOut,
    reason: END_NAMES[c.reason] ?? null,
    progress: c.cheese ? c.cheeseCleared : c.lines,
    garbageQueued: meterCore(c),
    garbageReady: c.mode.garbage ? readyRows(c) : 0,
    clears: c.clears,
  };
}

function heldKeys(mask: number): Key[] {
  const out: Key[] = [];
  for (let i = 0; i < KEYS.length; i++) if ((mask & (1 << i)) !== 0) out.push(KEYS[i]!);
  return out;
}
