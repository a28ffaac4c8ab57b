import 'server-only';
import { randomBytes } from 'node:crypto';
import { cookies } from 'next/headers';
import { cookieAttributes } from '@/lib/server/cookies';

/** An anonymous player's id: random, http-only, never shown to scripts in the page. */
export const GUEST_COOKIE = 'lf_guest';
const GUEST_ID = /^[A-Za-z0-9_-]{22}$/;

export async function readGuestId(): Promise<string | null> {
  const value = (await cookies()).get(GUEST_COOKIE)?.value;
  return value && GUEST_ID.test(value) ? value : null;
}

/** The guest id from the cookie, or a new one set on the response. Route handlers only. */
export async function ensureGuestId(request: Request): Promise<string> {
  const existing = await readGuestId();
  if (existing) return existing;
  const id = randomBytes(16).toString('base64url');
  (await cookies()).set(GUEST_COOKIE, id, cookieAttributes(request, 30 * 24 * 60 * 60));
  return id;
}
