import { describe, expect, it } from 'vitest';
import { guestTag } from '@/lib/server/games/guest-tag';
import { livePlayerSchema } from '@/lib/live/wire';
import { playerName } from '@/lib/ui/players';

// "Guest 2–0 Guest": two guests in one match read the same. Each guest gets a short tag of its own.
describe('names of players in a match', () => {
  it('tells two guests apart by a tag that is stable for each and does not show the guest id', () => {
    const [a, b] = [guestTag('guest-id-one'), guestTag('guest-id-two')];
    expect(a).toMatch(/^[0-9A-F]{4}$/);
    expect(a).toBe(guestTag('guest-id-one'));
    expect(a).not.toBe(b);
    expect(playerName(livePlayerSchema.parse({ name: null, guest: true, tag: a }))).toBe(`Guest ${a}`);
    expect(playerName({ name: null, tag: a })).not.toBe(playerName({ name: null, tag: b }));
  });

  it('shows an account by its name, and a guest from an older server (no tag) as plain Guest', () => {
    expect(playerName({ name: 'ann', tag: 'ABCD' })).toBe('ann');
    expect(playerName({ name: null })).toBe('Guest');
    expect(playerName(null)).toBe('Guest');
  });

  it('carries the tag on the wire, and reads a malformed one as none', () => {
    expect(livePlayerSchema.parse({ name: null, guest: true, tag: '4F2A' })).toEqual({ name: null, guest: true, tag: '4F2A' });
    expect(livePlayerSchema.parse({ name: null, guest: true, tag: '<script>' })).toEqual({ name: null, guest: true });
  });
});
