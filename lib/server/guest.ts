import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { cookies, headers } from 'next/headers';
import { cookieAttributes, isHttps } from '@/lib/server/cookies';
import { env } from '@/lib/server/env';

/**
 * An anonymous player's id: random, http-only, never shown to scripts in the page, and signed
 * by the server, so only an id the server issued can own (and later claim) guest games.
 *
 * The name is `__Host-lf_guest` on an https site: browsers accept that cookie only with Secure,
 * Path=/ and no Domain, so neither a sibling subdomain nor a plain-http page on the network can
 * plant or overwrite it. Browsers refuse `__Host-` without Secure, which plain http cannot set,
 * so on http (http://localhost while developing) the name is plain `lf_guest`.
 */
export const GUEST_COOKIE = { https: '__Host-lf_guest', http: 'lf_guest' } as const;
const GUEST_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
const SIGNED = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;

const sign = (id: string) => createHmac('sha256', `${env.AUTH_SECRET}:guest`).update(id).digest().subarray(0, 16).toString('base64url');

/** The id in a cookie value the server issued, or null. */
export function verifiedGuestId(value: string | undefined): string | null {
  const [, id, tag] = (value && SIGNED.exec(value)) || [];
  if (!id || !tag) return null;
  const expected = Buffer.from(sign(id));
  return timingSafeEqual(expected, Buffer.from(tag)) ? id : null;
}

async function current() {
  const request = { url: 'http://unknown/', headers: await headers() };
  return { request, name: isHttps(request) ? GUEST_COOKIE.https : GUEST_COOKIE.http };
}

export async function readGuestId(): Promise<string | null> {
  const { name } = await current();
  return verifiedGuestId((await cookies()).get(name)?.value);
}

/** The guest id from the cookie, or a new one set on the response. Route handlers only. */
export async function ensureGuestId(request: Request): Promise<string> {
  const existing = await readGuestId();
  if (existing) return existing;
  const id = randomBytes(16).toString('base64url');
  const { name } = await current();
  (await cookies()).set(name, `${id}.${sign(id)}`, cookieAttributes(request, GUEST_MAX_AGE_SECONDS));
  return id;
}

/**
 * For the live channel's upgrade request, which no route handler sees: the guest id from the
 * cookies, or a new one with the Set-Cookie header to send in the 101 response.
 */
export function guestOfCookies(cookies: Map<string, string>, https: boolean): { id: string; setCookie: string | null } {
  const name = https ? GUEST_COOKIE.https : GUEST_COOKIE.http;
  const existing = verifiedGuestId(cookies.get(name));
  if (existing) return { id: existing, setCookie: null };
  const id = randomBytes(16).toString('base64url');
  const attrs = `Path=/; Max-Age=${GUEST_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${https ? '; Secure' : ''}`;
  return { id, setCookie: `${name}=${id}.${sign(id)}; ${attrs}` };
}

/** Forgets the guest once its games were claimed by an account (a shared computer's next user must not claim them). */
export async function clearGuestCookie(): Promise<void> {
  const { request, name } = await current();
  // Set, not deleted: a `__Host-` cookie is only replaced by one with the same attributes.
  (await cookies()).set(name, '', cookieAttributes(request, 0));
}
