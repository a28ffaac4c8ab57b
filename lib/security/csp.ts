/**
 * The Content-Security-Policy for pages: scripts only from us and only with this response's
 * nonce (Next stamps it on its own scripts; 'strict-dynamic' lets those load their chunks), no
 * plugins, no framing, forms and connections to ourselves. Styles allow inline attributes, which
 * React's `style` prop produces; CSS cannot run script, so this costs little.
 */
export function contentSecurityPolicy(options: { nonce: string; dev: boolean; https: boolean }): string {
  const { nonce, dev, https } = options;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // React's development build evaluates strings for its debugging aids; production never does.
    'script-src': ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    // The development server's hot reload talks over a websocket to the same host.
    'connect-src': ["'self'", ...(dev ? ['ws:', 'wss:'] : [])],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  const policy = Object.entries(directives).map(([name, values]) => `${name} ${values.join(' ')}`);
  if (https) policy.push('upgrade-insecure-requests');
  return policy.join('; ');
}

/** Headers every response carries, pages and API alike. */
export function securityHeaders(options: { https: boolean; production: boolean }): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    // Two years, as the HSTS preload list asks; only where https is what the site is served on.
    ...(options.production && options.https ? { 'strict-transport-security': 'max-age=63072000; includeSubDomains' } : {}),
  };
}
