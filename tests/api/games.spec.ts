import { expect, test } from '@playwright/test';
import { encodeReplay } from '@/lib/engine';
import { botGame, claimOf, hardDropGame } from '@/tests/support/replays';
import { errorCode, newClient, newTicket, playLiveGame, signUpAndIn, submit, waitForGameTime } from '@/tests/api/client';
import { PERIOD_IDS, PERIODS } from '@/lib/periods';

// The HTTP surface of verified scores, on the production server. Runs once against embedded
// PGlite and once against PostgreSQL (see playwright.config.ts). Time-travel cases (expired
// tickets, week boundaries) are covered in tests/data, where the clock can be set.

// Games that rank are played live over the socket (docs/decisions/0010); HTTP tickets are used
// below only where the test is about refusals, which come before any ranking.

test('a guest gets a ticket bound to an http-only cookie, and a verified replay is stored once', async ({ baseURL }) => {
  // The ticket is the live game; a browser without a guest cookie gets one on the socket's 101.
  const { api, gameId, played, minted } = await playLiveGame(baseURL!, null);
  const cookie = minted.find((c) => c.startsWith('lf_guest=')) ?? '';
  expect(cookie).toMatch(/lf_guest=[\w-]{22}\.[\w-]{22}/);
  expect(cookie.toLowerCase()).toContain('httponly');

  const first = await submit(api, { gameId }, played);
  expect(first.status(), await first.text()).toBe(201);
  const body = await first.json();
  expect(body).toMatchObject({ game: { id: gameId, score: played.result.score, ticks: played.result.ticks }, guest: true });

  const again = await submit(api, { gameId }, played);
  expect(again.status()).toBe(200);
  expect(await again.json()).toEqual(body);
  // Monitoring sees the pool that verified it (decision 0021): its workers, what waits, what it refused and lost.
  const { verify } = await (await api.get('/api/health')).json();
  expect(verify).toEqual({ running: expect.any(Number), queued: expect.any(Number), workers: expect.any(Number), refused: expect.any(Number), lost: expect.any(Number) });
  expect(verify.workers).toBeGreaterThanOrEqual(1);

  const replay = await api.get(`/api/replays/${gameId}`);
  expect(replay.status()).toBe(200);
  expect(await replay.json()).toMatchObject({ status: 'verified', replay: encodeReplay(played.replay), game: { id: gameId, player: null } });
  await api.dispose();
});

test('a signed-in player’s verified game appears on every period’s board with their own row', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  const username = await signUpAndIn(api);
  const { gameId, played } = await playLiveGame(baseURL!, api);
  const response = await submit(api, { gameId }, played);
  expect(response.status()).toBe(201);
  const body = await response.json();
  expect(body).toMatchObject({ personalBest: true, guest: false, rank: { all: expect.any(Number), week: expect.any(Number), day: expect.any(Number) } });

  // The boards the server stored the game on: "this week" or "today" may have rolled over since.
  const playedAt = new Date(body.game.createdAt);
  for (const period of PERIOD_IDS) {
    const bucket = PERIODS[period].bucketOf(playedAt);
    const board = await (await api.get(`/api/leaderboards/marathon?period=${period}&${period}=${bucket}&limit=100`)).json();
    expect(board).toMatchObject({ period, bucket });
    expect(board.me).toMatchObject({ gameId, player: { username }, score: played.result.score });
    const row = board.rows.find((r: { gameId: string }) => r.gameId === gameId);
    if (row) expect(row.rank).toBe(board.me.rank);
  }
  await api.dispose();
});

