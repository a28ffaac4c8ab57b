import { shuffleBag } from './rng';

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

  constructor(
    readonly pending: Int8Array,
    public rng: number,
  ) {
    this.refill();
  }

  private draw(): number {
    if (this.pendingIdx < this.pending.length) return this.pending[this.pendingIdx++]!;
    if (this.bagIdx >= 7) {
      this.rng = shuffleBag(this.bag, this.rng);
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
    this.refill();
    return p;
  }

  peek(i: number): number {
    return this.ring[(this.head + i) & (QUEUE_CAP - 1)]!;
  }
}
