/**
 * Cross-site request forgery guard for every state change (any method but GET/HEAD/OPTIONS).
 * Browsers label each request with where it came from: Sec-Fetch-Site (all current browsers)
 * and Origin (on every POST). A request a browser made for another site's page carries a foreign
 * value in one of them and is refused, so a session cookie can never be ridden by someone else's
 * page. Requests with neither header do not come from a browser page (scripts, the load test)
 * and carry no ambient cookies to abuse. SameSite=Lax cookies are the second line.
 *
 * `origin` is the site's own (scheme://host[:port]): an Origin is compared whole, because the
 * same host over plain http is another origin, one a network attacker can serve.
 */
export function crossSiteReason(request: { method: string; headers: Headers }, origin: string): string | null {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return null;
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `a ${site} request`;
  const sent = request.headers.get('origin');
  if (sent === null) return null;
  let sentOrigin: string;
  try {
    sentOrigin = new URL(sent).origin;
  } catch {
    return `an unreadable Origin (${sent.slice(0, 100)})`;
  }
  if (sentOrigin === 'null') return `an unreadable Origin (${sent.slice(0, 100)})`;
  let ours: string | null = null;
  try {
    ours = new URL(origin).origin;
  } catch {
    // A Host header that makes no URL cannot be ours.
  }
  return sentOrigin === ours ? null : `a request from ${sentOrigin}`;
}
