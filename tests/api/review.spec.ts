import { expect, test } from '@playwright/test';
import { roboticShortGame } from '@/tests/support/replays';
import { newClient, playLiveGame, signUpAndIn, submit } from '@/tests/api/client';

// Games with inhuman input timing (docs/decisions/0004): stored, answered 202, kept off the boards.
// The game is played live, so it would rank but for its timing: the hold is the timing review's. Approval is a moderator's step (/moderation or npm run review), covered in
// tests/data/review.test.ts, tests/data/moderation.test.ts and tests/e2e/accounts.spec.ts.

test('a game with robotic input timing is stored, answered 202 with the reason, and kept off the boards', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  const username = await signUpAndIn(api);
  const { gameId, played } = await playLiveGame(baseURL!, api, { script: roboticShortGame('marathon', 'any').replay.events });
  expect(played.result.ended).toBe(true);
  const ticket = { gameId }; // the live game is its own ticket
  const response = await submit(api, ticket, played);
  expect(response.status()).toBe(202);
  const body = await response.json();
  expect(body).toMatchObject({
    game: { id: ticket.gameId, score: played.result.score, reviewStatus: 'pending' },
    personalBest: false,
    rank: { all: null, week: null, day: null },
    review: { status: 'pending', reason: 'robotic_rhythm', message: expect.stringContaining('consecutive key presses') },
  });

  // The same replay again: the same answer, still held.
  const again = await submit(api, ticket, played);
  expect(again.status()).toBe(202);
  expect(await again.json()).toEqual(body);

  for (const query of ['period=all', `period=week&week=${body.game.week}`]) {
    const board = await (await api.get(`/api/leaderboards/marathon?${query}&limit=100`)).json();
    expect(board.me).toBeNull();
    expect(board.rows.map((r: { player: { username: string } }) => r.player.username)).not.toContain(username);
  }
  // The player keeps the replay; it, and its page, say it awaits review, and nothing may cache it as final.
  const replay = await api.get(`/api/replays/${ticket.gameId}`);
  expect(replay.status()).toBe(200);
  expect(replay.headers()['cache-control']).toBe('no-store');
  expect(await replay.json()).toMatchObject({ status: 'awaiting_review', game: { id: ticket.gameId, reviewStatus: 'pending' } });
  const page = await newClient(baseURL!);
  const html = await (await page.get(`/replays/${ticket.gameId}`)).text();
  expect(/data-testid="replay-status"[^>]*>([^<]*)</.exec(html)?.[1]).toBe('⏳ awaiting review');
  await page.dispose();
  await api.dispose();
});
