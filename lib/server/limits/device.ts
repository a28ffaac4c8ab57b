import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cookies } from 'next/headers';
import { env } from '@/lib/server/env';

/**
 * A device cookie (OWASP's defence against lockout): a browser where the player signed in
 * successfully gets a signed note of that, and sign-ins from it skip the per-account limits.
 * Guessing from elsewhere can then block the guessers, never the owner on their own device.
 */
export const DEVICE_COOKIE = 'lf_device';
export const DEVICE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

function sign(payload: string): string {
  return createHmac('sha256', `${env.AUTH_SECRET}:device`).update(payload).digest('base64url');
}

export function deviceToken(account: string, now = Date.now()): string {
  const payload = `${Buffer.from(account).toString('base64url')}.${Math.floor(now / 1000) + DEVICE_MAX_AGE_SECONDS}`;
  return `${payload}.${sign(payload)}`;
}

export function deviceTokenValid(token: string | undefined, account: string, now = Date.now()): boolean {
  const [name, expires, signature] = token?.split('.') ?? [];
  if (!name || !expires || !signature) return false;
  const expected = Buffer.from(sign(`${name}.${expires}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return Buffer.from(name, 'base64url').toString() === account && Number(expires) * 1000 > now;
}

export async function trustedDevice(account: string): Promise<boolean> {
  return deviceTokenValid((await cookies()).get(DEVICE_COOKIE)?.value, account);
}
