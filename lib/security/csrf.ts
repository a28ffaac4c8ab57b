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
  return foreignPageReason(request.headers, origin);
}

/**
 * The same rule without the method: for the live channel's WebSocket upgrade, a GET whose socket
 * then carries the player's writes (browsers send Origin on every WebSocket handshake, and no
 * SameSite rule keeps the cookies off one from another site's page).
 */
export function foreignPageReason(headers: Headers, origin: string): string | null {
  const site = headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `a ${site} request`;
  const sent = headers.get('origin');
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

/**
 * The site's own origin as the browser sees it: the public URL's host when set, else the host a
 * declared reverse proxy forwards (only behind one: a client could send the header itself), else
 * the request's Host.
 */
export function siteOrigin(o: { https: boolean; publicUrl: string | undefined; trustProxyHops: number; headers: Headers; host: string }): string {
  const forwardedHost = o.trustProxyHops > 0 ? o.headers.get('x-forwarded-host')?.split(',')[0]?.trim() : null;
  const host = (o.publicUrl ? new URL(o.publicUrl).host : null) ?? forwardedHost ?? o.headers.get('host') ?? o.host;
  return `${o.https ? 'https' : 'http'}://${host}`;
}
