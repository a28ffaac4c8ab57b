// Who is calling, decided by scripts/serve.mjs from the socket and read by route handlers.
// Plain JS: the server script loads it without a TypeScript step.

/** Set by the server on every request, overwriting anything the client sent. */
export const CLIENT_IP_HEADER = 'x-linefall-client-ip';

/**
 * Where scripts/serve.mjs keeps a random token, made at start, for this process only. It stamps
 * the address header with it, so route handlers can tell its header from one a client sent
 * itself: under plain `next start`/`next dev`, or with the app's port reachable past the proxy,
 * nothing overwrites the header, and an unstamped one must not move the rate-limit key.
 */
export const CLIENT_IP_TOKEN_ENV = 'LINEFALL_CLIENT_IP_TOKEN';

/**
 * @param {string} address
 * @param {string} token
 */
export function stampAddress(address, token) {
  return `${token} ${address}`;
}

/**
 * The address in a header value stamped with `token`, or null (unstamped, or no token: the app
 * was not started by scripts/serve.mjs).
 * @param {string | null | undefined} value
 * @param {string | undefined} token
 * @returns {string | null}
 */
export function readStampedAddress(value, token) {
  if (!token || !value) return null;
  const space = value.indexOf(' ');
  return space > 0 && value.slice(0, space) === token ? value.slice(space + 1) : null;
}

/**
 * The client's address. Each trusted proxy appends the address it received the request from to
 * X-Forwarded-For, so with `hops` proxies in front, the client is the hops-th address from the
 * right of [...forwarded, socket]; anything further left was written by the client and may lie.
 * @param {string | string[] | undefined} forwardedFor
 * @param {string | undefined} socketAddress
 * @param {number} hops
 * @returns {string}
 */
export function clientAddress(forwardedFor, socketAddress, hops) {
  const socket = normalize(socketAddress ?? 'unknown');
  if (hops === 0) return socket;
  const listed = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const chain = [...listed, socket];
  return normalize(chain[Math.max(0, chain.length - 1 - hops)] ?? socket);
}

/**
 * One spelling per address: IPv4 clients of a dual-stack socket arrive as ::ffff:a.b.c.d, and
 * some proxies write a port ("1.2.3.4:5678", "[::1]:443"), which would make every connection a
 * client of its own.
 * @param {string} address
 */
function normalize(address) {
  let text = address.trim().slice(0, 64).toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1] ?? text;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  return text.startsWith('::ffff:') && text.includes('.') ? text.slice(7) : text;
}
