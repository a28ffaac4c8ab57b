import { expect, test } from '@playwright/test';
import { roboticShortGame } from '@/tests/support/replays';
import { newClient, newTicket, signUpAndIn, submit, waitForGameTime } from '@/tests/api/client';

// Games with inhuman input timing over HTTP (docs/decisions/0004): stored, answered 202, kept off
// the boards. Approval is a reviewer's CLI step, covered in tests/data/review.test.ts.

test('a game with robotic input timing is stored, answered 202 with the reason, and kept off the boards', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  const username = await signUpAndIn(api);
  const ticket = await newTicket(api, 'marathon');
  const played = roboticShortGame('marathon', ticket.seed);
  expect(played.result.ended).toBe(true);
  await waitForGameTime(ticket, played);
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

  for (const period of ['all', 'week']) {
    const board = await (await api.get(`/api/leaderboards/marathon?period=${period}&limit=100`)).json();
    expect(board.me).toBeNull();
    expect(board.rows.map((r: { player: { username: string } }) => r.player.username)).not.toContain(username);
  }
  // The player keeps the replay.
  expect((await api.get(`/api/replays/${ticket.gameId}`)).status()).toBe(200);
  await api.dispose();
});
