/** UTF-8 bytes of a string, or null if it holds a lone surrogate (not representable). */
export function utf8Encode(s: string): Uint8Array | null {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) return null;
      c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      i++;
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

/** Strict decoder: null on overlong forms, surrogates, out-of-range code points or truncation. */
export function utf8Decode(b: Uint8Array): string | null {
  let s = '';
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    let n: number;
    let cp: number;
    let min: number;
    if (c < 0x80) [n, cp, min] = [0, c, 0];
    else if ((c & 0xe0) === 0xc0) [n, cp, min] = [1, c & 31, 0x80];
    else if ((c & 0xf0) === 0xe0) [n, cp, min] = [2, c & 15, 0x800];
    else if ((c & 0xf8) === 0xf0) [n, cp, min] = [3, c & 7, 0x10000];
    else return null;
    if (i + n >= b.length && n > 0) return null;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k]!;
      if ((d & 0xc0) !== 0x80) return null;
      cp = (cp << 6) | (d & 63);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
    s += String.fromCodePoint(cp);
    i += n + 1;
  }
  return s;
}
