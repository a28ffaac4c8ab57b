import { describe, expect, it } from 'vitest';
import { safeCallback } from '@/components/auth/safe-callback';

describe('safeCallback', () => {
  it('keeps same-origin paths with their query and fragment', () => {
    expect(safeCallback('/play/sprint')).toBe('/play/sprint');
    expect(safeCallback('/replays/abc?t=12')).toBe('/replays/abc?t=12');
    expect(safeCallback('/leaderboards?mode=ultra&period=week#me')).toBe('/leaderboards?mode=ultra&period=week#me');
    expect(safeCallback('/u/some-player')).toBe('/u/some-player');
  });

  it('falls back to the home page when there is nothing to follow', () => {
    expect(safeCallback(undefined)).toBe('/');
    expect(safeCallback(null)).toBe('/');
    expect(safeCallback('')).toBe('/');
  });

  // Each of these, followed by a browser, leaves the site (or runs script).
  const bypasses = [
    '//evil.example',
    '/\\evil.example',
    '/%5Cevil.example',
    '/%5cevil.example',
    '/%255Cevil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/%09/evil.example',
    '/\r\n/evil.example',
    '\\/\\/evil.example',
    '/%2Fevil.example',
    '/%2fevil.example',
    '/%252Fevil.example',
    'https://evil.example',
    'https:evil.example',
    'http:/evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' /evil.example',
    'evil.example',
    '/\u0000/evil.example',
    '/%E0%A4%A',
  ];
  it.each(bypasses)('refuses %j', (value) => {
    expect(safeCallback(value)).toBe('/');
  });

  it('never answers anything a browser would resolve to another origin', () => {
    for (const value of bypasses) {
      expect(new URL(safeCallback(value), 'https://linefall.test').origin).toBe('https://linefall.test');
    }
  });
});
