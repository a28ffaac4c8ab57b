import { describe, expect, it } from 'vitest';
import { readStampedAddress, stampAddress } from '@/lib/client-address.js';

describe('the client address header is trusted only when our server wrote it', () => {
  it('reads back what scripts/serve.mjs stamped with its per-process token', () => {
    expect(readStampedAddress(stampAddress('203.0.113.7', 'tok123'), 'tok123')).toBe('203.0.113.7');
    expect(readStampedAddress(stampAddress('2001:db8::1', 'tok123'), 'tok123')).toBe('2001:db8::1');
  });
  it('ignores a header a client sent itself (plain `next start`, or the app port reached past the proxy)', () => {
    expect(readStampedAddress('198.51.100.1', 'tok123')).toBeNull();
    expect(readStampedAddress(stampAddress('198.51.100.1', 'guessed'), 'tok123')).toBeNull();
    expect(readStampedAddress(null, 'tok123')).toBeNull();
  });
  it('trusts nothing when the app was not started by scripts/serve.mjs (no token)', () => {
    expect(readStampedAddress(stampAddress('198.51.100.1', 'tok123'), undefined)).toBeNull();
  });
});
