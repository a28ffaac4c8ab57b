import { beforeEach, describe, expect, it } from 'vitest';
import { encodeReplay } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { getAbandonCounts } from '@/lib/server/games/abandons';
import { claimGuestGames } from '@/lib/server/games/claim';
import type { Owner } from '@/lib/server/games/owner';
import { submitReplay } from '@/lib/server/games/submit';
import { gateSubmission } from '@/lib/server/games/ticket-read';
import { issueTicket, type Ticket } from '@/lib/server/games/tickets';
import { botGame, claimOf, hardDropGame } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { minutes, player, streamLive, T0 } from '@/tests/data/play';

beforeEach(resetDb);

const seconds = (n: number) => new Date(T0.getTime() + n * 1000);

async function submitPlayed(ticket: Ticket, owner: Owner, play = botGame) {
  const played = play(ticket.mode, ticket.seed);
  played.replay.nextCount = 5;
  await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay });
  const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
  return submitReplay({ gameId: ticket.gameId, owner, submission, now: minutes(30) });
}

describe('one open ticket per player and mode (no seed shopping)', () => {
  it('forfeits the open ticket when the player starts another game in that mode, and counts it', async () => {
    const owner = await player('shopper');
    const first = await issueTicket({ live: true, mode: 'sprint', owner, now: T0 });
    // Five seconds in: the first game cannot have ended yet, so it is forfeited.
    const second = await issueTicket({ live: true, mode: 'sprint', owner, now: seconds(5) });
    const marathon = await issueTicket({ live: true, mode: 'marathon', owner, now: minutes(1) });

    expect(await submitPlayed(first, owner)).toMatchObject({ ok: false, status: 409, code: 'ticket_abandoned' });
    expect(await submitPlayed(second, owner)).toMatchObject({ ok: true, status: 201 });
    // Another mode's game is not touched.
    expect(await submitPlayed(marathon, owner, hardDropGame)).toMatchObject({ ok: true, status: 201 });

    // A submitted game is not forfeited by the next ticket.
    await issueTicket({ live: true, mode: 'sprint', owner, now: minutes(40) });
    expect(await getAbandonCounts({ userId: owner.userId! })).toEqual([{ mode: 'sprint', count: 1 }]);
    const db = await getDb();
    expect((await db.gameTicket.findUniqueOrThrow({ where: { id: first.gameId } })).abandonedAt).toEqual(seconds(5));
    expect((await db.rejectedSubmission.findMany({ select: { code: true } })).map((r) => r.code)).toEqual(['ticket_abandoned']);
  });

  it('does the same for a guest, keyed by the guest cookie', async () => {
    const guest: Owner = { userId: null, guestId: 'guest-shopper-00000000' };
    const other: Owner = { userId: null, guestId: 'guest-other-0000000000' };
    const first = await issueTicket({ live: true, mode: 'sprint', owner: guest, now: T0 });
    const neighbour = await issueTicket({ live: true, mode: 'sprint', owner: other, now: minutes(1) });
    await issueTicket({ live: true, mode: 'sprint', owner: guest, now: seconds(5) });
    expect(await submitPlayed(first, guest)).toMatchObject({ ok: false, status: 409, code: 'ticket_abandoned' });
    expect(await submitPlayed(neighbour, other)).toMatchObject({ ok: true, status: 201 });
  });

  it('keeps a game that had ended before the next ticket was issued (queued offline, or still on its way)', async () => {
    const owner = await player('queued');
    const first = await issueTicket({ live: true, mode: 'sprint', owner, now: T0 });
    await issueTicket({ live: true, mode: 'sprint', owner, now: minutes(10) });
    expect(await getAbandonCounts({ userId: owner.userId! })).toEqual([{ mode: 'sprint', count: 1 }]);
    expect(await submitPlayed(first, owner)).toMatchObject({ ok: true, status: 201 });
    // Not abandoned after all, and still spent: the same ticket cannot store a second game.
    expect(await getAbandonCounts({ userId: owner.userId! })).toEqual([]);
    const other = hardDropGame('sprint', first.seed);
    const again = { replay: encodeReplay(other.replay), claimed: claimOf(other.result) };
    expect(await submitReplay({ gameId: first.gameId, owner, submission: again, now: minutes(30) })).toMatchObject({ ok: false, status: 409, code: 'ticket_used' });
  });

  it('keeps a game whose ticket was read before the next ticket was issued (its body still on the way), and takes the forfeit back', async () => {
    const owner = await player('uploader');
    const first = await issueTicket({ live: true, mode: 'sprint', owner, now: T0 });
    const played = botGame('sprint', first.seed);
    played.replay.nextCount = 5;
    await streamLive({ gameId: first.gameId, seed: first.seed, owner, replay: played.replay });
    // The route reads the ticket with the request's count, before the body; a newer game starts meanwhile.
    const { ticket } = await gateSubmission([{ rule: 'submitPlayer', subject: owner.userId! }], first.gameId, minutes(10));
    await issueTicket({ live: true, mode: 'sprint', owner, now: minutes(10.5) });
    expect(await getAbandonCounts({ userId: owner.userId! })).toEqual([{ mode: 'sprint', count: 1 }]);
    const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
    expect(await submitReplay({ gameId: first.gameId, owner, submission, now: minutes(10), ticket })).toMatchObject({ ok: true, status: 201 });
    expect(await getAbandonCounts({ userId: owner.userId! })).toEqual([]);
  });

  it('judges a game as of its request even when the ticket is read after a later abandonment (a read that queued behind a slow batch)', async () => {
    const owner = await player('late-reader');
    const first = await issueTicket({ live: true, mode: 'sprint', owner, now: T0 });
    const played = botGame('sprint', first.seed);
    played.replay.nextCount = 5;
    await streamLive({ gameId: first.gameId, seed: first.seed, owner, replay: played.replay });
    // The request's moment is five seconds in (the game cannot have ended); the newer game starts
    // later, but before the ticket is read, so the read already sees the abandonment.
    await issueTicket({ live: true, mode: 'sprint', owner, now: minutes(10) });
    const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
    expect(await submitReplay({ gameId: first.gameId, owner, submission, now: seconds(5) })).toMatchObject({ ok: false, status: 409, code: 'ticket_abandoned' });
    expect(await (await getDb()).game.count({ where: { ticketId: first.gameId } })).toBe(0);
  });

  it('lets only one of two tickets issued at once stay open', async () => {
    const owner = await player('racer');
    const tickets = await Promise.all(Array.from({ length: 6 }, () => issueTicket({ live: true, mode: 'ultra', owner, now: T0 })));
    const db = await getDb();
    const open = await db.gameTicket.count({ where: { id: { in: tickets.map((t) => t.gameId) }, usedAt: null } });
    expect(open).toBe(1);
    expect(await getAbandonCounts({ userId: owner.userId! })).toEqual([{ mode: 'ultra', count: 5 }]);
  });
});

describe('a guest who signs in while a submission is on its way', () => {
  it('stores the game under the account the ticket moved to, not as a guest game nobody will claim', async () => {
    const guest: Owner = { userId: null, guestId: 'guest-signing-in-0000' };
    const account = await player('signer');
    const ticket = await issueTicket({ mode: 'sprint', owner: guest, now: T0 });
    const played = botGame('sprint', ticket.seed);
    // The route reads the ticket before the body; the guest signs in meanwhile, which moves the
    // ticket (still in play) to the account.
    const { ticket: read } = await gateSubmission([{ rule: 'submitAddress', subject: 'signer' }], ticket.gameId, minutes(5));
    await claimGuestGames({ userId: account.userId!, guestId: guest.guestId!, now: minutes(5.1) });
    const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
    expect(await submitReplay({ gameId: ticket.gameId, owner: guest, submission, now: minutes(5), ticket: read })).toMatchObject({ ok: true });
    const stored = await (await getDb()).game.findUniqueOrThrow({ where: { ticketId: ticket.gameId }, select: { userId: true, guestId: true, guestExpiresAt: true } });
    expect(stored).toEqual({ userId: account.userId, guestId: null, guestExpiresAt: null });
  });
});
