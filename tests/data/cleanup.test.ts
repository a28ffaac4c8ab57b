import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { backgroundCleanup } from '@/lib/server/games/cleanup';
import type { Owner } from '@/lib/server/games/owner';
import { issueTicket } from '@/lib/server/games/tickets';
import { resetDb } from '@/tests/data/db';
import { playAndSubmit, T0 } from '@/tests/data/play';

beforeEach(resetDb);

describe('the cleanup a new ticket starts', () => {
  it('runs in the background and can be awaited: once it is, everything it deletes is gone', async () => {
    const guest: Owner = { userId: null, guestId: 'guest-cookie-cleanup0' };
    const { ticket: unclaimed } = await playAndSubmit({ owner: guest, issuedAt: T0 });
    await backgroundCleanup();
    const db = await getDb();
    expect(await db.game.count()).toBe(1);

    // Long after the guest game's 24 hours (and past the cleanup's 10-minute throttle): the new
    // ticket starts a cleanup that deletes the unclaimed game, its ticket, and nothing else.
    const fresh = await issueTicket({ mode: 'sprint', owner: guest, now: new Date('2100-01-01T12:00:00Z') });
    await backgroundCleanup();
    expect(await db.game.count()).toBe(0);
    const tickets = (await db.gameTicket.findMany({ select: { id: true } })).map((t) => t.id);
    expect(tickets).toEqual([fresh.gameId]);
    expect(tickets).not.toContain(unclaimed.gameId);
  });
});
