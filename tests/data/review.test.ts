import { beforeEach, describe, expect, it } from 'vitest';
import { encodeReplay, type Mode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { getBoard } from '@/lib/server/games/boards';
import { claimGuestGames } from '@/lib/server/games/claim';
import type { Owner } from '@/lib/server/games/owner';
import { getBestProgression } from '@/lib/server/games/progression';
import { getPlayerBests, getReplay, listRecentGames } from '@/lib/server/games/replays';
import { approveGame, listHeldGames, rejectGame } from '@/lib/server/games/review';
import { submitReplay } from '@/lib/server/games/submit';
import { issueTicket } from '@/lib/server/games/tickets';
import { botGame, claimOf, roboticGame, type Played } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { player, streamLive } from '@/tests/data/play';

// Sunday of ISO week 2026-W47; reviews happen in the next week.
const PLAYED = new Date('2026-11-22T20:00:00Z');
const NEXT_WEEK = new Date('2026-11-24T09:00:00Z');
const later = (minutes: number) => new Date(PLAYED.getTime() + minutes * 60_000);

async function play(owner: Owner, options: { mode?: Mode; game?: (mode: Mode, seed: string) => Played } = {}) {
  const mode = options.mode ?? 'sprint';
  const ticket = await issueTicket({ mode, owner, now: PLAYED, live: true });
  const played = (options.game ?? roboticGame)(mode, ticket.seed);
  played.replay.nextCount = 5;
  await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay });
  const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
  const submit = () => submitReplay({ gameId: ticket.gameId, owner, submission, now: later(5) });
  return { gameId: ticket.gameId, played, submit };
}

const boardIds = async (mode: Mode, period: 'all' | 'week', bucket?: string) =>
  (await getBoard({ mode, period, bucket, limit: 10 })).rows.map((r) => r.gameId);

beforeEach(resetDb);

