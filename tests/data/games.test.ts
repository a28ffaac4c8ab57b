import { beforeEach, describe, expect, it } from 'vitest';
import { encodeReplay, type Replay } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { getBoard, InvalidCursorError } from '@/lib/server/games/boards';
import { claimGuestGames } from '@/lib/server/games/claim';
import { cleanupExpired } from '@/lib/server/games/cleanup';
import type { Owner } from '@/lib/server/games/owner';
import { getPlayerBests, getReplay, listRecentGames } from '@/lib/server/games/replays';
import { submitReplay } from '@/lib/server/games/submit';
import { issueTicket } from '@/lib/server/games/tickets';
import { botGame, claimOf, hardDropGame, idleGame } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, player, streamLive, T0 } from '@/tests/data/play';

async function rejections() {
  const db = await getDb();
  return db.rejectedSubmission.findMany({ select: { code: true }, orderBy: { createdAt: 'asc' } });
}

beforeEach(resetDb);

describe('submitting a verified game', () => {
  it('stores a real engine replay and shows it on the global and weekly boards', async () => {
    const alice = await player('alice');
    const { ticket, played, outcome } = await playAndSubmit({ owner: alice });
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    if (!outcome.ok) return;
    expect(outcome.body).toMatchObject({
      // The last clear can take a Sprint past 40 (a Tetris from 37 ends it on 41).
      game: { id: ticket.gameId, mode: 'sprint', score: played.result.score, lines: played.result.lines, ticks: played.result.ticks, week: '2026-W47' },
      personalBest: true,
      rank: { all: 1, week: 1, day: 1 },
      guest: false,
    });
    const all = await getBoard({ mode: 'sprint', period: 'all', limit: 10 });
    const week = await getBoard({ mode: 'sprint', period: 'week', bucket: '2026-W47', limit: 10 });
    for (const board of [all, week]) {
      expect(board.rows).toHaveLength(1);
      expect(board.rows[0]).toMatchObject({ rank: 1, gameId: ticket.gameId, player: { username: 'alice' }, ticks: played.result.ticks });
    }
    const stored = await getReplay({ gameId: ticket.gameId });
    expect(stored?.game.player?.username).toBe('alice');
    expect(stored?.replay).toBe(encodeReplay(played.replay));
  });

  it('answers a repeated submission of the same replay the same way and stores one game', async () => {
    const bob = await player('bob');
    const ticket = await issueTicket({ mode: 'sprint', owner: bob, now: T0, live: true });
    const played = botGame('sprint', ticket.seed);
    played.replay.nextCount = 5;
    await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner: bob, replay: played.replay });
    const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
    const submit = () => submitReplay({ gameId: ticket.gameId, owner: bob, submission, now: minutes(5) });
    const [first, second] = await Promise.all([submit(), submit()]);
    const third = await submit();
    expect([first.ok, second.ok, third.ok]).toEqual([true, true, true]);
    if (!first.ok || !second.ok || !third.ok) return;
    expect(second.body).toEqual(first.body);
    expect(third.body).toEqual(first.body);
    expect(third.status).toBe(200);
    const db = await getDb();
    expect(await db.game.count()).toBe(1);
  });
});

