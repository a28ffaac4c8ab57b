import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import type { LiveHub } from '@/lib/server/live/hub';
import { runMessage } from '@/lib/server/live/messages';
import { liveSite } from '@/tests/data/live-site';

afterEach(() => vi.restoreAllMocks());

describe('running a live message', () => {
  it('answers server_error for a bug, whether it throws at once or after the handler waited', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const site = liveSite({ userId: null, guestId: 'guest-of-a-bug' });
    const bug = () => {
      throw new Error('a bug');
    };
    // `watch` reads the hosts at once; `start` takes its per-address slot inside its async handler.
    const hub = { ...site.hub, hosts: { get: bug }, gamesByAddress: { take: bug } } as unknown as LiveHub;
    const serverError = { t: 'error', code: 'server_error', message: 'The server could not handle this message.' };

    runMessage(hub, site.conn, { t: 'watch', gameId: 'abcdefgh1' });
    expect(site.sent).toEqual([serverError]);

    runMessage(hub, site.conn, { t: 'start', mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    await vi.waitFor(() => expect(site.sent).toEqual([serverError, serverError]));
    expect(logged).toHaveBeenCalledTimes(2);
  });

  it('takes what a handler returns for a promise only when it is one (a stub socket\'s send returns a count)', () => {
    const site = liveSite({ userId: null, guestId: 'guest-who-pings' });
    runMessage(site.hub, site.conn, { t: 'ping', n: 7 });
    expect(site.sent).toEqual([{ t: 'pong', n: 7 }]);
  });
});