describe('games with inhuman input timing', () => {
  it('are stored with their reason, answered 202, and kept off every board', async () => {
    const robot = await player('robot');
    const { gameId, played, submit } = await play(robot);
    const outcome = await submit();
    expect(outcome).toMatchObject({
      ok: true,
      status: 202,
      body: {
        game: { id: gameId, lines: played.result.lines, ticks: played.result.ticks, week: '2026-W47', reviewStatus: 'pending' },
        personalBest: false,
        rank: { all: null, week: null, day: null },
        review: { status: 'pending', reason: 'robotic_rhythm', message: expect.stringMatching(/consecutive key presses/) },
      },
    });
    expect(await boardIds('sprint', 'all')).toEqual([]);
    expect(await boardIds('sprint', 'week', '2026-W47')).toEqual([]);
    expect(await getPlayerBests({ userId: robot.userId! })).toEqual([]);
    const db = await getDb();
    expect(await db.personalBest.count()).toBe(0);
    expect(await db.rejectedSubmission.count()).toBe(0);
    // The player keeps the replay and sees the game, held, on their own profile; everyone else's
    // view of that profile, the public list and the PB chart leave it out.
    expect((await getReplay({ gameId }))?.replay).toBe(encodeReplay(played.replay));
    expect((await listRecentGames({ userId: robot.userId!, includeHeld: true, limit: 10 })).map((g) => [g.id, g.reviewStatus])).toEqual([[gameId, 'pending']]);
    expect(await listRecentGames({ userId: robot.userId!, limit: 10 })).toEqual([]);
    expect(await listRecentGames({ limit: 10 })).toEqual([]);
    expect((await getBestProgression({ userId: robot.userId! })).sprint).toEqual([]);
    expect((await listHeldGames({ limit: 10 })).map((g) => [g.id, g.player, g.reviewReason])).toEqual([[gameId, 'robot', 'robotic_rhythm']]);
  });

  it('answer a repeated or concurrent resubmission the same way, storing one game', async () => {
    const robot = await player('repeater');
    const { submit } = await play(robot);
    const [first, second] = await Promise.all([submit(), submit()]);
    const third = await submit();
    for (const outcome of [first, second, third]) expect(outcome).toMatchObject({ ok: true, status: 202 });
    if (!first.ok || !second.ok || !third.ok) return;
    expect(second.body).toEqual(first.body);
    expect(third.body).toEqual(first.body);
    const db = await getDb();
    expect(await db.game.count()).toBe(1);
    expect(await db.personalBest.count()).toBe(0);
  });

  it('join the boards when approved, in the week and at the time they were played', async () => {
    const [robot, human] = [await player('approved'), await player('human')];
    const held = await play(robot);
    await held.submit();
    // A slower honest game, played after the held one.
    const ticket = await issueTicket({ mode: 'sprint', owner: human, now: later(1), live: true });
    const honest = botGame('sprint', ticket.seed);
    honest.replay.nextCount = 5;
    await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner: human, replay: honest.replay });
    const accepted = await submitReplay({
      gameId: ticket.gameId,
      owner: human,
      submission: { replay: encodeReplay(honest.replay), claimed: claimOf(honest.result) },
      now: later(6),
    });
    expect(accepted).toMatchObject({ ok: true, status: 201, body: { review: null, rank: { all: 1 } } });

    expect(await approveGame({ gameId: held.gameId, now: NEXT_WEEK })).toEqual({ ok: true, status: 'approved' });
    expect(await boardIds('sprint', 'all')).toEqual([held.gameId, ticket.gameId]);
    expect(await boardIds('sprint', 'week', '2026-W47')).toEqual([held.gameId, ticket.gameId]);
    expect(await boardIds('sprint', 'week', '2026-W48')).toEqual([]);
    expect((await getBestProgression({ userId: robot.userId! })).sprint.map((p) => p.gameId)).toEqual([held.gameId]);
    const db = await getDb();
    const bests = await db.personalBest.findMany({ where: { gameId: held.gameId }, select: { period: true, achievedAt: true } });
    expect(bests.sort((a, b) => a.period.localeCompare(b.period))).toEqual([
      { period: later(5).toISOString().slice(0, 10), achievedAt: later(5) },
      { period: '2026-W47', achievedAt: later(5) },
      { period: 'all', achievedAt: later(5) },
    ]);
    // Resubmitting now gets the ranked answer; approving twice is refused.
    expect(await held.submit()).toMatchObject({ ok: true, status: 200, body: { rank: { all: 1, week: 1, day: 1 }, review: { status: 'approved' } } });
    expect(await approveGame({ gameId: held.gameId })).toMatchObject({ ok: false, code: 'not_reviewable' });
  });

  it('stay off the boards when rejected, with the reviewer’s note', async () => {
    const robot = await player('rejected');
    const held = await play(robot, { mode: 'marathon' });
    expect(await held.submit()).toMatchObject({ status: 202 });
    expect(await rejectGame({ gameId: held.gameId, note: 'scripted input', now: NEXT_WEEK })).toEqual({ ok: true, status: 'rejected' });
    expect(await boardIds('marathon', 'all')).toEqual([]);
    expect(await listHeldGames({ limit: 10 })).toEqual([]);
    expect((await listHeldGames({ status: 'rejected', limit: 10 })).map((g) => [g.id, g.reviewNote])).toEqual([[held.gameId, 'scripted input']]);
    expect(await held.submit()).toMatchObject({ ok: true, status: 202, body: { review: { status: 'rejected' }, rank: { all: null } } });
    expect(await rejectGame({ gameId: held.gameId, note: 'again' })).toMatchObject({ ok: false, code: 'not_reviewable' });
    expect(await rejectGame({ gameId: 'nosuchgame0000', note: 'x' })).toMatchObject({ ok: false, code: 'game_not_found' });
    // Second thoughts: a rejected game can still be approved.
    expect(await approveGame({ gameId: held.gameId })).toEqual({ ok: true, status: 'approved' });
    expect(await boardIds('marathon', 'all')).toEqual([held.gameId]);
  });

  it('are stated on their replay as awaiting review or rejected, and never as settled', async () => {
    const robot = await player('shown');
    const held = await play(robot);
    await held.submit();
    const replayOf = async () => {
      const record = await getReplay({ gameId: held.gameId });
      return { status: record?.status, unsettled: record?.unsettled };
    };
    expect(await replayOf()).toEqual({ status: 'awaiting_review', unsettled: true });
    await rejectGame({ gameId: held.gameId, note: 'scripted input', now: NEXT_WEEK });
    expect(await replayOf()).toEqual({ status: 'rejected', unsettled: true });
    await approveGame({ gameId: held.gameId, now: NEXT_WEEK });
    expect(await replayOf()).toEqual({ status: 'verified', unsettled: false });
  });

  it('of a guest stay off the boards when claimed, and join them once approved', async () => {
    const guest: Owner = { userId: null, guestId: 'guest-cookie-id-robot0' };
    const held = await play(guest);
    expect(await held.submit()).toMatchObject({ status: 202, body: { guest: true, review: { status: 'pending' } } });
    const account = await player('claimer');
    expect(await claimGuestGames({ userId: account.userId!, guestId: guest.guestId!, now: later(10) })).toBe(1);
    expect(await boardIds('sprint', 'all')).toEqual([]);
    expect(await approveGame({ gameId: held.gameId })).toEqual({ ok: true, status: 'approved' });
    expect(await boardIds('sprint', 'all')).toEqual([held.gameId]);
  });
});