describe('rejections, each with its own code, recorded and never on a board', () => {
  it.each([
    ['result_mismatch', (s: { claimed: { score: number } }) => void (s.claimed.score += 100)],
    ['result_mismatch', (s: { claimed: { ticks: number } }) => void (s.claimed.ticks -= 1)],
    ['seed_mismatch', (s: { replay: Replay }) => void (s.replay.seed = 'chosen-seed')],
    ['mode_mismatch', (s: { replay: Replay }) => void (s.replay.mode = 'marathon')],
  ] as const)('%s', async (code, tamper) => {
    const owner = await player('mallory');
    const { outcome } = await playAndSubmit({ owner, tamper: tamper as never });
    expect(outcome).toMatchObject({ ok: false, status: 422, code });
    expect(await rejections()).toEqual([{ code }]);
    expect((await getBoard({ mode: 'sprint', period: 'all', limit: 10 })).rows).toEqual([]);
  });

  it('ticket_forbidden for another player’s ticket, and the owner can still submit', async () => {
    const owner = await player('owner');
    const thief = await player('thief');
    const ticket = await issueTicket({ mode: 'sprint', owner, now: T0 });
    const played = botGame('sprint', ticket.seed);
    const submission = { replay: encodeReplay(played.replay), claimed: claimOf(played.result) };
    const stolen = await submitReplay({ gameId: ticket.gameId, owner: thief, submission, now: minutes(5) });
    expect(stolen).toMatchObject({ ok: false, status: 403, code: 'ticket_forbidden' });
    const guest = await submitReplay({ gameId: ticket.gameId, owner: { userId: null, guestId: 'someone-else' }, submission, now: minutes(5) });
    expect(guest).toMatchObject({ ok: false, code: 'ticket_forbidden' });
    expect(await submitReplay({ gameId: ticket.gameId, owner, submission, now: minutes(5) })).toMatchObject({ ok: true });
  });

  it('ticket_used for a second, different replay on a used ticket', async () => {
    const owner = await player('reuser');
    const { ticket } = await playAndSubmit({ owner });
    const other = hardDropGame('sprint', ticket.seed);
    const again = await submitReplay({
      gameId: ticket.gameId,
      owner,
      submission: { replay: encodeReplay(other.replay), claimed: claimOf(other.result) },
      now: minutes(6),
    });
    expect(again).toMatchObject({ ok: false, status: 409, code: 'ticket_used' });
  });

  it('ticket_expired after three hours, ticket_not_found for an unknown id', async () => {
    const owner = await player('late');
    const { outcome } = await playAndSubmit({ owner, after: 3 * 60 + 1 });
    expect(outcome).toMatchObject({ ok: false, status: 410, code: 'ticket_expired' });
    const played = hardDropGame('sprint', 'x');
    const missing = await submitReplay({
      gameId: 'doesnotexist00',
      owner,
      submission: { replay: encodeReplay(played.replay), claimed: claimOf(played.result) },
    });
    expect(missing).toMatchObject({ ok: false, status: 404, code: 'ticket_not_found' });
  });

  it('longer_than_elapsed when the game lasts longer than the time since its seed was issued', async () => {
    const owner = await player('timetraveller');
    // A bot Sprint lasts ~20 s of game time; submitting 3 s after issue is impossible.
    const { outcome } = await playAndSubmit({ owner, after: 3 / 60 });
    expect(outcome).toMatchObject({ ok: false, status: 422, code: 'longer_than_elapsed' });
  });

  it('input_rate_impossible for a burst of key events on one tick', async () => {
    const owner = await player('turbo');
    const { outcome } = await playAndSubmit({
      owner,
      mode: 'marathon',
      play: hardDropGame,
      tamper: (s) => {
        const t = s.replay.events[0]!.tick;
        const burst = (['left', 'right', 'rotateCW', 'rotateCCW'] as const).flatMap((key) => [
          { tick: t, key, down: true },
          { tick: t, key, down: false },
        ]);
        s.replay.events.splice(0, 0, ...burst);
      },
    });
    expect(outcome).toMatchObject({ ok: false, status: 422, code: 'input_rate_impossible' });
  });

  it('replay_undecodable for a truncated replay, without spending the ticket', async () => {
    const owner = await player('glitch');
    const ticket = await issueTicket({ mode: 'marathon', owner, now: T0, live: true });
    const played = hardDropGame('marathon', ticket.seed);
    played.replay.nextCount = 5;
    await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay });
    const encoded = encodeReplay(played.replay);
    const truncated = await submitReplay({
      gameId: ticket.gameId,
      owner,
      submission: { replay: encoded.slice(0, encoded.length - 6), claimed: claimOf(played.result) },
      now: minutes(1),
    });
    expect(truncated).toMatchObject({ ok: false, status: 400, code: 'replay_undecodable' });
    expect(truncated.ok || truncated.message).toMatch(/truncated|trailing|bad_encoding/);
    const retried = await submitReplay({ gameId: ticket.gameId, owner, submission: { replay: encoded, claimed: claimOf(played.result) }, now: minutes(1) });
    expect(retried).toMatchObject({ ok: true, status: 201 });
  });
});

