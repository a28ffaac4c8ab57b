import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { gateSubmission, readTicket } from '@/lib/server/games/ticket-read';
import { issueTicket } from '@/lib/server/games/tickets';
import { RULES } from '@/lib/server/limits/rules';
import { resetDb } from '@/tests/data/db';
import { minutes, player, playAndSubmit, T0 } from '@/tests/data/play';

beforeEach(resetDb);

// A submission's count and ticket read share one statement (and a burst's share one): each request
// must still get its own ticket and the count it would have had from `hit` alone.
describe('the submission gate: rate-limit count and ticket read in one statement', () => {
  const burst = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

  it('reads each request its own ticket, as readTicket does, stored game included, and null for an unknown id', async () => {
    const owner = await player('gatekeeper');
    const stored = await playAndSubmit({ owner });
    const open = await issueTicket({ mode: 'marathon', owner, now: minutes(1) });
    const ids = [stored.ticket.gameId, open.gameId, 'ab'.repeat(12)];
    const gated = await burst(6, (i) => gateSubmission([{ rule: 'submitAddress', subject: `gate-${i}` }], ids[i % 3]!, minutes(2)));
    for (const [i, { ticket, verdict }] of gated.entries()) {
      expect(verdict.ok).toBe(true);
      expect(ticket === null ? null : { ...ticket }).toEqual(await readTicket(ids[i % 3]!));
    }
    expect(gated[0]!.ticket).toMatchObject({ id: stored.ticket.gameId, storedGameId: stored.ticket.gameId, mode: 'sprint', issuedAt: T0 });
    expect(gated[1]!.ticket).toMatchObject({ id: open.gameId, storedGameId: null, usedAt: null, mode: 'marathon', expiresAt: new Date(open.expiresAt) });
    expect(gated[2]!.ticket).toBeNull();
  });

  it('reads and writes timestamps as the UTC instants Prisma does, whatever time zone the server runs in', async () => {
    const zone = process.env.TZ;
    // Node takes a new TZ at once; the drivers would read a `timestamp` in it, 13 hours off.
    process.env.TZ = 'Pacific/Auckland';
    try {
      const owner = await player('zoned');
      const { ticket, outcome } = await playAndSubmit({ owner });
      const gated = await gateSubmission([{ rule: 'submitAddress', subject: 'zoned' }], ticket.gameId, minutes(6));
      expect(gated.ticket).toMatchObject({ issuedAt: T0, expiresAt: new Date(ticket.expiresAt) });
      expect(outcome).toMatchObject({ ok: true, status: 201 });
      const stored = await (await getDb()).game.findUniqueOrThrow({ where: { id: ticket.gameId }, select: { createdAt: true } });
      expect(stored.createdAt).toEqual(minutes(5));
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('gives the last slots of a burst to exactly as many requests as the limit allows, and counts every one once', async () => {
    const { limit } = RULES.submitPlayer;
    const owner = await player('burster');
    const { gameId } = await issueTicket({ mode: 'sprint', owner, now: minutes(1) });
    const checks = (i: number) => [{ rule: 'submitAddress' as const, subject: `addr-${i % 3}` }, { rule: 'submitPlayer' as const, subject: 'burster' }];
    // Half way through a window, so the previous window weighs half (a count read as the previous one would show).
    const gated = await burst(limit + 5, (i) => gateSubmission(checks(i), gameId, minutes(2.5)));
    expect(gated.filter((g) => g.verdict.ok)).toHaveLength(limit);
    expect(gated.slice(limit).every((g) => !g.verdict.ok && g.verdict.rule === 'submitPlayer')).toBe(true);
    expect(gated.every((g) => g.ticket?.id === gameId)).toBe(true);
    const rows = await (await getDb()).rateLimit.findMany({ where: { key: 'submitPlayer:burster' } });
    expect(rows.reduce((sum, r) => sum + r.count, 0)).toBe(limit + 5);
  });

  it('fails only the request the database refuses; its neighbours are counted and read', async () => {
    const owner = await player('neighbour');
    const { gameId } = await issueTicket({ mode: 'sprint', owner, now: minutes(1) });
    // A NUL is no valid text for PostgreSQL: the statement that holds it fails as a whole.
    const outcomes = await burst(5, (i) =>
      gateSubmission([{ rule: 'submitAddress', subject: i === 2 ? 'evil\u0000' : 'fine' }], gameId, minutes(2)).then((g) => g.ticket?.id, () => 'failed'),
    );
    expect(outcomes).toEqual([gameId, gameId, 'failed', gameId, gameId]);
    const rows = await (await getDb()).rateLimit.findMany({ where: { key: 'submitAddress:fine' } });
    expect(rows.reduce((sum, r) => sum + r.count, 0)).toBe(4);
  });
});
