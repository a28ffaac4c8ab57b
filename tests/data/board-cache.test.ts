import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteAccount } from '@/lib/server/account/delete';
import { getDb } from '@/lib/server/db';
import { BOARD_PAGE_TTL_MS, boardCacheClock, boardsChanged } from '@/lib/server/games/board-cache';
import { getBoard } from '@/lib/server/games/boards';
import { resetDb } from '@/tests/data/db';
import { playAndSubmit, player } from '@/tests/data/play';

beforeEach(resetDb);

// The cache's clock stands still unless a test moves it: a slow machine must not expire a page between two reads.
let clock = 0;
beforeEach(() => void vi.spyOn(boardCacheClock, 'now').mockImplementation(() => clock));
afterEach(() => vi.restoreAllMocks());

const board = (viewerId?: string) => getBoard({ mode: 'sprint', period: 'all', limit: 10, viewerId });
const usernames = async (viewerId?: string) => (await board(viewerId)).rows.map((r) => r.player.username);

/** A best written past every path of the app (another instance's write, as this process sees it). */
async function bestElsewhere(userId: string, gameId: string, metric: number) {
  const db = await getDb();
  await db.$executeRaw`
    INSERT INTO "PersonalBest" ("userId", "mode", "period", "gameId", "metric", "achievedAt")
    VALUES (${userId}, 'sprint', 'all', ${gameId}, ${metric}, now())
    ON CONFLICT ("userId", "mode", "period") DO UPDATE SET "gameId" = EXCLUDED."gameId", "metric" = EXCLUDED."metric"`;
}

describe('board pages everyone reads', () => {
  it('are read from the database once a moment: another instance’s best shows within it, and at once after a change here', async () => {
    const alice = await player('alice');
    const bob = await player('bob');
    const first = await playAndSubmit({ owner: alice });
    const second = await playAndSubmit({ owner: bob });
    expect(first.outcome.ok && second.outcome.ok).toBe(true);
    const before = await usernames();
    expect([...before].sort()).toEqual(['alice', 'bob']);
    // Bob's row moved by a write this process did not make: the page read a moment ago stands.
    await bestElsewhere(bob.userId!, second.ticket.gameId, 1);
    expect(await usernames()).toEqual(before);
    boardsChanged();
    expect((await usernames())[0]).toBe('bob');
    await bestElsewhere(alice.userId!, first.ticket.gameId, 0);
    clock += BOARD_PAGE_TTL_MS;
    expect((await usernames())[0]).toBe('alice');
  });

  it('start afresh for a change made through another copy of this module: Next builds routes and pages apart, each with its own', async () => {
    const alice = await player('alice');
    const bob = await player('bob');
    const played = { alice: await playAndSubmit({ owner: alice }), bob: await playAndSubmit({ owner: bob }) };
    const before = await usernames();
    // The copy a route loads (the moderation route's ban, the replay route's best), beside the page's:
    // the module under another id, so the files run after this one keep the copies they share.
    const other = '@/lib/server/games/board-cache?as-a-route';
    const route = (await import(/* @vite-ignore */ other)) as typeof import('@/lib/server/games/board-cache');
    expect(route.boardsChanged).not.toBe(boardsChanged);
    // The leader's best moved past the other's, then the route says the boards changed.
    const leader = before[0] === 'alice' ? alice : bob;
    await bestElsewhere(leader.userId!, played[before[0] as 'alice' | 'bob'].ticket.gameId, 1_000_000);
    expect(await usernames()).toEqual(before);
    route.boardsChanged();
    expect(await usernames()).toEqual([...before].reverse());
  });

  it('show a best stored here, and lose a deleted account, on the next read', async () => {
    const alice = await player('alice');
    const bob = await player('bob');
    await playAndSubmit({ owner: alice });
    expect(await usernames()).toEqual(['alice']);
    await playAndSubmit({ owner: bob });
    expect((await usernames()).sort()).toEqual(['alice', 'bob']);
    await deleteAccount({ userId: alice.userId! });
    expect(await usernames()).toEqual(['bob']);
  });

  it('never keep the viewer’s own row: it is read for every viewer, every time', async () => {
    const alice = await player('alice');
    const { ticket } = await playAndSubmit({ owner: alice });
    const seen = await board(alice.userId!);
    expect(seen.me).toMatchObject({ rank: 1, gameId: ticket.gameId });
    const db = await getDb();
    await db.personalBest.deleteMany({ where: { userId: alice.userId! } });
    const again = await board(alice.userId!);
    expect(again.rows).toEqual(seen.rows);
    expect(again.me).toBeNull();
  });
});