describe('boards', () => {
  it('list one row per player, their best, best first, ties to the earlier game', async () => {
    const [ann, ben, cat] = [await player('ann'), await player('ben'), await player('cat')];
    // Idle games top out with 0 points on any seed: equal results, so only time orders them.
    const benIdle = await playAndSubmit({ owner: ben, mode: 'marathon', play: idleGame, issuedAt: minutes(0), after: 30 });
    await playAndSubmit({ owner: ann, mode: 'marathon', play: idleGame, issuedAt: minutes(1), after: 30 });
    expect(benIdle.played.result.score).toBe(0);
    let board = await getBoard({ mode: 'marathon', period: 'all', limit: 10, viewerId: ann.userId });
    expect(board.rows.map((r) => [r.rank, r.player.username, r.score])).toEqual([[1, 'ben', 0], [2, 'ann', 0]]);
    expect(board.me).toMatchObject({ rank: 2, player: { username: 'ann' } });

    // cat scores; then ann improves (replacing her best), then plays worse (keeping it).
    const catGame = await playAndSubmit({ owner: cat, mode: 'marathon', play: hardDropGame, issuedAt: minutes(40) });
    const annBest = await playAndSubmit({ owner: ann, mode: 'marathon', play: hardDropGame, issuedAt: minutes(50) });
    const annWorse = await playAndSubmit({ owner: ann, mode: 'marathon', play: idleGame, issuedAt: minutes(60), after: 30 });
    expect(annBest.outcome.ok && annBest.outcome.body.personalBest).toBe(true);
    expect(annWorse.outcome.ok && annWorse.outcome.body.personalBest).toBe(false);

    board = await getBoard({ mode: 'marathon', period: 'all', limit: 10, viewerId: ann.userId });
    const scored = [
      { name: 'cat', score: catGame.played.result.score, at: 0 },
      { name: 'ann', score: annBest.played.result.score, at: 1 },
    ].sort((a, b) => b.score - a.score || a.at - b.at);
    expect(board.rows.map((r) => [r.player.username, r.score])).toEqual([...scored.map((e) => [e.name, e.score]), ['ben', 0]]);
    expect(board.rows.map((r) => r.rank)).toEqual([1, 2, 3]);
    expect(board.rows.find((r) => r.player.username === 'ann')?.gameId).toBe(annBest.ticket.gameId);

    // Her profile shows that best, and all three of her games, newest first.
    expect((await getPlayerBests({ userId: ann.userId! })).map((g) => g.id)).toEqual([annBest.ticket.gameId]);
    const recent = await listRecentGames({ userId: ann.userId!, limit: 10 });
    expect(recent.map((g) => g.id)[0]).toBe(annWorse.ticket.gameId);
    expect(recent).toHaveLength(3);
  });

  it('ranks Marathon by highest score and pages with a cursor', async () => {
    const owners = await Promise.all(['p1', 'p2', 'p3', 'p4', 'p5'].map((n) => player(n)));
    for (const [i, owner] of owners.entries()) {
      await playAndSubmit({ owner, mode: 'marathon', play: hardDropGame, issuedAt: minutes(i) });
    }
    const page1 = await getBoard({ mode: 'marathon', period: 'all', limit: 2 });
    const page2 = await getBoard({ mode: 'marathon', period: 'all', limit: 2, cursor: page1.nextCursor! });
    const page3 = await getBoard({ mode: 'marathon', period: 'all', limit: 2, cursor: page2.nextCursor! });
    const rows = [...page1.rows, ...page2.rows, ...page3.rows];
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(page3.nextCursor).toBeNull();
    const scores = rows.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(new Set(rows.map((r) => r.player.id)).size).toBe(5);

    // Forged cursors are refused as invalid rather than reaching the database.
    const forge = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const cursor of ['garbage', forge([1, 2 ** 40, 0, 'x']), forge([1, 0, 9e15, 'x']), forge({})]) {
      await expect(getBoard({ mode: 'marathon', period: 'all', limit: 2, cursor })).rejects.toBeInstanceOf(InvalidCursorError);
    }
  });

  it('refuses a hand-made cursor, so nobody can be shown as #1 on a real page of the board', async () => {
    const owners = await Promise.all(['q1', 'q2', 'q3', 'q4'].map((n) => player(n)));
    for (const [i, owner] of owners.entries()) {
      await playAndSubmit({ owner, mode: 'marathon', play: hardDropGame, issuedAt: minutes(i) });
    }
    const page1 = await getBoard({ mode: 'marathon', period: 'all', limit: 2 });
    const page2 = await getBoard({ mode: 'marathon', period: 'all', limit: 2, cursor: page1.nextCursor! });
    expect(page2.rows.map((r) => r.rank)).toEqual([3, 4]);
    // The sort key of a real row with a rank of its author's choosing: page 2 numbered from #1.
    const last = page1.rows[1]!;
    const forged = Buffer.from(JSON.stringify([0, -last.score, Date.parse(last.achievedAt), last.gameId])).toString('base64url');
    await expect(getBoard({ mode: 'marathon', period: 'all', limit: 2, cursor: forged })).rejects.toBeInstanceOf(InvalidCursorError);
    // Any change to a cursor the server issued is refused too.
    const real = page1.nextCursor!;
    for (let i = 0; i < real.length; i += 7) {
      const changed = real.slice(0, i) + (real[i] === 'A' ? 'B' : 'A') + real.slice(i + 1);
      await expect(getBoard({ mode: 'marathon', period: 'all', limit: 2, cursor: changed })).rejects.toBeInstanceOf(InvalidCursorError);
    }
  });

  it('puts Sunday 23:59:59 UTC and Monday 00:00:00 UTC in different weeks, and past weeks stay readable', async () => {
    const owner = await player('weekender');
    const sunday = new Date('2026-11-22T23:59:59Z');
    const monday = new Date('2026-11-23T00:00:00Z');
    const play = hardDropGame;
    const late = await playAndSubmit({ owner, mode: 'marathon', play, issuedAt: minutes(-1, sunday), after: 1 });
    const early = await playAndSubmit({ owner, mode: 'marathon', play, issuedAt: minutes(-1, monday), after: 1 });
    expect(late.outcome.ok && late.outcome.body.game.week).toBe('2026-W47');
    expect(early.outcome.ok && early.outcome.body.game.week).toBe('2026-W48');
    const w47 = await getBoard({ mode: 'marathon', period: 'week', bucket: '2026-W47', limit: 10 });
    const w48 = await getBoard({ mode: 'marathon', period: 'week', bucket: '2026-W48', limit: 10 });
    expect(w47.rows.map((r) => r.gameId)).toEqual([late.ticket.gameId]);
    expect(w48.rows.map((r) => r.gameId)).toEqual([early.ticket.gameId]);
  });

  it('keeps a daily board per UTC day: midnight starts a new one, and a game ranks on every board of its moment', async () => {
    const [ann, bob] = [await player('daily-ann'), await player('daily-bob')];
    const evening = new Date('2026-11-18T23:59:00Z');
    const morning = new Date('2026-11-19T00:00:30Z');
    const afterBob = minutes(31, morning);
    // Ann's better game is the evening before; on the new day Bob's idle game (0 points) leads.
    const annGame = await playAndSubmit({ owner: ann, mode: 'marathon', play: hardDropGame, issuedAt: minutes(-2, evening), after: 1 });
    const bobGame = await playAndSubmit({ owner: bob, mode: 'marathon', play: idleGame, issuedAt: morning, after: 30 });
    expect(annGame.outcome).toMatchObject({ ok: true, body: { rank: { all: 1, week: 1, day: 1 } } });
    expect(bobGame.outcome).toMatchObject({ ok: true, body: { rank: { all: 2, week: 2, day: 1 } } });
    const day = (bucket: string) => getBoard({ mode: 'marathon', period: 'day', bucket, limit: 10 });
    expect((await day('2026-11-18')).rows.map((r) => r.gameId)).toEqual([annGame.ticket.gameId]);
    expect((await day('2026-11-19')).rows.map((r) => r.gameId)).toEqual([bobGame.ticket.gameId]);
    const today = await getBoard({ mode: 'marathon', period: 'day', limit: 10, now: afterBob, viewerId: ann.userId });
    expect(today).toMatchObject({ period: 'day', bucket: '2026-11-19', me: null });
    expect((await getBoard({ mode: 'marathon', period: 'week', bucket: '2026-W47', limit: 10 })).rows.map((r) => r.gameId)).toEqual([
      annGame.ticket.gameId,
      bobGame.ticket.gameId,
    ]);
  });
});

