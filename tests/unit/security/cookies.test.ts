import { describe, expect, it } from 'vitest';
import { requestIsHttps } from '@/lib/server/cookies';

const request = (headers: Record<string, string> = {}) => ({ url: 'http://app.internal:3000/api/games', headers: new Headers(headers) });

describe('Secure cookies follow the scheme the browser used', () => {
  it('behind one trusted proxy that says https (no NEXTAUTH_URL set), cookies are Secure', () => {
    expect(requestIsHttps(request({ 'x-forwarded-proto': 'https' }), { trustProxyHops: 1 })).toBe(true);
    expect(requestIsHttps(request({ 'x-forwarded-proto': 'http' }), { trustProxyHops: 1 })).toBe(false);
  });
  it('ignores X-Forwarded-Proto when no proxy is declared: a client could send it', () => {
    expect(requestIsHttps(request({ 'x-forwarded-proto': 'https' }), { trustProxyHops: 0 })).toBe(false);
  });
  it('lets the public URL decide when it is set', () => {
    expect(requestIsHttps(request(), { publicUrl: 'https://linefall.example', trustProxyHops: 0 })).toBe(true);
    expect(requestIsHttps(request({ 'x-forwarded-proto': 'https' }), { publicUrl: 'http://localhost:3000', trustProxyHops: 1 })).toBe(false);
  });
});
