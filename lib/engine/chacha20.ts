/**
 * The ChaCha20 block function (RFC 8439, section 2.3): 20 rounds over a 256-bit key, a 32-bit block
 * counter and a 96-bit nonce, giving 16 words of keystream. The piece and hole generators of rules
 * versions 5 and 6 read these words (keystream.ts). Checked against RFC 8439's test vectors in
 * tests/engine/keystream.test.ts. Integers only; `out` and the working words are the caller's, so
 * a block allocates nothing.
 */
const SIGMA0 = 0x61707865; // "expa"
const SIGMA1 = 0x3320646e; // "nd 3"
const SIGMA2 = 0x79622d32; // "2-by"
const SIGMA3 = 0x6b206574; // "te k"

export function chachaBlock(key: Uint32Array, counter: number, n0: number, n1: number, n2: number, out: Uint32Array): void {
  const k0 = key[0]! | 0, k1 = key[1]! | 0, k2 = key[2]! | 0, k3 = key[3]! | 0;
  const k4 = key[4]! | 0, k5 = key[5]! | 0, k6 = key[6]! | 0, k7 = key[7]! | 0;
  const c = counter | 0;
  let x0 = SIGMA0, x1 = SIGMA1, x2 = SIGMA2, x3 = SIGMA3;
  let x4 = k0, x5 = k1, x6 = k2, x7 = k3, x8 = k4, x9 = k5, x10 = k6, x11 = k7;
  let x12 = c, x13 = n0 | 0, x14 = n1 | 0, x15 = n2 | 0;
  for (let i = 0; i < 10; i++) {
    // Column round.
    x0 = (x0 + x4) | 0; x12 ^= x0; x12 = (x12 << 16) | (x12 >>> 16);
    x8 = (x8 + x12) | 0; x4 ^= x8; x4 = (x4 << 12) | (x4 >>> 20);
    x0 = (x0 + x4) | 0; x12 ^= x0; x12 = (x12 << 8) | (x12 >>> 24);
    x8 = (x8 + x12) | 0; x4 ^= x8; x4 = (x4 << 7) | (x4 >>> 25);
    x1 = (x1 + x5) | 0; x13 ^= x1; x13 = (x13 << 16) | (x13 >>> 16);
    x9 = (x9 + x13) | 0; x5 ^= x9; x5 = (x5 << 12) | (x5 >>> 20);
    x1 = (x1 + x5) | 0; x13 ^= x1; x13 = (x13 << 8) | (x13 >>> 24);
    x9 = (x9 + x13) | 0; x5 ^= x9; x5 = (x5 << 7) | (x5 >>> 25);
    x2 = (x2 + x6) | 0; x14 ^= x2; x14 = (x14 << 16) | (x14 >>> 16);
    x10 = (x10 + x14) | 0; x6 ^= x10; x6 = (x6 << 12) | (x6 >>> 20);
    x2 = (x2 + x6) | 0; x14 ^= x2; x14 = (x14 << 8) | (x14 >>> 24);
    x10 = (x10 + x14) | 0; x6 ^= x10; x6 = (x6 << 7) | (x6 >>> 25);
    x3 = (x3 + x7) | 0; x15 ^= x3; x15 = (x15 << 16) | (x15 >>> 16);
    x11 = (x11 + x15) | 0; x7 ^= x11; x7 = (x7 << 12) | (x7 >>> 20);
    x3 = (x3 + x7) | 0; x15 ^= x3; x15 = (x15 << 8) | (x15 >>> 24);
    x11 = (x11 + x15) | 0; x7 ^= x11; x7 = (x7 << 7) | (x7 >>> 25);
    // Diagonal round.
    x0 = (x0 + x5) | 0; x15 ^= x0; x15 = (x15 << 16) | (x15 >>> 16);
    x10 = (x10 + x15) | 0; x5 ^= x10; x5 = (x5 << 12) | (x5 >>> 20);
    x0 = (x0 + x5) | 0; x15 ^= x0; x15 = (x15 << 8) | (x15 >>> 24);
    x10 = (x10 + x15) | 0; x5 ^= x10; x5 = (x5 << 7) | (x5 >>> 25);
    x1 = (x1 + x6) | 0; x12 ^= x1; x12 = (x12 << 16) | (x12 >>> 16);
    x11 = (x11 + x12) | 0; x6 ^= x11; x6 = (x6 << 12) | (x6 >>> 20);
    x1 = (x1 + x6) | 0; x12 ^= x1; x12 = (x12 << 8) | (x12 >>> 24);
    x11 = (x11 + x12) | 0; x6 ^= x11; x6 = (x6 << 7) | (x6 >>> 25);
    x2 = (x2 + x7) | 0; x13 ^= x2; x13 = (x13 << 16) | (x13 >>> 16);
    x8 = (x8 + x13) | 0; x7 ^= x8; x7 = (x7 << 12) | (x7 >>> 20);
    x2 = (x2 + x7) | 0; x13 ^= x2; x13 = (x13 << 8) | (x13 >>> 24);
    x8 = (x8 + x13) | 0; x7 ^= x8; x7 = (x7 << 7) | (x7 >>> 25);
    x3 = (x3 + x4) | 0; x14 ^= x3; x14 = (x14 << 16) | (x14 >>> 16);
    x9 = (x9 + x14) | 0; x4 ^= x9; x4 = (x4 << 12) | (x4 >>> 20);
    x3 = (x3 + x4) | 0; x14 ^= x3; x14 = (x14 << 8) | (x14 >>> 24);
    x9 = (x9 + x14) | 0; x4 ^= x9; x4 = (x4 << 7) | (x4 >>> 25);
  }
  out[0] = x0 + SIGMA0; out[1] = x1 + SIGMA1; out[2] = x2 + SIGMA2; out[3] = x3 + SIGMA3;
  out[4] = x4 + k0; out[5] = x5 + k1; out[6] = x6 + k2; out[7] = x7 + k3;
  out[8] = x8 + k4; out[9] = x9 + k5; out[10] = x10 + k6; out[11] = x11 + k7;
  out[12] = x12 + c; out[13] = x13 + n0; out[14] = x14 + n1; out[15] = x15 + n2;
}
