import 'server-only';
import { env } from '@/lib/server/env';

/**
 * Attributes for every cookie we set ourselves, matching next-auth's session cookie: http-only
 * (no script reads it), SameSite=Lax (not sent on cross-site POSTs), and Secure whenever the
 * site is served over https, which a production deployment must be (lib/env.js refuses a
 * production NEXTAUTH_URL on plain http other than loopback).
 */
export function cookieAttributes(request: Request, maxAgeSeconds: number) {
  const secure = env.NEXTAUTH_URL ? env.NEXTAUTH_URL.startsWith('https:') : new URL(request.url).protocol === 'https:';
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', maxAge: maxAgeSeconds };
}
