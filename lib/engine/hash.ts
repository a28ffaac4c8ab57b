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
  const d = new Digest();
  fieldWords(d, c);
  for (let i = 0; i < q.len; i++) d.add(q.peek(i));
  for (let i = 0; i < 7; i++) d.add(q.bag[i]!);
  d.add(q.len).add(q.pendingIdx).add(q.pending.length).add(q.bagIdx).add(q.rng);
  coreWords(d, c);
  return d.hex();
}

/**
 * The same digest without the randomizer's hidden state: the field, the position in the piece
 * sequence and everything else the player can see. A seeded game and a dealt game that played
 * the same pieces and inputs have the same play hash, so the browser (no seed) and the server
 * (seeded) can compare states while a live game runs.
 */
export function playHashCore(c: Core): string {
  const d = new Digest();
  fieldWords(d, c);
  d.add(c.queue.taken);
  coreWords(d, c);
  return d.hex();
}

function fieldWords(d: Digest, c: Core): void {
  const board = c.board;
  for (let i = 0; i < board.length; i++) d.add(board[i]!);
  const colors = c.colors;
  for (let i = 0; i < colors.length; i += 4) d.add(colors[i]! | (colors[i + 1]! << 8) | (colors[i + 2]! << 16) | (colors[i + 3]! << 24));
}

function coreWords(d: Digest, c: Core): void {
  for (const v of [
    c.mode.id, c.das, c.arr, c.sdf, +c.dasCut,
    c.piece, c.rot, c.x, c.y, c.hold, +c.holdUsed,
    c.tickNo, c.score, c.lines, c.level, c.combo, +c.b2b, c.pieces, c.keys,
    +c.ended, +c.toppedOut, c.reason,
    c.held, c.dir, c.dasTicks, c.arrTimer,
    c.gravity, c.softSpeed, c.gravAcc, c.lockTimer, c.resets, c.lowestY,
    +c.lastRotated, c.lastKick, c.lastTurn,
  ]) d.add(v);
  // Only versus states have garbage: solo hashes (and so the rules-1 goldens) stay as they were.
  if (c.mode.garbage) {
    d.add(c.holeRng).add(c.holeCol).add(c.sent).add(c.received).add(c.garbageQueue.length);
    for (const g of c.garbageQueue) d.add(g);
  }
}

/**
 * Words folded in as they come: the board alone is hundreds of words, and a live server hashes
 * every game's state on every batch, so collecting them in an array first was most of what a
 * batch allocated.
 */
class Digest {
  private a = 0x811c9dc5;
  private b = 0x9747b28c;

  add(word: number): this {
    const v = word | 0;
    this.a = Math.imul(this.a ^ v, 0x01000193);
    let k = Math.imul(v, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    this.b ^= k;
    this.b = (Math.imul((this.b << 13) | (this.b >>> 19), 5) + 0xe6546b64) | 0;
    return this;
  }

  hex(): string {
    return (this.a >>> 0).toString(16).padStart(8, '0') + (this.b >>> 0).toString(16).padStart(8, '0');
  }
}
