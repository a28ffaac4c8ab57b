import type { Core } from './core';
import type { KeyStream } from './keystream';
import { NO_DRILL } from './modes';
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
  // Keyed rules (5 and 6): the generators' key and where each stream stands. Absent before, so the
  // hashes of rules 1–4 are what they were.
  if (q.stream) streamWords(d, q.stream, true);
  if (c.holeStream) streamWords(d, c.holeStream, false);
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

function streamWords(d: Digest, s: KeyStream, withKey: boolean): void {
  if (withKey) for (let i = 0; i < 8; i++) d.add(s.key[i]!);
  d.add(s.counter).add(s.pos);
}

function fieldWords(d: Digest, c: Core): void {
  const board = c.board;
  for (let i = 0; i < board.length; i++) d.add(board[i]!);
  const colors = c.colors;
  for (let i = 0; i < colors.length; i += 4) d.add(colors[i]! | (colors[i + 1]! << 8) | (colors[i + 2]! << 16) | (colors[i + 3]! << 24));
}

function coreWords(d: Digest, c: Core): void {
  d.add(c.mode.id).add(c.das).add(c.arr).add(c.sdf).add(+c.dasCut)
    .add(c.piece).add(c.rot).add(c.x).add(c.y).add(c.hold).add(+c.holdUsed)
    .add(c.tickNo).add(c.score).add(c.lines).add(c.level).add(c.combo).add(+c.b2b).add(c.pieces).add(c.keys)
    .add(+c.ended).add(+c.toppedOut).add(c.reason)
    .add(c.held).add(c.dir).add(c.dasTicks).add(c.arrTimer)
    .add(c.gravity).add(c.softSpeed).add(c.gravAcc).add(c.lockTimer).add(c.resets).add(c.lowestY)
    .add(+c.lastRotated).add(c.lastKick).add(c.lastTurn);
  // Only a drill (lock 'hardDrop', never a replay) adds a word: every other hash is what it was.
  if (!c.lockOnRest) d.add(1);
  // Only drills count clears: every other hash is what it was.
  if (c.drill !== NO_DRILL) d.add(c.clears);
  // Only versus states have garbage: solo hashes (and so the rules-1 goldens) stay as they were.
  if (c.mode.garbage) {
    d.add(c.holeRng).add(c.holeCol).add(c.sent).add(c.received).add(c.garbageQueue.length);
    for (const g of c.garbageQueue) d.add(g);
    // Only under a garbage delay (6) is a message's landing tick state: 2 and 4 hash as they did.
    for (const t of c.garbageLands) d.add(t);
  }
  // Only Dig states have cheese (the hole stream's position is hashed with the generators above).
  if (c.cheese) d.add(c.holeCol).add(c.cheeseIn).add(c.cheeseRisen).add(c.cheeseCleared);
}

/**
 * Words folded in as they come. A live server hashes every game's state on every batch, and
 * collecting the ~180 words in a growing array first was a quarter of what it allocated.
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
