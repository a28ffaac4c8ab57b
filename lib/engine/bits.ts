import { ReplayDecodeError } from './errors';

export class BitWriter {
  readonly bytes: number[] = [];
  private cur = 0;
  private n = 0;

  bit(b: number): void {
    this.cur = (this.cur << 1) | (b & 1);
    if (++this.n === 8) this.flush();
  }

  /** Writes the low `count` bits of v, most significant first (v may exceed 32 bits). */
  bits(v: number, count: number): void {
    if (v < 0x100000000 && count <= 32) {
      for (let i = count - 1; i >= 0; i--) this.bit((v >>> i) & 1);
      return;
    }
    for (let i = count - 1; i >= 0; i--) this.bit(Math.floor(v / 2 ** i) % 2);
  }

  byte(v: number): void {
    this.bits(v, 8);
  }

  /** LEB128. */
  varint(v: number): void {
    do {
      const low = v % 128;
      v = Math.floor(v / 128);
      this.byte(v > 0 ? low | 128 : low);
    } while (v > 0);
  }

  /** Exp-Golomb of order k: short codes for small values, still logarithmic for huge ones. */
  expGolomb(v: number, k: number): void {
    const w = v + 2 ** k;
    const len = bitLength(w);
    for (let i = 0; i < len - 1 - k; i++) this.bit(0);
    this.bits(w, len);
  }

  finish(): Uint8Array {
    while (this.n !== 0) this.bit(0);
    return Uint8Array.from(this.bytes);
  }

  private flush(): void {
    this.bytes.push(this.cur);
    this.cur = 0;
    this.n = 0;
  }
}

export function bitLength(v: number): number {
  if (v < 0x100000000) return 32 - Math.clz32(v);
  let n = 0;
  while (v >= 1) {
    v = Math.floor(v / 2);
    n++;
  }
  return n;
}

/** Zero bytes a reader needs after the data: peek32 looks at five bytes from the current one. */
export const READ_AHEAD = 5;

/** Every read is bounds-checked and fails with ReplayDecodeError('truncated', …). */
export class BitReader {
  private pos = 0;
  private readonly size: number;
  private readonly data: Uint8Array;
  /** The plain bits read after the last expGolombThen's code. */
  after = 0;

  /**
   * Reads the first `length` bytes of `data`. Given READ_AHEAD zero bytes after them (as
   * fromBase64Url's `spare` leaves), it reads in place; otherwise it reads a padded copy.
   */
  constructor(data: Uint8Array, length = data.length) {
    this.size = length * 8;
    if (data.length >= length + READ_AHEAD) this.data = data;
    else {
      this.data = new Uint8Array(length + READ_AHEAD);
      this.data.set(data.subarray(0, length));
    }
  }

  get remainingBits(): number {
    return this.size - this.pos;
  }

  bit(what: string): number {
    if (this.pos >= this.size) throw new ReplayDecodeError('truncated', `data ends inside ${what}`);
    const b = (this.data[this.pos >> 3]! >> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return b;
  }

  bits(count: number, what: string): number {
    // Up to 24 bits that are all there: one look at the next 32 instead of a call per bit.
    if (count <= 24 && this.pos + count <= this.size) {
      const v = count === 0 ? 0 : this.peek32() >>> (32 - count);
      this.pos += count;
      return v;
    }
    let v = 0;
    for (let i = 0; i < count; i++) v = v * 2 + this.bit(what);
    return v;
  }

  /** The next 32 bits from `pos`, zero past the end of the data (callers check the end themselves). */
  private peek32(): number {
    const d = this.data;
    const i = this.pos >> 3;
    // Past the end the padding reads zero: no bounds to check here.
    const w = (d[i]! << 24) | (d[i + 1]! << 16) | (d[i + 2]! << 8) | d[i + 3]!;
    const shift = this.pos & 7;
    return shift === 0 ? w >>> 0 : ((w << shift) | (d[i + 4]! >>> (8 - shift))) >>> 0;
  }

  byte(what: string): number {
    return this.bits(8, what);
  }

  /** LEB128 capped at `max`, so a hostile length cannot grow without bound. */
  varint(what: string, max: number): number {
    let v = 0;
    let scale = 1;
    for (let i = 0; i < 5; i++) {
      const b = this.byte(what);
      v += (b & 127) * scale;
      if (v > max) throw new ReplayDecodeError('invalid_field', `${what} exceeds ${max}`);
      // A final 0 byte after the first only pads the number: the writer never emits it.
      if (b === 0 && i > 0) throw new ReplayDecodeError('invalid_field', `${what} is an overlong varint`);
      if ((b & 128) === 0) return v;
      scale *= 128;
    }
    throw new ReplayDecodeError('invalid_field', `${what} is not a valid varint`);
  }

  expGolomb(k: number, what: string): number {
    // A whole code within the next 32 bits (every tick gap of a live game): its leading zeros, then
    // the value after them, read at once. Anything longer, or running past the end, goes bit by bit.
    const w = this.peek32();
    const lead = Math.clz32(w);
    const len = 2 * lead + k + 1;
    if (lead < 32 && len <= 32 && this.pos + len <= this.size) {
      this.pos += len;
      return (len === 32 ? w : w >>> (32 - len)) - (1 << k);
    }
    let zeros = 0;
    while (this.bit(what) === 0) {
      if (++zeros > 32) throw new ReplayDecodeError('invalid_field', `${what} is too large`);
    }
    const n = zeros + k;
    if (n < 31) return (1 << n) + this.bits(n, what) - (1 << k);
    return 2 ** n + this.bits(n, what) - 2 ** k;
  }

  /**
   * An Exp-Golomb code of order k, then `count` plain bits (≤ 8), left in `after`: a replay event's
   * tick gap and its key. Both within the next 32 bits (every event of a live game) is one look at
   * the data; anything longer goes field by field.
   */
  expGolombThen(k: number, count: number, what: string, afterWhat: string): number {
    const w = this.peek32();
    const len = 2 * Math.clz32(w) + k + 1;
    const total = len + count;
    if (total <= 32 && this.pos + total <= this.size) {
      this.pos += total;
      this.after = (w >>> (32 - total)) & ((1 << count) - 1);
      return (w >>> (32 - len)) - (1 << k);
    }
    const v = this.expGolomb(k, what);
    this.after = this.bits(count, afterWhat);
    return v;
  }

  /** The writer pads with zero bits to a whole byte; anything else after the last field is garbage. */
  end(): void {
    while ((this.pos & 7) !== 0) {
      if (this.bit('padding') !== 0) throw new ReplayDecodeError('trailing_data', 'non-zero padding after the last event');
    }
    if (this.pos !== this.size)
      throw new ReplayDecodeError('trailing_data', `${(this.size - this.pos) >> 3} unexpected bytes after the last event`);
  }
}
