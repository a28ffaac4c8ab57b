/**
 * Cross-site request forgery guard for every state change (any method but GET/HEAD/OPTIONS).
 * Browsers label each request with where it came from: Sec-Fetch-Site (all current browsers)
 * and Origin (on every POST). A request a browser made for another site's page carries a foreign
 * value in one of them and is refused, so a session cookie can never be ridden by someone else's
 * page. Requests with neither header do not come from a browser page (scripts, the load test)
 * and carry no ambient cookies to abuse. SameSite=Lax cookies are the second line.
 */
export function crossSiteReason(request: { method: string; headers: Headers }, host: string): string | null {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return null;
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `a ${site} request`;
  const origin = request.headers.get('origin');
  if (origin === null) return null;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `an unreadable Origin (${origin.slice(0, 100)})`;
  }
  return originHost === host ? null : `a request from ${originHost}`;
}
