import type { Core } from './core';
import { PieceQueue } from './queue';

/**
 * 64-bit digest of the full state as two independent 32-bit lanes (FNV-1a over words, and a
 * murmur3-style mix), written as 16 hex digits. It only has to be stable across runtimes, not
 * cryptographic: the server re-simulates, the hash just makes divergence visible.
 */
export function hashCore(c: Core): string {
  const q = c.queue;
  // A live game's queue holds no generator state to hash; DealtGame.hash() reveals it first.
  if (!(q instanceof PieceQueue)) throw new TypeError('a dealt game has no full hash before its seed is revealed');
  const words = fieldWords(c);
  for (let i = 0; i < q.len; i++) words.push(q.peek(i));
  for (let i = 0; i < 7; i++) words.push(q.bag[i]!);
  words.push(q.len, q.pendingIdx, q.pending.length, q.bagIdx, q.rng);
  return digest(coreWords(c, words));
}

/**
 * The same digest without the randomizer's hidden state: the field, the position in the piece
 * sequence and everything else the player can see. A seeded game and a dealt game that played
 * the same pieces and inputs have the same play hash, so the browser (no seed) and the server
 * (seeded) can compare states while a live game runs.
 */
export function playHashCore(c: Core): string {
  const words = fieldWords(c);
  words.push(c.queue.taken);
  return digest(coreWords(c, words));
}

function fieldWords(c: Core): number[] {
  const words: number[] = [];
  const board = c.board;
  for (let i = 0; i < board.length; i++) words.push(board[i]!);
  const colors = c.colors;
  for (let i = 0; i < colors.length; i += 4)
    words.push(colors[i]! | (colors[i + 1]! << 8) | (colors[i + 2]! << 16) | (colors[i + 3]! << 24));
  return words;
}

function coreWords(c: Core, words: number[]): number[] {
  words.push(
    c.mode.id, c.das, c.arr, c.sdf, +c.dasCut,
    c.piece, c.rot, c.x, c.y, c.hold, +c.holdUsed,
    c.tickNo, c.score, c.lines, c.level, c.combo, +c.b2b, c.pieces, c.keys,
    +c.ended, +c.toppedOut, c.reason,
    c.held, c.dir, c.dasTicks, c.arrTimer,
    c.gravity, c.softSpeed, c.gravAcc, c.lockTimer, c.resets, c.lowestY,
    +c.lastRotated, c.lastKick, c.lastTurn,
  );
  // Only versus states have garbage: solo hashes (and so the rules-1 goldens) stay as they were.
  if (c.mode.garbage) words.push(c.holeRng, c.holeCol, c.sent, c.received, c.garbageQueue.length, ...c.garbageQueue);
  return words;
}

function digest(words: number[]): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < words.length; i++) {
    const v = words[i]! | 0;
    a = Math.imul(a ^ v, 0x01000193);
    let k = Math.imul(v, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    b ^= k;
    b = (Math.imul((b << 13) | (b >>> 19), 5) + 0xe6546b64) | 0;
  }
  const hex = (v: number): string => (v >>> 0).toString(16).padStart(8, '0');
  return hex(a) + hex(b);
}
