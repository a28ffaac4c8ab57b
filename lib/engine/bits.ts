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

/** Every read is bounds-checked and fails with ReplayDecodeError('truncated', …). */
export class BitReader {
  private pos = 0;
  private readonly size: number;

  constructor(private readonly data: Uint8Array) {
    this.size = data.length * 8;
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
    const w = ((d[i] ?? 0) << 24) | ((d[i + 1] ?? 0) << 16) | ((d[i + 2] ?? 0) << 8) | (d[i + 3] ?? 0);
    const shift = this.pos & 7;
    return shift === 0 ? w >>> 0 : ((w << shift) | ((d[i + 4] ?? 0) >>> (8 - shift))) >>> 0;
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

  /** The writer pads with zero bits to a whole byte; anything else after the last field is garbage. */
  end(): void {
    while ((this.pos & 7) !== 0) {
      if (this.bit('padding') !== 0) throw new ReplayDecodeError('trailing_data', 'non-zero padding after the last event');
    }
    if (this.pos !== this.data.length * 8)
      throw new ReplayDecodeError('trailing_data', `${this.data.length - (this.pos >> 3)} unexpected bytes after the last event`);
  }
}
