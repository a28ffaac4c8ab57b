import { describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.AUTH_SECRET = 'unit-test-secret-unit-test-secret-unit';
});
const { DEVICE_MAX_AGE_SECONDS, deviceToken, deviceTokenValid, readDeviceToken } = await import('@/lib/server/limits/device');

// The device cookie lets a browser skip the per-account sign-in limits (limits/device.ts), so
// anything but the account's own, unexpired, genuinely signed cookie must count for nothing.
const NOW = Date.parse('2026-11-22T12:00:00Z');
const ALICE = { userId: 'cl-alice-id', deviceId: 'dev-1' };

describe('device cookies', () => {
  const token = deviceToken(ALICE, NOW);

  it('are valid for the account (by id) they were issued to, until they expire, and name their device', () => {
    expect(deviceTokenValid(token, ALICE.userId, NOW)).toBe(true);
    expect(deviceTokenValid(token, ALICE.userId, NOW + (DEVICE_MAX_AGE_SECONDS - 1) * 1000)).toBe(true);
    expect(readDeviceToken(token, NOW)).toEqual(ALICE);
  });

  it('name no username: a name freed by deletion or a rename is not vouched for', () => {
    expect(Buffer.from(token.split('.')[0]!, 'base64url').toString()).toBe(ALICE.userId);
    expect(deviceTokenValid(token, 'alice', NOW)).toBe(false);
  });

  it('are refused once expired', () => {
    expect(deviceTokenValid(token, ALICE.userId, NOW + DEVICE_MAX_AGE_SECONDS * 1000)).toBe(false);
    expect(deviceTokenValid(deviceToken(ALICE, NOW - DEVICE_MAX_AGE_SECONDS * 1000 - 1000), ALICE.userId, NOW)).toBe(false);
  });

  it('are refused for another account', () => {
    expect(deviceTokenValid(token, 'cl-bob-id', NOW)).toBe(false);
    expect(deviceTokenValid(deviceToken({ userId: 'cl-bob-id', deviceId: 'dev-1' }, NOW), ALICE.userId, NOW)).toBe(false);
  });

  it('are refused when forged: any part changed, a signature of another value, or malformed', () => {
    const [user, device, expires, signature] = token.split('.') as [string, string, string, string];
    const otherUser = Buffer.from('cl-mallory-id').toString('base64url');
    const forgeries = [
      `${otherUser}.${device}.${expires}.${signature}`,
      `${user}.dev-2.${expires}.${signature}`,
      `${user}.${device}.${Number(expires) + DEVICE_MAX_AGE_SECONDS}.${signature}`,
      `${user}.${device}.${expires}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `${user}.${device}.${expires}.${deviceToken({ userId: 'cl-bob-id', deviceId: device }, NOW).split('.')[3]}`,
      `${user}.${device}.${expires}`,
      `${user}.${device}.${expires}.${signature}.`,
      `${user}.${device}.${expires}.${signature}.extra`,
      '',
      '...',
    ];
    for (const forged of forgeries) expect(deviceTokenValid(forged, ALICE.userId, NOW), forged).toBe(false);
    expect(deviceTokenValid(undefined, ALICE.userId, NOW)).toBe(false);
  });
});
