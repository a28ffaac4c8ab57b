import 'server-only';
import { headers } from 'next/headers';
import { NextResponse } from 'next/server';
import { CLIENT_IP_HEADER, CLIENT_IP_TOKEN_ENV, readStampedAddress } from '@/lib/client-address.js';
import type { ApiError } from '@/lib/server/http';
import { hit, type Check, type Verdict } from '@/lib/server/limits/limiter';
import { RULES } from '@/lib/server/limits/rules';

let warned = false;

/**
 * The caller's address as scripts/serve.mjs decided it from the socket. IPv6 clients are
 * counted per /64, the block one subscriber gets, or each could rotate through 2^64 addresses.
 * A header serve.mjs did not stamp is a client's own (plain `next start`/`next dev`): then
 * nothing is counted per address apart, every caller shares one key, and the log says so once.
 */
export async function clientAddressKey(): Promise<string> {
  const address = readStampedAddress((await headers()).get(CLIENT_IP_HEADER), process.env[CLIENT_IP_TOKEN_ENV]);
  if (address === null) {
    if (!warned) {
      warned = true;
      console.warn('[limits] this server was not started by scripts/serve.mjs (npm start / npm run dev): client addresses are unknown, so per-address limits count all callers together.');
    }
    return 'unknown';
  }
  return addressKeyOf(address);
}

/** The key per-address limits count an address under (an IPv6 address by its /64). */
export function addressKeyOf(address: string): string {
  if (!address.includes(':')) return address;
  const [head = ''] = address.split('%');
  const halves = head.split('::');
  const left = halves[0] ? halves[0].split(':') : [];
  const right = halves.length > 1 && halves[1] ? halves[1].split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => (g || '0').replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * 429 with Retry-After and the error shape every API client already reads; `extra` adds fields
 * beside `error` (next-auth's client wants a `url`).
 */
export function tooManyRequests(verdict: Extract<Verdict, { ok: false }>, extra: Record<string, unknown> = {}) {
  const seconds = verdict.retryAfterSeconds;
  const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  return NextResponse.json<ApiError & { error: { retryAfter: number } }>(
    { ...extra, error: { code: 'rate_limited', message: `Too many ${RULES[verdict.rule].what}. Try again in ${wait}.`, retryAfter: seconds } },
    { status: 429, headers: { 'retry-after': String(seconds), 'cache-control': 'no-store' } },
  );
}

/**
 * Counts the request against the checks; a response to send instead when one is over its limit.
 * `now`: the moment counted, for a caller that may give the count back (refund it at the same moment).
 */
export async function enforce(checks: Check[], now = new Date()): Promise<NextResponse | null> {
  const verdict = await hit(checks, now);
  return verdict.ok ? null : tooManyRequests(verdict);
}