describe('guests', () => {
  it('keep a verified game off the boards until they sign up, which claims it', async () => {
    const guest: Owner = { userId: null, guestId: 'guest-cookie-id-000000' };
    const { ticket, outcome } = await playAndSubmit({ owner: guest });
    expect(outcome).toMatchObject({ ok: true, body: { guest: true, personalBest: false, rank: { all: 1 } } });
    expect((await getBoard({ mode: 'sprint', period: 'all', limit: 10 })).rows).toEqual([]);

    const account = await player('converted');
    expect(await claimGuestGames({ userId: account.userId!, guestId: guest.guestId!, now: minutes(10) })).toBe(1);
    const board = await getBoard({ mode: 'sprint', period: 'all', limit: 10 });
    expect(board.rows.map((r) => [r.gameId, r.player.username])).toEqual([[ticket.gameId, 'converted']]);
    expect((await getReplay({ gameId: ticket.gameId }))?.game.player?.username).toBe('converted');
  });

  it('lose unclaimed games after 24 hours; expired unused tickets are cleaned up', async () => {
    const guest: Owner = { userId: null, guestId: 'guest-cookie-id-111111' };
    await playAndSubmit({ owner: guest, mode: 'marathon', play: hardDropGame });
    await issueTicket({ mode: 'sprint', owner: guest, now: T0 });
    // A refused replay spends its ticket; the ticket goes once expired, the record after 30 days.
    await playAndSubmit({ owner: guest, mode: 'marathon', play: hardDropGame, tamper: (x) => void (x.claimed.score += 1) });
    const cleaned = await cleanupExpired({ now: minutes(25 * 60) });
    expect(cleaned).toEqual({ streams: 0, tickets: 2, guestGames: 1, limits: 0, sightings: 0, seasons: [] });
    const db0 = await getDb();
    expect(await db0.rejectedSubmission.count()).toBe(1);
    await cleanupExpired({ now: minutes(31 * 24 * 60) });
    expect(await db0.rejectedSubmission.count()).toBe(0);
    const account = await player('toolate');
    expect(await claimGuestGames({ userId: account.userId!, guestId: guest.guestId!, now: minutes(25 * 60) })).toBe(0);
    const db = await getDb();
    expect(await db.game.count()).toBe(0);
  });
});
