import { beforeEach, describe, expect, it } from 'vitest';
import { encodeReplay } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { cleanupExpired } from '@/lib/server/games/cleanup';
import { submitReplay } from '@/lib/server/games/submit';
import { issueTicket } from '@/lib/server/games/tickets';
import { claimOf, hardDropGame } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { minutes, player, T0 } from '@/tests/data/play';

beforeEach(resetDb);

describe('refusals: rows only for real tickets, counters for the rest', () => {
  it('counts unknown and foreign tickets per day and code instead of storing a row for each', async () => {
    const owner = await player('owner');
    const stranger = await player('stranger');
    const ticket = await issueTicket({ mode: 'sprint', owner, now: T0 });
    const played = hardDropGame('sprint', ticket.seed);
    const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
    for (let i = 0; i < 3; i++) {
      expect(await submitReplay({ gameId: `doesnotexist${i}0`, owner: stranger, submission, now: minutes(5) })).toMatchObject({ status: 404 });
    }
    for (let i = 0; i < 2; i++) {
      expect(await submitReplay({ gameId: ticket.gameId, owner: stranger, submission, now: minutes(5) })).toMatchObject({ status: 403 });
    }
    const db = await getDb();
    expect(await db.rejectedSubmission.count()).toBe(0);
    const counts = await db.refusalCount.findMany({ select: { day: true, code: true, count: true }, orderBy: { code: 'asc' } });
    expect(counts).toEqual([
      { day: '2026-11-18', code: 'ticket_forbidden', count: 2 },
      { day: '2026-11-18', code: 'ticket_not_found', count: 3 },
    ]);

    // A refusal of the caller's own ticket is still recorded with its reason, for moderation.
    const forged = { ...submission, claimed: { ...submission.claimed, score: submission.claimed.score + 1 } };
    expect(await submitReplay({ gameId: ticket.gameId, owner, submission: forged, now: minutes(5) })).toMatchObject({ code: 'result_mismatch' });
    expect(await db.rejectedSubmission.count()).toBe(1);

    // Counters go after 30 days like the rows.
    await cleanupExpired({ now: minutes(31 * 24 * 60) });
    expect(await db.refusalCount.count()).toBe(0);
  });

  it('records a refusal and spends the ticket together when the replay spent it, and leaves it open when it did not', async () => {
    const owner = await player('owner');
    const ticket = await issueTicket({ mode: 'sprint', owner, now: T0 });
    const played = hardDropGame('sprint', ticket.seed);
    const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
    const db = await getDb();
    const used = async () => (await db.gameTicket.findUniqueOrThrow({ where: { id: ticket.gameId } })).usedAt;

    // An unreadable replay says nothing about the game: recorded, and the ticket stays open.
    expect(await submitReplay({ gameId: ticket.gameId, owner, submission: { ...submission, replay: 'not-a-replay' }, now: minutes(5) })).toMatchObject({ code: 'replay_undecodable' });
    expect(await used()).toBeNull();
    // A replay played on another seed was a game played: the ticket is spent with the refusal.
    const other = hardDropGame('sprint', 'some-other-seed');
    const wrong = { replay: encodeReplay(other.replay), claimed: claimOf(other.result) };
    expect(await submitReplay({ gameId: ticket.gameId, owner, submission: wrong, now: minutes(6) })).toMatchObject({ code: 'seed_mismatch' });
    expect(await used()).toEqual(minutes(6));
    const rows = await db.rejectedSubmission.findMany({ select: { ticketId: true, userId: true, code: true, size: true }, orderBy: { createdAt: 'asc' } });
    expect(rows).toEqual([
      { ticketId: ticket.gameId, userId: owner.userId, code: 'replay_undecodable', size: 'not-a-replay'.length },
      { ticketId: ticket.gameId, userId: owner.userId, code: 'seed_mismatch', size: wrong.replay.length },
    ]);
    // The honest replay now finds its ticket spent.
    expect(await submitReplay({ gameId: ticket.gameId, owner, submission, now: minutes(7) })).toMatchObject({ code: 'ticket_used' });
  });
});
