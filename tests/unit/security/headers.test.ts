import { describe, expect, it } from 'vitest';
import { clientAddress } from '@/lib/client-address.js';
import { contentSecurityPolicy, securityHeaders } from '@/lib/security/csp';
import { crossSiteReason } from '@/lib/security/csrf';

const post = (headers: Record<string, string>) => ({ method: 'POST', headers: new Headers(headers) });

const SITE = 'https://a.test';

describe('CSRF guard', () => {
  it('lets reads through whatever their origin', () => {
    expect(crossSiteReason({ method: 'GET', headers: new Headers({ 'sec-fetch-site': 'cross-site' }) }, SITE)).toBeNull();
  });
  it('accepts same-origin browser requests and non-browser clients', () => {
    expect(crossSiteReason(post({ 'sec-fetch-site': 'same-origin', origin: 'https://a.test' }), SITE)).toBeNull();
    expect(crossSiteReason(post({}), SITE)).toBeNull();
  });
  it('refuses cross-site and same-site (sibling subdomain) state changes', () => {
    expect(crossSiteReason(post({ 'sec-fetch-site': 'cross-site' }), SITE)).toMatch(/cross-site/);
    expect(crossSiteReason(post({ 'sec-fetch-site': 'same-site' }), SITE)).toMatch(/same-site/);
  });
  it('refuses a foreign or unreadable Origin when Sec-Fetch-Site is missing', () => {
    expect(crossSiteReason(post({ origin: 'https://evil.test' }), SITE)).toMatch(/evil\.test/);
    expect(crossSiteReason(post({ origin: 'null' }), SITE)).toMatch(/unreadable/);
    expect(crossSiteReason({ method: 'DELETE', headers: new Headers({ origin: 'https://evil.test' }) }, SITE)).not.toBeNull();
  });
  it('compares scheme and host: the same host over plain http (or another port) is another origin', () => {
    expect(crossSiteReason(post({ origin: 'http://a.test' }), SITE)).toMatch(/http:\/\/a\.test/);
    expect(crossSiteReason(post({ origin: 'https://a.test:8443' }), SITE)).not.toBeNull();
    expect(crossSiteReason(post({ origin: 'http://localhost:3000' }), 'http://localhost:3000')).toBeNull();
  });
});

describe('Content-Security-Policy', () => {
  it('allows scripts only with the nonce in production, and forbids framing and plugins', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc', dev: false, https: true });
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain('upgrade-insecure-requests');
    expect(contentSecurityPolicy({ nonce: 'abc', dev: false, https: false })).not.toContain('upgrade-insecure-requests');
  });
  it('sends HSTS only from a production https site', () => {
    expect(securityHeaders({ https: true, production: true })['strict-transport-security']).toMatch(/max-age=\d{8}/);
    expect(securityHeaders({ https: false, production: true })['strict-transport-security']).toBeUndefined();
    expect(securityHeaders({ https: true, production: false })['x-content-type-options']).toBe('nosniff');
  });
});

describe('client address', () => {
  it('is the socket when no proxy is trusted, whatever the client claims', () => {
    expect(clientAddress('6.6.6.6', '::ffff:10.0.0.1', 0)).toBe('10.0.0.1');
  });
  it('is the address the trusted proxy appended, not what the client wrote before it', () => {
    expect(clientAddress('6.6.6.6, 203.0.113.9', '10.0.0.2', 1)).toBe('203.0.113.9');
    expect(clientAddress(undefined, '10.0.0.2', 1)).toBe('10.0.0.2');
    expect(clientAddress('a, b, c', '10.0.0.2', 2)).toBe('b');
  });
  it('drops the port a proxy may write, so connections of one client count together', () => {
    expect(clientAddress('203.0.113.9:51234', '10.0.0.2', 1)).toBe('203.0.113.9');
    expect(clientAddress('[2001:db8::1]:443', '10.0.0.2', 1)).toBe('2001:db8::1');
    expect(clientAddress('2001:db8::1', '10.0.0.2', 1)).toBe('2001:db8::1');
  });
});

describe('CSRF guard with a malformed Host', () => {
  it('refuses rather than throwing', () => {
    expect(crossSiteReason(post({ origin: 'https://a.test' }), 'https://bad host')).toMatch(/a\.test/);
  });
});
