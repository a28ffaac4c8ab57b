import { KeyStream, seedKey, STREAM_PIECES } from './keystream';
import { isKeyed } from './constants';
import { seedState, shuffleBag, shuffleBagKeyed } from './rng';

/** Upcoming pieces kept ready: one more than the longest preview, whatever nextCount is, so state never depends on it. */
export const QUEUE_FILL = 7;
export const QUEUE_CAP = 16;

/** The piece supply: configured pieces first, then 7-bags from the seeded generator. */
export class PieceQueue {
  readonly ring = new Int8Array(QUEUE_CAP);
  head = 0;
  len = 0;
  pendingIdx = 0;
  readonly bag = new Int8Array(7);
  bagIdx = 7;
  /** Pieces taken so far: where the player is in the sequence (not hashed; the play hash uses it). */
  taken = 0;

  constructor(
    readonly pending: Int8Array,
    /** mulberry32's state (rules 1–4); 0 and unused when `stream` is set. */
    public rng: number,
    /** The keyed piece stream (rules 5 and 6), or null. */
    readonly stream: KeyStream | null = null,
  ) {
    this.refill();
  }

  private draw(): number {
    if (this.pendingIdx < this.pending.length) return this.pending[this.pendingIdx++]!;
    if (this.bagIdx >= 7) {
      if (this.stream) shuffleBagKeyed(this.bag, this.stream);
      else this.rng = shuffleBag(this.bag, this.rng);
      this.bagIdx = 0;
    }
    return this.bag[this.bagIdx++]!;
  }

  private refill(): void {
    while (this.len < QUEUE_FILL) {
      this.ring[(this.head + this.len) & (QUEUE_CAP - 1)] = this.draw();
      this.len++;
    }
  }

  take(): number {
    const p = this.ring[this.head]!;
    this.head = (this.head + 1) & (QUEUE_CAP - 1);
    this.len--;
    this.taken++;
    this.refill();
    return p;
  }

  peek(i: number): number {
    return this.ring[(this.head + i) & (QUEUE_CAP - 1)]!;
  }
}

/** A seed's own piece supply under a rules version's randomizer (constants.ts RULES), after `pending`. */
export function seededQueue(seed: string, rulesVersion: number, pending: Int8Array = new Int8Array(0)): PieceQueue {
  return isKeyed(rulesVersion) ? new PieceQueue(pending, 0, new KeyStream(seedKey(seed), STREAM_PIECES)) : new PieceQueue(pending, seedState(seed));
}

/** Folds one piece into a running digest of a sequence (FNV-1a step; integers only). */
export function foldPiece(digest: number, piece: number): number {
  return Math.imul(digest ^ piece, 0x01000193);
}

/**
 * The piece supply of a live game (deal.ts): pieces arrive from the server, nothing is drawn. It
 * knows the sequence only as far as it was dealt, so it holds no seed and no generator state.
 * Taking a piece that was not dealt is a bug in the caller (DealtGame waits instead).
 */
export class DealtQueue {
  readonly ring = new Int8Array(QUEUE_CAP);
  head = 0;
  len = 0;
  taken = 0;
  /** FNV-1a over the taken pieces: reveal() checks the whole dealt sequence against the seed's. */
  takenDigest = 0x811c9dc5;

  get dealt(): number {
    return this.taken + this.len;
  }

  push(piece: number): void {
    if (this.len >= QUEUE_CAP) throw new RangeError(`more than ${QUEUE_CAP} pieces dealt ahead`);
    this.ring[(this.head + this.len) & (QUEUE_CAP - 1)] = piece;
    this.len++;
  }

  take(): number {
    if (this.len === 0) throw new RangeError('no dealt piece to take');
    const p = this.ring[this.head]!;
    this.head = (this.head + 1) & (QUEUE_CAP - 1);
    this.len--;
    this.taken++;
    this.takenDigest = foldPiece(this.takenDigest, p);
    return p;
  }

  /** -1 past the dealt pieces. */
  peek(i: number): number {
    return i < this.len ? this.ring[(this.head + i) & (QUEUE_CAP - 1)]! : -1;
  }
}
