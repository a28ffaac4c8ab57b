import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, securityHeaders } from '@/lib/security/csp';
import { crossSiteReason, siteOrigin } from '@/lib/security/csrf';
import { appEnv } from '@/lib/env.js';


/**
 * Runs before every page and API request: refuses cross-site state changes, and gives each
 * response its security headers and a fresh CSP nonce (passed to Next on the request, which
 * stamps it on its scripts).
 */
export function proxy(request: NextRequest) {
  const env = appEnv();
  const dev = env.NODE_ENV !== 'production';
  const publicUrl = env.NEXTAUTH_URL ? new URL(env.NEXTAUTH_URL) : null;
  // The scheme the browser used: the public URL's, or the one a trusted proxy forwards (only
  // behind a declared proxy; a client could send the header itself).
  const forwardedProto = Number(process.env.TRUST_PROXY_HOPS ?? 0) > 0 ? request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() : null;
  const https = publicUrl ? publicUrl.protocol === 'https:' : forwardedProto === 'https';
  const headers = securityHeaders({ https, production: !dev });

  // A path that is not valid percent-encoding would otherwise fail deep inside the router.
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return refuse(400, 'invalid_path', 'The address is not valid percent-encoding.', headers);
  }

  const origin = siteOrigin({ https, publicUrl: env.NEXTAUTH_URL, trustProxyHops: env.TRUST_PROXY_HOPS, headers: request.headers, host: request.nextUrl.host });
  const crossSite = crossSiteReason(request, origin);
  if (crossSite) return refuse(403, 'cross_site_request', `Refused ${crossSite}: changes can only be made from Linefall's own pages.`, headers);

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = contentSecurityPolicy({ nonce, dev, https });
  const forwarded = new Headers(request.headers);
  forwarded.set('x-nonce', nonce);
  forwarded.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers: forwarded } });
  response.headers.set('content-security-policy', csp);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

function refuse(status: number, code: string, message: string, headers: Record<string, string>) {
  const response = NextResponse.json({ error: { code, message } }, { status });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Build assets are immutable files with nothing to protect from framing or scripts.
  matcher: [{ source: '/((?!_next/static|_next/image|favicon.ico).*)' }],
};
