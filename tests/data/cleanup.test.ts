import { beforeEach, describe, expect, it } from 'vitest';
import { encodeReplay } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { backgroundCleanup, cleanupExpired } from '@/lib/server/games/cleanup';
import type { Owner } from '@/lib/server/games/owner';
import { submitReplay } from '@/lib/server/games/submit';
import { gateSubmission } from '@/lib/server/games/ticket-read';
import { issueTicket } from '@/lib/server/games/tickets';
import { resetDb } from '@/tests/data/db';
import { player, playAndSubmit, T0 } from '@/tests/data/play';
import { botGame, claimOf } from '@/tests/support/replays';

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

describe('an expired ticket and a submission still on its way', () => {
  it('keeps a ticket that expired while a submission read before its expiry was still uploading or verifying, so the game is stored', async () => {
    const owner = await player('last-second');
    const ticket = await issueTicket({ mode: 'sprint', owner, now: T0 });
    const played = botGame('sprint', ticket.seed);
    const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
    // The route reads the ticket a second before it expires; the body is still on its way (the
    // server gives a request a minute) when a cleanup runs half a minute after the expiry.
    const expiresAt = new Date(ticket.expiresAt).getTime();
    const readAt = new Date(expiresAt - 1000);
    const { ticket: read } = await gateSubmission([{ rule: 'submitPlayer', subject: owner.userId! }], ticket.gameId, readAt);
    await cleanupExpired({ now: new Date(expiresAt + 30_000) });
    expect(await submitReplay({ gameId: ticket.gameId, owner, submission, now: readAt, ticket: read })).toMatchObject({ ok: true });
    expect(await (await getDb()).game.count({ where: { ticketId: ticket.gameId } })).toBe(1);
  });
});
