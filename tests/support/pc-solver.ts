/**
 * Perfect Clears played to an actual perfect clear, for its golden: a depth-first search over the
 * test bot's hard-drop placements (lib/bot/search.ts, hold included) from an empty field, keeping
 * every stack hole-free and under the mode's four rows, until a lock empties the field. Each
 * placement is played through the real engine with key presses (1-tick taps, as the bot's), so
 * the replay is the keys and nothing else. Then it misses on purpose: pieces dropped where they
 * spawn until one rests above the fourth row (tooHigh).
 */
import { collides, EMPTY_ROW, FIELD_BITS, PAD } from '@/lib/engine/board';
import { cloneCore } from '@/lib/engine/clone';
import type { Core } from '@/lib/engine/core';
import { createCore } from '@/lib/engine/setup';
import { DEFAULT_HANDLING, keyId } from '@/lib/engine';
import type { Handling, Key, Replay, ReplayEvent } from '@/lib/engine';
import { candidates, type Candidate } from '@/lib/bot/search';

const TURN_KEYS = [null, 'rotateCW', 'rotate180', 'rotateCCW'] as const;
const ROWS = 4;

/** A core and the key presses that led to it. */
interface Node {
  core: Core;
  events: ReplayEvent[];
}

function press(n: Node, ...edges: Array<[Key, boolean]>): void {
  if (n.core.ended) return;
  for (const [key, down] of edges) {
    n.events.push({ tick: n.core.tickNo, key, down });
    n.core.input(keyId(key), down);
  }
  n.core.step();
}

const tap = (n: Node, key: Key) => {
  press(n, [key, true]);
  press(n, [key, false]);
};

/** One placement by keys: hold, the turn, the shift (taps or to the wall), hard drop. */
function place(from: Node, hold: boolean, c: Candidate): Node {
  const n: Node = { core: cloneCore(from.core), events: from.events.slice() };
  if (hold) tap(n, 'hold');
  const turn = TURN_KEYS[c.turn];
  if (turn) tap(n, turn);
  const s = c.shift;
  if (s) {
    const key: Key = s.dir < 0 ? 'left' : 'right';
    if ('taps' in s) for (let i = 0; i < s.taps; i++) tap(n, key);
    else {
      press(n, [key, true]);
      for (let guard = 0; n.core.x !== c.x && guard < 200 && !n.core.ended; guard++) press(n);
      press(n, [key, false]);
    }
  }
  tap(n, 'hardDrop');
  return n;
}

/** Hole-free: no empty cell under a filled one in the four rows. */
function holeFree(core: Core): boolean {
  const b = core.board;
  let covered = 0;
  for (let y = ROWS - 1; y >= 0; y--) {
    const row = b[y + PAD]! & FIELD_BITS;
    if ((covered & ~row) !== 0) return false;
    covered |= row;
  }
  return b[ROWS + PAD] === EMPTY_ROW;
}

function options(core: Core): Array<{ hold: boolean; c: Candidate }> {
  const out = candidates(core.board, core.piece, core.rot, core.x, core.y).map((c) => ({ hold: false, c }));
  if (!core.holdUsed) {
    const other = core.hold >= 0 ? core.hold : core.queue.peek(0);
    if (other !== core.piece) {
      const y = collides(core.board, other * 4, 4, 19) ? 20 : 19;
      for (const c of candidates(core.board, other, 0, 4, y)) out.push({ hold: true, c });
    }
  }
  return out;
}

/** Depth-first to the next perfect clear within `depth` more pieces; null when there is none. */
function toNextClear(n: Node, depth: number, seen: Set<string>): Node | null {
  if (depth === 0) return null;
  const clears = n.core.clears;
  for (const { hold, c } of options(n.core)) {
    const next = place(n, hold, c);
    if (next.core.clears > clears) return next;
    if (next.core.ended || !holeFree(next.core)) continue;
    const b = next.core.board;
    const key = `${b[PAD]},${b[PAD + 1]},${b[PAD + 2]},${b[PAD + 3]},${next.core.pieces},${next.core.hold}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const found = toNextClear(next, depth - 1, seen);
    if (found) return found;
  }
  return null;
}

/** A Perfect Clears replay with `clears` perfect clears in a row, then a miss; throws if the seed's pieces allow none. */
export function solvePerfectClears(seed: string, clears: number, rulesVersion: number, handling: Handling = DEFAULT_HANDLING): Replay {
  let n: Node = { core: createCore({ mode: 'pc', seed, handling, rulesVersion }, false).core, events: [] };
  for (let i = 0; i < clears; i++) {
    const found = toNextClear(n, 11, new Set());
    if (!found) throw new Error(`no perfect clear ${i + 1} on seed ${seed}`);
    n = found;
  }
  // The miss: drop where each piece spawns until the stack is too high.
  for (let guard = 0; !n.core.ended && guard < 20; guard++) tap(n, 'hardDrop');
  return { rulesVersion, mode: 'pc', seed, handling: { ...handling }, events: n.events };
}
