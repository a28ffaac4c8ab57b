// Parsed against a fixed origin that no request can name, so the answer is the same in the
// browser and on the server, and anything that leaves this origin is caught by comparing it.
const HOME = 'http://linefall.invalid';

// Browsers read `\` as `/` (so `/\evil.example` is `//evil.example`) and drop tabs and newlines
// from URLs (so `/\t/evil.example` is too). Whatever decoding some hop applies later, none of
// these may appear.
const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/** Percent-decodes until nothing changes; null when the value is not valid percent-encoding. */
function decodedFully(value: string): string | null {
  let current = value;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  // Still changing after four rounds: nothing of ours is encoded that deeply.
  return null;
}

/**
 * Only same-origin paths: a callbackUrl must never send a player to another origin. Anything
 * else — other origins, schemes, protocol-relative URLs and their backslash, control-character
 * and percent-encoded disguises — becomes `/`.
 */
export function safeCallback(value: string | null | undefined): string {
  if (!value || !value.startsWith('/')) return '/';
  const decoded = decodedFully(value);
  if (decoded === null) return '/';
  for (const form of [value, decoded]) {
    if (UNSAFE.test(form) || form.startsWith('//')) return '/';
  }
  let url: URL;
  try {
    url = new URL(value, HOME);
  } catch {
    return '/';
  }
  if (url.origin !== HOME) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
