import { describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.AUTH_SECRET = 'unit-test-secret-unit-test-secret-unit';
});
const { DEVICE_MAX_AGE_SECONDS, deviceToken, deviceTokenValid } = await import('@/lib/server/limits/device');

// The device cookie lets a browser skip the per-account sign-in limits (limits/device.ts), so
// anything but the account's own, unexpired, genuinely signed cookie must count for nothing.
const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('device cookies', () => {
  const token = deviceToken('alice', NOW);

  it('are valid for the account they were issued to, until they expire', () => {
    expect(deviceTokenValid(token, 'alice', NOW)).toBe(true);
    expect(deviceTokenValid(token, 'alice', NOW + (DEVICE_MAX_AGE_SECONDS - 1) * 1000)).toBe(true);
  });

  it('are refused once expired', () => {
    expect(deviceTokenValid(token, 'alice', NOW + DEVICE_MAX_AGE_SECONDS * 1000)).toBe(false);
    expect(deviceTokenValid(deviceToken('alice', NOW - DEVICE_MAX_AGE_SECONDS * 1000 - 1000), 'alice', NOW)).toBe(false);
  });

  it('are refused for another account', () => {
    expect(deviceTokenValid(token, 'bob', NOW)).toBe(false);
    expect(deviceTokenValid(deviceToken('bob', NOW), 'alice', NOW)).toBe(false);
  });

  it('are refused when forged: any part changed, a signature of another value, or malformed', () => {
    const [name, expires, signature] = token.split('.') as [string, string, string];
    const otherName = Buffer.from('mallory').toString('base64url');
    const forgeries = [
      `${otherName}.${expires}.${signature}`,
      `${name}.${Number(expires) + DEVICE_MAX_AGE_SECONDS}.${signature}`,
      `${name}.${expires}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `${name}.${expires}.${deviceToken('bob', NOW).split('.')[2]}`,
      `${name}.${expires}`,
      `${name}.${expires}.${signature}.`,
      `${name}.${expires}.${signature}.extra`,
      '',
      '...',
    ];
    for (const forged of forgeries) expect(deviceTokenValid(forged, 'alice', NOW), forged).toBe(false);
    expect(deviceTokenValid(undefined, 'alice', NOW)).toBe(false);
  });
});
