import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { cookies } from 'next/headers';
import { usernameKey } from '@/lib/validations/auth';
import { getDb } from '@/lib/server/db';
import { env } from '@/lib/server/env';

/**
 * A device cookie (OWASP's defence against lockout): a browser where the player signed in
 * successfully gets a signed note of that, and sign-ins from it skip the per-account limits.
 * Guessing from elsewhere can then block the guessers, never the owner on their own device.
 *
 * It names the account by its id, never by its name: a name can be freed (deletion) or change
 * hands (a rename), and the cookie must not vouch for whoever holds the name next. The device id
 * is random, kept across sign-ins on the same browser (ranked pairing tells devices apart by it).
 */
export const DEVICE_COOKIE = 'lf_device';
export const DEVICE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

export type Device = { userId: string; deviceId: string };

function sign(payload: string): string {
  return createHmac('sha256', `${env.AUTH_SECRET}:device`).update(payload).digest('base64url');
}

export const newDeviceId = () => randomBytes(12).toString('base64url');

export function deviceToken(device: Device, now = Date.now()): string {
  const payload = `${Buffer.from(device.userId).toString('base64url')}.${device.deviceId}.${Math.floor(now / 1000) + DEVICE_MAX_AGE_SECONDS}`;
  return `${payload}.${sign(payload)}`;
}

/** The device a genuine, unexpired cookie names; null for anything else. */
export function readDeviceToken(token: string | undefined, now = Date.now()): Device | null {
  const parts = token?.split('.') ?? [];
  // Exactly our four parts: anything appended to a genuine cookie makes it another value.
  if (parts.length !== 4) return null;
  const [user, deviceId, expires, signature] = parts;
  if (!user || !deviceId || !expires || !signature) return null;
  const expected = Buffer.from(sign(`${user}.${deviceId}.${expires}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (!(Number(expires) * 1000 > now)) return null;
  return { userId: Buffer.from(user, 'base64url').toString(), deviceId };
}

export function deviceTokenValid(token: string | undefined, userId: string, now = Date.now()): boolean {
  return readDeviceToken(token, now)?.userId === userId;
}

/** Whether this browser's device cookie was issued to the account now holding `username`. */
export async function trustedDevice(username: string): Promise<boolean> {
  const device = readDeviceToken((await cookies()).get(DEVICE_COOKIE)?.value);
  if (!device) return false; // no cookie: no need to look the name up
  const db = await getDb();
  const user = await db.user.findUnique({ where: { usernameKey: usernameKey(username) }, select: { id: true } });
  return user?.id === device.userId;
}

/** The cookie for a browser that just signed in as `userId`: the same device id as before, if it had one. */
export async function deviceCookieFor(userId: string): Promise<string> {
  const previous = readDeviceToken((await cookies()).get(DEVICE_COOKIE)?.value);
  return deviceToken({ userId, deviceId: previous?.deviceId ?? newDeviceId() });
}

/** The random device id of a Cookie header's device cookie (the live channel's upgrade), or null. */
export function deviceIdOf(cookieJar: Map<string, string>): string | null {
  return readDeviceToken(cookieJar.get(DEVICE_COOKIE))?.deviceId ?? null;
}
