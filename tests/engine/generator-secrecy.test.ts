import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGame, holeState, pieceSequence, PIECES, RULES_VERSION, type PieceType } from '@/lib/engine';
import { chachaBlock } from '@/lib/engine/chacha20';
import { KeyStream, seedKey, STREAM_PIECES } from '@/lib/engine/keystream';
import { PieceQueue } from '@/lib/engine/queue';
import { seedState, shuffleBag } from '@/lib/engine/rng';

// An attacker's view of the piece generator: the pieces dealt so far (and, in versus, hole
// columns), never the seed. Rules 1–4 squeeze the seed into 32 bits (FNV-1a → mulberry32), and a
// versus host used to send the hole generator's state; rules 5 and 6 key ChaCha20 with all of the
// seed. Each attack here is first shown to work against the old generator, so a pass on the new
// one means something. Decision 0020.

const seed128 = () => randomBytes(16).toString('base64url');
const deal = (seed: string, rulesVersion: number, n: number): PieceType[] => {
  const next = pieceSequence(seed, rulesVersion);
  return Array.from({ length: n }, next);
};

/** mulberry32's pieces from a raw generator state, as rules 1–4 deal them. */
const mulberryPieces = (state: number, n: number): PieceType[] => {
  const q = new PieceQueue(new Int8Array(0), state);
  return Array.from({ length: n }, () => PIECES[q.take()]!);
};

/** ChaCha20's pieces had the key been only `words` (the rest zero): the mistake of a short key. */
const shortKeyPieces = (words: readonly number[], n: number): PieceType[] => {
  const key = new Uint32Array(8);
  words.forEach((w, i) => (key[i] = w));
  const q = new PieceQueue(new Int8Array(0), 0, new KeyStream(key, STREAM_PIECES));
  return Array.from({ length: n }, () => PIECES[q.take()]!);
};

/** The 32-bit states in [center − half, center + half) whose first bag matches, checked to `n` pieces. */
function searchMulberry(center: number, half: number, seen: readonly PieceType[]): number[] {
  const bag = new Int8Array(7);
  const first = seen.slice(0, 7).map((p) => PIECES.indexOf(p));
  const found: number[] = [];
  for (let d = -half; d < half; d++) {
    const s = (center + d) | 0;
    shuffleBag(bag, s);
    if (bag.every((p, i) => p === first[i]) && mulberryPieces(s, seen.length).every((p, i) => p === seen[i])) found.push(s);
  }
  return found;
}

describe('rules 4: what the old generator gave away', () => {
  it('the hole state a versus host sent led back to the piece generator in six inverse FNV-1a steps', () => {
    const seed = `${seed128()}.0`;
    // FNV-1a step: h = (h ^ byte) × prime. Its inverse needs the prime's inverse mod 2^32.
    let inv = 0x01000193;
    for (let i = 0; i < 5; i++) inv = Math.imul(inv, 2 - Math.imul(0x01000193, inv));
    let h = holeState(seed);
    for (const c of [...'#holes'].reverse()) h = Math.imul(h, inv) ^ c.charCodeAt(0);
    expect(h).toBe(seedState(seed));
    expect(mulberryPieces(h, 60)).toEqual(deal(seed, 4, 60));
  });

  it('a search over 32-bit states finds the one that deals what was seen, and every later piece', () => {
    const seed = seed128();
    const seen = deal(seed, 3, 21);
    // The whole 2^32 takes ~25 s on one core; the window around the answer shows the search works.
    const found = searchMulberry(seedState(seed), 1 << 18, seen);
    expect(found).toEqual([seedState(seed)]);
    expect(mulberryPieces(found[0]!, 1000)).toEqual(deal(seed, 3, 1000));
  });
});

describe('rules 5 and 6: nothing short of the seed predicts a piece', () => {
  it('no 32- or 48-bit reduction of the seed deals what was seen (random 128-bit seeds)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        const seed = Buffer.from(bytes).toString('base64url');
        const seen = deal(seed, RULES_VERSION, 1000);
        const key = seedKey(seed);
        // Today's reduction (FNV-1a) and the key's own first words, as mulberry32 states and as short ChaCha keys.
        for (const center of [seedState(seed), key[0]! | 0, key[7]! | 0]) expect(searchMulberry(center, 1 << 12, seen)).toEqual([]);
        for (let d = -256; d < 256; d++) {
          const first = shortKeyPieces([(key[0]! + d) >>> 0], 21);
          expect(first).not.toEqual(seen.slice(0, 21));
          const wide = shortKeyPieces([(key[0]! + d) >>> 0, key[1]! & 0xffff], 21);
          expect(wide).not.toEqual(seen.slice(0, 21));
        }
        // And the real generator deals what the key gives, so the searches above looked at the right thing.
        expect(shortKeyPieces([...key], 1000)).toEqual(seen);
      }),
      { numRuns: 4 },
    );
  });

  it('every bit of the key changes the pieces: no part of the seed is left out', () => {
    const seed = seed128();
    const key = seedKey(seed);
    const seen = shortKeyPieces([...key], 100);
    for (let bit = 0; bit < 256; bit++) {
      const flipped = [...key];
      flipped[bit >> 5] = (flipped[bit >> 5]! ^ (1 << (bit & 31))) >>> 0;
      expect(shortKeyPieces(flipped, 100), `key bit ${bit}`).not.toEqual(seen);
    }
  });

  it('each seat’s holes are its own stream: what one seat received says nothing of the other’s next holes', () => {
    const seed = `${seed128()}.0`;
    const handling = { das: 10, arr: 2, sdf: 20, dasCut: false };
    const columns = (rulesVersion: number, seat: 0 | 1) => {
      const g = createGame({ mode: 'battle', seed, handling, rulesVersion, seat });
      return Array.from({ length: 100 }, () => g.receiveGarbage(1));
    };
    // Rules 4 drew both seats' holes from one generator: seat 1's k-th hole was seat 0's k-th.
    expect(columns(4, 1)).toEqual(columns(4, 0));
    const [a, b] = [columns(6, 0), columns(6, 1)];
    expect(b).not.toEqual(a);
    // Not a shifted copy either.
    for (let off = 1; off < 50; off++) expect(b.slice(off, off + 50)).not.toEqual(a.slice(0, 50));
  });

  it('holes and pieces are separate streams: the first 100 hole columns are no window of the piece stream', () => {
    const seed = `${seed128()}.0`;
    const g = createGame({ mode: 'battle', seed, handling: { das: 10, arr: 2, sdf: 20, dasCut: false }, rulesVersion: 6 });
    const holes = Array.from({ length: 100 }, () => g.receiveGarbage(1));
    expect(new Set(holes).size).toBe(10);
    // Under rules 6 a hole draw is a word of stream 2; the piece stream (1) is another ChaCha20 input.
    const out = new Uint32Array(16);
    const pieceWords: number[] = [];
    for (let b = 0; b < 8; b++) {
      chachaBlock(seedKey(seed), b, STREAM_PIECES, 0, 0, out);
      pieceWords.push(...out);
    }
    const asColumns = (words: number[]) => {
      let prev = -1;
      return words.map((w) => (prev = prev < 0 ? w % 10 : (prev + 1 + (w % 9)) % 10));
    };
    for (let off = 0; off + 100 <= pieceWords.length; off++) expect(asColumns(pieceWords.slice(off, off + 100))).not.toEqual(holes);
  });
});
