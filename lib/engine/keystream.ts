import { chachaBlock } from './chacha20';
import { sha256Words } from './sha256';
import { utf8Encode } from './utf8';

/**
 * The generator of rules versions 5 and 6: a game's whole seed keys ChaCha20, so nothing short of
 * the seed itself predicts a piece or a hole. Its key is SHA-256 of the seed's UTF-8 bytes (the
 * digest's eight big-endian words are the key's eight words); each generator reads its own
 * stream of that key (the stream id is the first nonce word, the other two are 0), words in
 * order from block 0: pieces are stream 1, shared by both seats of a match (they play one
 * sequence); garbage holes are stream 2 + seat, one per seat, so one seat's holes say nothing of
 * the other's. Knowing any number of dealt pieces or hole columns says nothing about the rest
 * without the key (decision 0020).
 */
export const STREAM_PIECES = 1;
/** Seat 0's hole stream; seat 1's is the next. */
export const STREAM_HOLES = 2;

/** The 256-bit key of a seed. */
export function seedKey(seed: string): Uint32Array {
  return sha256Words(utf8Encode(seed) ?? new Uint8Array(0));
}

/**
 * One stream of 32-bit words. Its position (`counter`, `pos`) is plain integers and the block
 * already computed is a typed array, so the state clones with the rest of the game (clone.ts) and
 * hashes (hash.ts) exactly.
 */
export class KeyStream {
  /** The next block to compute. */
  counter = 0;
  /** The next word of `block`; 16 when it is used up. */
  pos = 16;
  readonly block = new Uint32Array(16);

  constructor(
    readonly key: Uint32Array,
    readonly stream: number,
  ) {}

  next(): number {
    if (this.pos === 16) {
      chachaBlock(this.key, this.counter, this.stream, 0, 0, this.block);
      this.counter++;
      this.pos = 0;
    }
    return this.block[this.pos++]!;
  }
}