test('each bad submission is refused with its own code', async ({ request, baseURL }) => {
  const fresh = async () => {
    const ticket = await newTicket(request, 'marathon');
    const played = hardDropGame('marathon', ticket.seed);
    await waitForGameTime(ticket, played);
    return { ticket, played };
  };

  let { ticket, played } = await fresh();
  const tampered = await submit(request, ticket, played, { ...claimOf(played.result), score: played.result.score + 1 });
  expect(await errorCode(tampered)).toMatchObject({ status: 422, code: 'result_mismatch' });
  // The ticket is spent: the honest replay cannot follow a tampered one.
  expect(await errorCode(await submit(request, ticket, played))).toMatchObject({ status: 409, code: 'ticket_used' });

  ({ ticket, played } = await fresh());
  const wrongSeed = hardDropGame('marathon', `${ticket.seed}x`);
  expect(await errorCode(await submit(request, ticket, wrongSeed))).toMatchObject({ status: 422, code: 'seed_mismatch' });

  ({ ticket, played } = await fresh());
  const wrongMode = hardDropGame('ultra', ticket.seed);
  expect(await errorCode(await submit(request, ticket, wrongMode))).toMatchObject({ status: 422, code: 'mode_mismatch' });

  ({ ticket, played } = await fresh());
  const burst = structuredClone(played);
  const t = burst.replay.events[0]!.tick;
  burst.replay.events.unshift(
    ...(['left', 'right', 'rotateCW', 'rotateCCW'] as const).flatMap((key) => [{ tick: t, key, down: true }, { tick: t, key, down: false }]),
  );
  expect(await errorCode(await submit(request, ticket, burst))).toMatchObject({ status: 422, code: 'input_rate_impossible' });

  ({ ticket, played } = await fresh());
  const encoded = encodeReplay(played.replay);
  const truncated = await request.post(`/api/games/${ticket.gameId}/replay`, {
    data: { replay: encoded.slice(0, -8), claimed: claimOf(played.result) },
  });
  expect(await errorCode(truncated)).toMatchObject({ status: 400, code: 'replay_undecodable' });
  const oversized = await request.post(`/api/games/${ticket.gameId}/replay`, {
    data: { replay: 'A'.repeat(400_000), claimed: claimOf(played.result) },
  });
  expect(await errorCode(oversized)).toMatchObject({ status: 413, code: 'payload_too_large' });
  const notJson = await request.post(`/api/games/${ticket.gameId}/replay`, { data: Buffer.from('{"replay":'), headers: { 'content-type': 'application/json' } });
  expect(await errorCode(notJson)).toMatchObject({ status: 400, code: 'invalid_json' });

  // Someone else's ticket.
  const stranger = await newClient(baseURL!);
  expect(await errorCode(await submit(stranger, ticket, played))).toMatchObject({ status: 403, code: 'ticket_forbidden' });
  await stranger.dispose();
  // The owner's honest replay still goes through after all of that (no attempt spent it). An
  // HTTP-ticket game is stored but held off the boards as unpaced (202): storing it is the proof.
  const honest = await submit(request, ticket, played);
  expect(honest.status()).toBe(202);
  expect(await honest.json()).toMatchObject({ game: { id: ticket.gameId }, review: { status: 'unpaced', reason: 'not_live' } });

  // Submitted the moment the seed was issued: a 20-second Sprint cannot have been played yet.
  const sprint = await newTicket(request, 'sprint');
  expect(await errorCode(await submit(request, sprint, botGame('sprint', sprint.seed)))).toMatchObject({
    status: 422,
    code: 'longer_than_elapsed',
  });
  expect(await errorCode(await request.post('/api/games/nope/replay', { data: {} }))).toMatchObject({ status: 404, code: 'ticket_not_found' });
  expect(await errorCode(await request.post('/api/games', { data: { mode: 'zen' } }))).toMatchObject({ status: 400, code: 'invalid_input' });
});

test('signing up claims the games this browser verified as a guest', async ({ baseURL }) => {
  const { api, gameId, played } = await playLiveGame(baseURL!, null);
  const first = await submit(api, { gameId }, played);
  expect(first.status(), await first.text()).toBe(201);
  expect(await first.json()).toMatchObject({ guest: true });
  const username = await signUpAndIn(api);
  const replay = await (await api.get(`/api/replays/${gameId}`)).json();
  expect(replay.game.player.username).toBe(username);
  const board = await (await api.get('/api/leaderboards/marathon?period=all')).json();
  expect(board.me).toMatchObject({ gameId, player: { username } });
  await api.dispose();
});

test('a guest who signs in mid-game submits that game as the account', async ({ baseURL }) => {
  let username = '';
  // Signing in while the game is under way, in the same browser.
  const { api, gameId, played } = await playLiveGame(baseURL!, null, { maxPieces: 6, during: async (api) => (username = await signUpAndIn(api)) });
  const response = await submit(api, { gameId }, played);
  expect(response.status(), await response.text()).toBe(201);
  expect(await response.json()).toMatchObject({ guest: false, game: { id: gameId }, rank: { all: expect.any(Number) } });
  expect((await (await api.get(`/api/replays/${gameId}`)).json()).game.player.username).toBe(username);
  const board = await (await api.get('/api/leaderboards/marathon?period=all')).json();
  expect(board.me).toMatchObject({ gameId, player: { username } });
  await api.dispose();
});

test('board and replay queries validate their input', async ({ request }) => {
  expect(await errorCode(await request.get('/api/leaderboards/zen'))).toMatchObject({ status: 400, code: 'invalid_input' });
  expect(await errorCode(await request.get('/api/leaderboards/sprint?period=year'))).toMatchObject({ status: 400, code: 'invalid_input' });
  expect(await errorCode(await request.get('/api/leaderboards/sprint?period=week&week=2026-W99'))).toMatchObject({ status: 400 });
  expect(await errorCode(await request.get('/api/leaderboards/sprint?cursor=garbage'))).toMatchObject({ status: 400, code: 'invalid_cursor' });
  const pastWeek = await request.get('/api/leaderboards/sprint?period=week&week=2020-W01');
  expect(await pastWeek.json()).toMatchObject({ bucket: '2020-W01', rows: [] });
  expect(await errorCode(await request.get('/api/leaderboards/sprint?period=day&day=2026-02-30'))).toMatchObject({ status: 400, code: 'invalid_input' });
  expect(await errorCode(await request.get('/api/leaderboards/sprint?period=day&day=2026-W47'))).toMatchObject({ status: 400, code: 'invalid_input' });
  const pastDay = await request.get('/api/leaderboards/sprint?period=day&day=2020-01-01');
  expect(await pastDay.json()).toMatchObject({ period: 'day', bucket: '2020-01-01', rows: [] });
  expect(await errorCode(await request.get('/api/replays/doesnotexist0'))).toMatchObject({ status: 404, code: 'replay_not_found' });
});
