import { expect, test } from '@playwright/test';
import { decodeReplay, encodeReplay, simulateReplay } from '@/lib/engine';
import type { LiveGameSummary } from '@/lib/live/protocol';
import { uniqueAddress } from '@/tests/e2e/fixtures';
import { newClient, newTicket, signUpAndIn } from '@/tests/api/client';
import { continueLive, LiveClient, playLive, type LiveGameRun } from '@/tests/support/live-client';
import { claimOf, hardDropGame } from '@/tests/support/replays';

// The live channel over a real socket against the production server, on both databases.
// The games are short (a few seconds) and played at real pace, as a browser would.

async function signedInCookie(baseURL: string): Promise<{ cookie: string; address: string; name: string }> {
  const address = uniqueAddress();
  const api = await newClient(baseURL, { address });
  const name = await signUpAndIn(api);
  const { cookies } = await api.storageState();
  await api.dispose();
  return { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), address, name };
}

const post = async (baseURL: string, who: { cookie: string; address: string }, gameId: string, replay: string, claimed: object) => {
  const api = await newClient(baseURL, { address: who.address });
  const res = await api.post(`/api/games/${gameId}/replay`, { data: { replay, claimed }, headers: { cookie: who.cookie } });
  const body = (await res.json()) as { review?: { status: string; reason: string } | null; rank?: unknown; error?: { code: string } };
  await api.dispose();
  return { status: res.status(), body };
};

test('a live game at real pace: dealt piece by piece, watched live, stored ranked', async ({ baseURL }) => {
  // A long game, a Sprint's worth of pieces (~35 s at real pace), so the deal rule below is checked
  // through line clears, level changes and the top-out (it was 40 pieces, ~8 s).
  test.setTimeout(120_000);
  const who = await signedInCookie(baseURL!);
  const player = await LiveClient.connect(baseURL!, who);
  const nextCount = 3;
  // On every message: the socket never carried more than the preview plus one past the current piece.
  let dealt = 0;
  let worst = 0;
  let run: LiveGameRun | null = null;
  let messages = 0;
  player.onMessage = (m) => {
    if (m.t === 'started') dealt = m.pieces.length;
    if (m.t === 'deal') dealt = Math.max(dealt, m.from + m.pieces.length);
    // Before the game object exists only `started` has arrived: the current piece is piece 1.
    worst = Math.max(worst, dealt - (run?.game.taken ?? 1));
    messages++;
  };
  const playing = playLive(player, { mode: 'marathon', nextCount, maxPieces: 100, ticksPerPiece: 10, seed: 7, onStart: (r) => (run = r) });
  // A spectator joins late: the catch-up is the game a moment ago (a state) and the inputs since, then frames follow.
  const spectator = await LiveClient.connect(baseURL!, { address: uniqueAddress() });
  const list = async () => ((await (await fetch(`${baseURL}/api/live`)).json()) as { games: LiveGameSummary[] }).games;
  await expect.poll(async () => (await list()).some((g) => g.player.name === who.name && g.mode === 'marathon')).toBe(true);
  const gameId = (await list()).find((g) => g.player.name === who.name)!.gameId;
  await new Promise((r) => setTimeout(r, 1500));
  spectator.send({ t: 'watch', of: { kind: 'game', id: gameId } });
  const watching = await spectator.next('watching');
  expect(watching.player).toEqual({ name: who.name, guest: false });
  expect(watching.state?.core.tickNo).toBeLessThanOrEqual(watching.tick);
  expect(watching.tick).toBeGreaterThan(0);
  await spectator.next('frame', (f) => f.tick > watching.tick);
  await expect.poll(async () => (await list()).find((g) => g.gameId === gameId)?.spectators).toBe(1);
  run = await playing;
  expect(messages).toBeGreaterThan(100);
  expect(worst).toBeLessThanOrEqual(nextCount + 1);
  expect(worst).toBe(nextCount + 1);
  expect(run.over!.ranked).toBe(true);
  const ended = await spectator.next('ended');
  expect(ended.replayId).toBe(gameId);
  const res = await post(baseURL!, who, run.gameId, run.encoded!, claimOf(decodeAndSim(run.encoded!)));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.review ?? null).toBeNull();
  expect(await list()).not.toContainEqual(expect.objectContaining({ gameId }));
  player.close();
  spectator.close();
});

test('a replay that differs from the stream is refused; the streamed one is then stored', async ({ baseURL }) => {
  const who = await signedInCookie(baseURL!);
  const c = await LiveClient.connect(baseURL!, who);
  const run = await playLive(c, { mode: 'marathon', maxPieces: 3, seed: 3 });
  const replay = decodeReplay(run.encoded!);
  const changed = { ...replay, events: replay.events.slice(0, -2) };
  const refused = await post(baseURL!, who, run.gameId, encodeReplay(changed), claimOf(decodeAndSim(encodeReplay(changed))));
  expect(refused.status).toBe(422);
  expect(refused.body.error?.code).toBe('stream_mismatch');
  const stored = await post(baseURL!, who, run.gameId, run.encoded!, claimOf(decodeAndSim(run.encoded!)));
  expect(stored.status).toBe(201);
  c.close();
});

