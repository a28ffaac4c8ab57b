const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

/** Unpadded base64url (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) s += ALPHABET[(n >> (18 - 6 * k)) & 63];
  }
  return s;
}

/**
 * Strict: no padding, no whitespace, canonical trailing bits; null on any violation. `spare` zero
 * bytes follow the decoded ones (a reader that looks a few bytes ahead never reads past the array).
 * Four characters at a time: a replay is decoded on every submission and every view.
 */
export function fromBase64Url(s: string, spare = 0): Uint8Array | null {
  const tail = s.length % 4;
  if (tail === 1) return null;
  const whole = s.length - tail;
  const size = (whole / 4) * 3 + (tail === 0 ? 0 : tail - 1);
  const out = new Uint8Array(size + spare);
  let o = 0;
  for (let i = 0; i < whole; i += 4) {
    const a = sextet(s, i);
    const b = sextet(s, i + 1);
    const c = sextet(s, i + 2);
    const d = sextet(s, i + 3);
    // Any -1 makes the OR negative.
    if ((a | b | c | d) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o] = n >> 16;
    out[o + 1] = (n >> 8) & 255;
    out[o + 2] = n & 255;
    o += 3;
  }
  if (tail === 0) return out;
  const a = sextet(s, whole);
  const b = sextet(s, whole + 1);
  const c = tail === 3 ? sextet(s, whole + 2) : 0;
  if ((a | b | c) < 0) return null;
  const n = (a << 18) | (b << 12) | (c << 6);
  // The bits after the last whole byte must be zero: otherwise two strings would spell one replay.
  if ((tail === 2 ? n & 0xffff : n & 0xff) !== 0) return null;
  out[o] = n >> 16;
  if (tail === 3) out[o + 1] = (n >> 8) & 255;
  return out;
}

function sextet(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? LOOKUP[c]! : -1;
}
