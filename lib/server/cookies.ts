import 'server-only';
import { env } from '@/lib/server/env';

/**
 * Whether the browser reached the site over https: the public URL says so (NEXTAUTH_URL), or,
 * when it is not set, the scheme a trusted reverse proxy forwards (TRUST_PROXY_HOPS > 0). A
 * client talking to the app directly could send X-Forwarded-Proto itself, so it is read only
 * behind a declared proxy.
 */
export function requestIsHttps(request: { url: string; headers: Headers }, deployment: { publicUrl?: string; trustProxyHops: number }): boolean {
  if (deployment.publicUrl) return deployment.publicUrl.startsWith('https:');
  if (deployment.trustProxyHops > 0) return request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
  return new URL(request.url).protocol === 'https:';
}

export const isHttps = (request: { url: string; headers: Headers }) =>
  requestIsHttps(request, { publicUrl: env.NEXTAUTH_URL, trustProxyHops: env.TRUST_PROXY_HOPS });

/**
 * Attributes for every cookie we set ourselves, matching next-auth's session cookie: http-only
 * (no script reads it), SameSite=Lax (not sent on cross-site POSTs), and Secure whenever the
 * site is served over https (lib/env.js refuses a production NEXTAUTH_URL on plain http other
 * than loopback; without one, a production proxy's X-Forwarded-Proto decides).
 */
export function cookieAttributes(request: { url: string; headers: Headers }, maxAgeSeconds: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: isHttps(request), path: '/', maxAge: maxAgeSeconds };
}