test('a stream that runs ahead of the wall clock is refused and its ticket spent', async ({ baseURL }) => {
  const who = await signedInCookie(baseURL!);
  const c = await LiveClient.connect(baseURL!, who);
  c.send({ t: 'start', mode: 'sprint', handling: { das: 10, arr: 2, sdf: 20, dasCut: false }, nextCount: 5 });
  const started = await c.next('started');
  c.send({ t: 'inputs', stream: started.gameId, seq: 1, tick: 600, events: [[0, 3, 1], [2, 3, 0]] });
  const error = await c.next('error');
  expect(error.code).toBe('ahead_of_clock');
  const played = hardDropGame('sprint', 'ahead');
  await expect.poll(async () => (await post(baseURL!, who, started.gameId, encodeReplay(played.replay), claimOf(played.result))).body.error?.code).toBe('ticket_used');
  c.close();
});

test('a game played with a seed from an HTTP ticket is stored but held as unpaced', async ({ baseURL }) => {
  const address = uniqueAddress();
  const api = await newClient(baseURL!, { address });
  await signUpAndIn(api);
  const ticket = await newTicket(api, 'marathon');
  const played = hardDropGame('marathon', ticket.seed);
  const res = await api.post(`/api/games/${ticket.gameId}/replay`, { data: { replay: encodeReplay(played.replay), claimed: claimOf(played.result) } });
  expect(res.status()).toBe(202);
  const body = (await res.json()) as { review: { status: string; reason: string } };
  expect(body.review).toMatchObject({ status: 'unpaced', reason: 'not_live' });
  const replay = (await (await api.get(`/api/replays/${ticket.gameId}`)).json()) as { status: string };
  expect(replay.status).toBe('unpaced');
  await api.dispose();
});

test('bad messages get typed errors and harm neither the socket nor another game', async ({ baseURL }) => {
  const who = await signedInCookie(baseURL!);
  const other = await LiveClient.connect(baseURL!, { address: uniqueAddress() });
  const otherGame = playLive(other, { mode: 'marathon', maxPieces: 2, seed: 5 });
  const c = await LiveClient.connect(baseURL!, who);
  const expectError = async (send: () => void, code: string) => {
    send();
    expect((await c.next('error')).code).toBe(code);
  };
  await expectError(() => c.sendRaw('{not json'), 'bad_message');
  await expectError(() => c.send({ t: 'launch' }), 'bad_message');
  await expectError(() => c.send({ t: 'inputs', stream: 'x', seq: 1, tick: 1, events: [] }), 'bad_message');
  await expectError(() => c.send({ t: 'inputs', stream: 'abcdef012345', seq: 1, tick: 1, events: [] }), 'unknown_game');
  c.send({ t: 'start', mode: 'marathon', handling: { das: 10, arr: 2, sdf: 20, dasCut: false }, nextCount: 5 });
  const started = await c.next('started');
  await expectError(() => c.send({ t: 'inputs', stream: started.gameId, seq: 3, tick: 1, events: [] }), 'out_of_order');
  await expectError(() => c.send({ t: 'inputs', stream: started.gameId, seq: 1, tick: 1, events: [[5, 0, 1]] }), 'bad_inputs');
  await expectError(() => c.send({ t: 'hello', v: 99 }), 'unsupported_version');
  expect((await c.closed).code).toBe(4000);
  // A frame longer than any message is not read at all: the socket is closed (1009, message too big).
  const big = await LiveClient.connect(baseURL!, who);
  big.sendRaw(JSON.stringify({ t: 'ping', n: 1, pad: 'x'.repeat(20_000) }));
  expect((await big.closed).code).toBe(1009);
  // The other player's game went on to its end untouched.
  const run = await otherGame;
  expect(run.over!.ranked).toBe(true);
  other.close();
});

test('a dropped connection resumes within the window and the game is stored from its stream without a POST', async ({ baseURL }) => {
  test.setTimeout(60_000);
  const who = await signedInCookie(baseURL!);
  const first = await LiveClient.connect(baseURL!, who);
  const run = await playLive(first, { mode: 'marathon', maxPieces: 4, seed: 11, stopAfterBatches: 8 });
  first.ws.terminate();
  const second = await LiveClient.connect(baseURL!, who);
  const resumed = await second.resume(run.gameId, run.resumeToken);
  expect(resumed).toMatchObject({ gameId: run.gameId, lastSeq: run.seq });
  run.game.deal(resumed.from, resumed.pieces);
  await continueLive(second, run, { mode: 'marathon', maxPieces: 4, seed: 11 });
  expect(run.over!.ranked).toBe(true);
  // No POST: the server stores the stream itself once its wait is over.
  const api = await newClient(baseURL!, { address: who.address });
  await expect
    .poll(async () => (await api.get(`/api/replays/${run.gameId}`, { headers: { cookie: who.cookie } })).status(), { timeout: 30_000 })
    .toBe(200);
  await api.dispose();
  second.close();
});

function decodeAndSim(encoded: string) {
  return simulateReplay(decodeReplay(encoded));
}
