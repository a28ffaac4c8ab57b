import { beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeReplay } from '@/lib/engine';
import type { ClientMessage, ServerMessage } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import type { GameHost } from '@/lib/server/live/solo/game-host';
import { cleanupExpired } from '@/lib/server/games/cleanup';
import { submitReplay } from '@/lib/server/games/submit';
import { issueTicket } from '@/lib/server/games/tickets';
import { dispatch } from '@/lib/server/live/messages';
import { PACING } from '@/lib/server/live/pacing';
import { resumeTokenOf } from '@/lib/server/live/solo/resume-token';
import { recordStreamEnd, STREAM_STORE } from '@/lib/server/games/streams';
import { liveSite } from '@/tests/data/live-site';
import { resetDb } from '@/tests/data/db';
import { minutes, player, streamLive, T0 } from '@/tests/data/play';
import { botGame, claimOf } from '@/tests/support/replays';

beforeEach(resetDb);

async function liveSprint(name: string) {
  const owner = await player(name);
  const ticket = await issueTicket({ mode: 'sprint', owner, now: T0, live: true });
  const played = botGame('sprint', ticket.seed);
  played.replay.nextCount = 5;
  return { owner, ticket, played };
}

describe("a live game's end", () => {
  it('reveals the seed only once the end is on the ticket, so a POST sent at once matches the stream and ranks', async () => {
    const { owner, ticket, played } = await liveSprint('revealer');
    const db = await getDb();
    // What the ticket says the moment the browser learns the seed (it POSTs right then).
    let atOver: Promise<string | null> | null = null;
    await streamLive({
      gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay,
      onMessage: (m: ServerMessage) => {
        if (m.t === 'over') atOver = db.gameTicket.findUnique({ where: { id: ticket.gameId }, select: { streamDigest: true } }).then((t) => t?.streamDigest ?? null);
      },
    });
    expect(await atOver).toMatch(/^[0-9a-f]{64}$/);
    const outcome = await submitReplay({
      gameId: ticket.gameId, owner, submission: { replay: encodeReplay(played.replay), claimed: claimOf(played.result) }, now: minutes(5),
    });
    expect(outcome).toMatchObject({ ok: true, status: 201 });
  });

  it('with the database away, still reveals the seed after PACING.revealWaitMs, and records the end once it is back', async () => {
    const { owner, ticket, played } = await liveSprint('patient');
    const faults = globalThis as { __linefallDbDown?: boolean };
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    let endedAt = 0;
    let overAt = 0;
    try {
      await streamLive({
        gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay,
        beforeEnd: () => {
          faults.__linefallDbDown = true;
          endedAt = performance.now();
        },
        onMessage: (m: ServerMessage) => {
          if (m.t !== 'over') return;
          overAt = performance.now();
          faults.__linefallDbDown = false;
        },
      });
    } finally {
      faults.__linefallDbDown = false;
      quiet.mockRestore();
    }
    // The seed waited for the record as long as it may, then went out without it.
    expect(overAt - endedAt).toBeGreaterThanOrEqual(PACING.revealWaitMs - 50);
    const db = await getDb();
    expect(await db.gameTicket.findUnique({ where: { id: ticket.gameId }, select: { streamDigest: true } })).toMatchObject({ streamDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('gives the seed to a player who reconnects while the end is recorded, and again to one who comes back after it', async () => {
    const { owner, ticket, played } = await liveSprint('reconnecter');
    const faults = globalThis as { __linefallDbDown?: boolean };
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    let token = '';
    const first: ServerMessage[] = [];
    const second: ServerMessage[] = [];
    const third: ServerMessage[] = [];
    let thirdAtResume: ServerMessage[] | null = null;
    try {
      await streamLive({
        gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay,
        onMessage: (m: ServerMessage) => {
          first.push(m);
          if (m.t === 'started') token = m.resumeToken;
        },
        beforeEnd: () => (faults.__linefallDbDown = true),
        afterEnd: (host: GameHost) => {
          // The socket dropped before the seed came; the browser reconnects with its token.
          expect(host.resume({ send: () => {} }, 'x'.repeat(token.length))).toBe(false);
          const resumed = host.resume({
            send: (m) => {
              second.push(m);
              if (m.t !== 'over') return;
              // Back once more, after the seed went out: sent again, after the welcome.
              expect(host.resume({ send: (n) => third.push(n) }, token)).toBe(true);
              thirdAtResume = third.slice();
            },
          }, token);
          expect(resumed).toBe(true);
          setTimeout(() => (faults.__linefallDbDown = false), 200);
        },
      });
    } finally {
      faults.__linefallDbDown = false;
      quiet.mockRestore();
    }
    expect(first.some((m) => m.t === 'over')).toBe(false);
    expect(second.filter((m) => m.t === 'over')).toEqual([expect.objectContaining({ gameId: ticket.gameId, seed: ticket.seed })]);
    expect(thirdAtResume).toEqual([]);
    expect(third).toEqual([expect.objectContaining({ t: 'over', seed: ticket.seed })]);
  });
});

describe('a live game whose host recorded its end and was then lost', () => {
  // The host recorded the end and died before it stored the game (or the player's socket came
  // back through another instance): the process answering the resume has only the ticket.
  async function recordedThenLost(name: string) {
    const game = await liveSprint(name);
    await streamLive({ gameId: game.ticket.gameId, seed: game.ticket.seed, owner: game.owner, replay: game.played.replay });
    return game;
  }
  // Without a setup a resume only takes up a game some host here holds: none is held, none is taken up.
  const resume = (gameId: string, token: string): ClientMessage => ({ t: 'resume', of: { kind: 'game', id: gameId }, token });

  it('answers the returning player\'s resume with the seed, and the game it then POSTs ranks', async () => {
    const { owner, ticket, played } = await recordedThenLost('survivor');
    const site = liveSite(owner);
    await dispatch(site.hub, site.conn, resume(ticket.gameId, resumeTokenOf(ticket.gameId)));
    expect(site.sent.map((m) => m.t)).toEqual(['over']);
    expect(site.sent[0]).toMatchObject({ gameId: ticket.gameId, seed: ticket.seed, ranked: true });
    expect(site.hosts.size).toBe(0);
    const outcome = await submitReplay({
      gameId: ticket.gameId, owner, submission: { replay: encodeReplay(played.replay), claimed: claimOf(played.result) }, now: minutes(5),
    });
    expect(outcome).toMatchObject({ ok: true, status: 201 });
  });

  it('tells nothing to a wrong token or another player, nor for a game whose end is not recorded', async () => {
    const { owner, ticket } = await recordedThenLost('keeper');
    const wrong = liveSite(owner);
    await dispatch(wrong.hub, wrong.conn, resume(ticket.gameId, 'x'.repeat(32)));
    const stranger = liveSite(await player('stranger'));
    await dispatch(stranger.hub, stranger.conn, resume(ticket.gameId, resumeTokenOf(ticket.gameId)));
    const open = await liveSprint('unfinished');
    const early = liveSite(open.owner);
    await dispatch(early.hub, early.conn, resume(open.ticket.gameId, resumeTokenOf(open.ticket.gameId)));
    for (const site of [wrong, stranger, early]) {
      expect(site.sent.map((m) => m.t)).toEqual(['error']);
      expect(site.sent[0]).toMatchObject({ code: 'resume_failed' });
      expect(JSON.stringify(site.sent)).not.toContain(ticket.seed);
      expect(JSON.stringify(site.sent)).not.toContain(open.ticket.seed);
    }
  });
});

describe('a live game whose host was lost after recording its end, and whose player never came back', () => {
  it('is stored and ranked by the periodic cleanup, once its host and its POST have had their time', async () => {
    const owner = await player('never-back');
    const ticket = await issueTicket({ mode: 'sprint', owner, now: new Date(Date.now() - 5 * 60_000), live: true });
    const played = botGame('sprint', ticket.seed);
    played.replay.nextCount = 5;
    await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay });
    const db = await getDb();

    // Still the host's and the POST's to store.
    expect(await cleanupExpired()).toMatchObject({ streams: 0 });
    expect(await db.game.count({ where: { ticketId: ticket.gameId } })).toBe(0);

    const later = new Date(Date.now() + STREAM_STORE.unstoredAfterMs);
    expect(await cleanupExpired({ now: later })).toMatchObject({ streams: 1 });
    const game = await db.game.findUniqueOrThrow({ where: { ticketId: ticket.gameId }, select: { reviewReason: true, replay: true, lines: true } });
    expect(game).toEqual({ reviewReason: null, replay: encodeReplay(played.replay), lines: played.result.lines });
    expect(await db.personalBest.count({ where: { gameId: ticket.gameId } })).toBeGreaterThan(0);
    // The game holds the replay now; the ticket's copy is gone.
    expect(await db.gameTicket.findUniqueOrThrow({ where: { id: ticket.gameId }, select: { streamReplay: true } })).toEqual({ streamReplay: null });
    // The player's POST, if it comes after all, is a repeat.
    const outcome = await submitReplay({ gameId: ticket.gameId, owner, submission: { replay: encodeReplay(played.replay), claimed: claimOf(played.result) }, now: later });
    expect(outcome).toMatchObject({ ok: true, status: 200 });
  });

  /** A live ticket issued `agoMs` ago whose stream's end (a bot's Sprint) was recorded `endedAgoMs` ago by a host since lost. */
  async function endedUnstored(name: string, agoMs: number, endedAgoMs: number, newerAfterMs?: number) {
    const owner = await player(name);
    const ticket = await issueTicket({ mode: 'sprint', owner, now: new Date(Date.now() - agoMs), live: true });
    if (newerAfterMs !== undefined) await issueTicket({ mode: 'sprint', owner, now: new Date(Date.now() - agoMs + newerAfterMs), live: true });
    const played = botGame('sprint', ticket.seed);
    played.replay.nextCount = 5;
    await recordStreamEnd({ gameId: ticket.gameId, replay: played.replay, unranked: null, now: new Date(Date.now() - endedAgoMs) });
    return { owner, ticket, played };
  }

  it('is stored as of its end even when its ticket has expired since, and the ticket is not deleted first', async () => {
    // Issued 3 h 10 min ago (the ticket lives 3 h), ended 5 minutes into it.
    const { ticket, played } = await endedUnstored('late-sweep', 190 * 60_000, 185 * 60_000);
    expect(await cleanupExpired()).toMatchObject({ streams: 1 });
    const db = await getDb();
    const game = await db.game.findUniqueOrThrow({ where: { ticketId: ticket.gameId }, select: { lines: true, createdAt: true, reviewReason: true } });
    expect(game).toMatchObject({ lines: played.result.lines, reviewReason: null });
    expect(Date.now() - game.createdAt.getTime()).toBeGreaterThan(180 * 60_000);
  });

  it('is refused once, and recorded once, when its ticket was forfeited before it ended; the ticket goes with the others', async () => {
    // A newer game in the same mode 5 s in, and this Sprint is longer than that: forfeited (submit.ts).
    const { ticket, played } = await endedUnstored('forfeiter', 10 * 60_000, 2 * 60_000, 5_000);
    expect(played.result.ticks).toBeGreaterThan((5 + 2) * 60);
    const db = await getDb();
    const refusals = () => db.rejectedSubmission.findMany({ where: { ticketId: ticket.gameId }, select: { code: true } });
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await cleanupExpired()).toMatchObject({ streams: 0 });
      expect(await cleanupExpired()).toMatchObject({ streams: 0 });
    } finally {
      quiet.mockRestore();
    }
    expect(await refusals()).toEqual([{ code: 'ticket_abandoned' }]);
    expect(await db.game.count({ where: { ticketId: ticket.gameId } })).toBe(0);
    expect(await db.gameTicket.findUniqueOrThrow({ where: { id: ticket.gameId }, select: { streamReplay: true } })).toEqual({ streamReplay: null });
  });
});
