import { expect, test } from '@playwright/test';
import { errorCode, newClient, playLiveVerified, signUpAndIn } from '@/tests/api/client';

// Moderation is for moderators: every route re-reads the role (a moderator is made by
// `npm run admin`, which tests/e2e/accounts.spec.ts runs). Reports are for signed-in players.

test('a player reaches no moderation route or page; reports are one open per reporter and game', async ({ baseURL }) => {
  const cheat = await newClient(baseURL!);
  await signUpAndIn(cheat);
  // A ranked game, played live (only those rank): the one reports and moderation are about.
  const game = await playLiveVerified(baseURL!, cheat);
  const player = await newClient(baseURL!);
  await signUpAndIn(player);
  const stranger = await newClient(baseURL!);

  const routes = [
    (api: typeof player) => api.get('/api/moderation/queue'),
    (api: typeof player) => api.post('/api/moderation/actions', { data: { action: 'reject', gameId: game.gameId, reason: 'mine now' } }),
    // A flag across games (decision 0025) is answered only by a moderator, whatever its id.
    (api: typeof player) => api.post('/api/moderation/actions', { data: { action: 'dismiss_flag', flagId: 'any-flag', reason: 'not me' } }),
    // Roles are an admin's: a player cannot make themselves one.
    (api: typeof player) => api.post('/api/moderation/roles', { data: { username: 'anyone', role: 'admin' } }),
  ];
  for (const call of routes) {
    expect(await errorCode(await call(player))).toMatchObject({ status: 403, code: 'forbidden' });
    expect(await errorCode(await call(stranger))).toMatchObject({ status: 401, code: 'unauthenticated' });
  }
  for (const api of [player, stranger]) expect((await api.get('/moderation')).status()).toBe(404);
  // What is measured and what a flag does is public.
  expect((await stranger.get('/fair-play')).status()).toBe(200);

  const report = { gameId: game.gameId, reason: 'cheating', note: 'too fast' };
  expect(await errorCode(await stranger.post('/api/reports', { data: report }))).toMatchObject({ status: 401 });
  expect((await player.post('/api/reports', { data: report })).status()).toBe(201);
  expect(await errorCode(await player.post('/api/reports', { data: report }))).toMatchObject({ status: 409, code: 'already_reported' });
  expect(await errorCode(await player.post('/api/reports', { data: { ...report, reason: 'nonsense' } }))).toMatchObject({ status: 400, code: 'invalid_input' });
  expect(await errorCode(await cheat.post('/api/reports', { data: report }))).toMatchObject({ status: 400, code: 'own_report' });
  for (const api of [cheat, player, stranger]) await api.dispose();
});
