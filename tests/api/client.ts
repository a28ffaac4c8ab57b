import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { createDealtGame, decodeReplay, DEFAULT_HANDLING, encodeReplay, MODES, simulateReplay, TICKS_PER_SECOND, type InputEvent, type Mode, type ReplayEvent } from '@/lib/engine';
import { toWireEvent } from '@/lib/live/protocol';
import { LiveClient, playLive } from '@/tests/support/live-client';
import { uniqueAddress, uniqueUsername } from '@/tests/e2e/fixtures';
import { claimOf, type Played } from '@/tests/support/replays';

export type Ticket = { gameId: string; seed: string; mode: Mode; rulesVersion: number; issuedAt: string };

/** A fresh cookie jar: a different browser, i.e. a different guest or player. */
export function newClient(
  baseURL: string,
  options: { address?: string; cookiesOf?: Awaited<ReturnType<APIRequestContext['storageState']>> } = {},
): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL,
    storageState: options.cookiesOf,
    extraHTTPHeaders: { 'x-forwarded-for': options.address ?? uniqueAddress() },
  });
}

/** Signs up and signs in through next-auth's real credentials flow; cookies stay in `api`. */
export async function signUpAndIn(api: APIRequestContext, username = uniqueUsername('api')): Promise<string> {
  const password = 'api-password-123';
  expect((await api.post('/api/account', { data: { username, password } })).status()).toBe(201);
  expect([200, 302]).toContain((await credentialsSignIn(api, username, password)).status());
  expect(await sessionName(api)).toBe(username);
  return username;
}

/** One attempt at next-auth's credentials sign-in, as its client makes it. */
export async function credentialsSignIn(api: APIRequestContext, username: string, password: string) {
  const { csrfToken } = (await (await api.get('/api/auth/csrf')).json()) as { csrfToken: string };
  return api.post('/api/auth/callback/credentials', { form: { csrfToken, username, password, json: 'true' }, maxRedirects: 0 });
}

/** Whether the client's cookies hold a session for `username`. */
export async function sessionName(api: APIRequestContext): Promise<string | undefined> {
  return ((await (await api.get('/api/auth/session')).json()) as { user?: { name: string } }).user?.name;
}

export async function newTicket(api: APIRequestContext, mode: Mode): Promise<Ticket> {
  const response = await api.post('/api/games', { data: { mode } });
  expect(response.status()).toBe(201);
  return (await response.json()) as Ticket;
}

/** Waits until the game could really have been played since the ticket was issued. */
export async function waitForGameTime(ticket: Ticket, played: Played): Promise<void> {
  const readyAt = Date.parse(ticket.issuedAt) + Math.ceil((played.result.ticks * 1000) / TICKS_PER_SECOND) + 50;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, readyAt - Date.now())));
}

export function submit(api: APIRequestContext, ticket: Pick<Ticket, 'gameId'>, played: Played, claimed = claimOf(played.result)) {
  return api.post(`/api/games/${ticket.gameId}/replay`, { data: { replay: encodeReplay(played.replay), claimed } });
}

export async function errorCode(response: { status(): number; json(): Promise<unknown> }) {
  const body = (await response.json()) as { error?: { code?: string; message?: string } };
  return { status: response.status(), code: body.error?.code, message: body.error?.message };
}

/**
 * Takes a plain HTTP ticket, plays it with `play`, waits out its game time and submits it: a
 * verified, stored game, held off the boards as unpaced (202) since the server did not pace it
 * live; `playRanked` plays one that ranks. `week` is the ISO week the server stored it in.
 */
export async function playVerified(
  api: APIRequestContext,
  mode: Mode,
  play: (mode: Mode, seed: string) => Played,
): Promise<{ ticket: Ticket; played: Played & { week: string } }> {
  const ticket = await newTicket(api, mode);
  const played = play(mode, ticket.seed);
  await waitForGameTime(ticket, played);
  const response = await submit(api, ticket, played);
  expect(response.status(), await response.text()).toBe(202);
  const { game, review } = (await response.json()) as { game: { week: string }; review?: { status: string } };
  expect(review?.status).toBe('unpaced');
  return { ticket, played: { ...played, week: game.week } };
}

/**
 * Plays a short game (a few seconds) live over the real socket at real pace, as the browser that
 * holds `api`'s cookies: the only way a game can rank. Without `api` it is a new guest's browser,
 * whose guest cookie is the one the server minted on the socket's 101; the returned `api` holds it.
 * The replay is not submitted: `submit(api, { gameId }, played)` does that, as the browser would.
 */
export async function playLiveGame(
  baseURL: string,
  api: APIRequestContext | null,
  options: { mode?: Mode; maxPieces?: number; address?: string; script?: Played['replay']['events']; during?: (api: APIRequestContext) => Promise<unknown> } = {},
): Promise<{ api: APIRequestContext; gameId: string; played: Played; minted: string[] }> {
  const address = options.address ?? uniqueAddress();
  const cookie = api ? (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ') : '';
  const client = await LiveClient.connect(baseURL, { address, cookie: cookie || undefined });
  if (!api) {
    const host = new URL(baseURL).hostname;
    const cookies = client.setCookies.map((set) => {
      const [pair = ''] = set.split(';');
      const eq = pair.indexOf('=');
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), domain: host, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' as const };
    });
    api = await newClient(baseURL, { address, cookiesOf: { cookies, origins: [] } });
  }
  const mode = options.mode ?? 'marathon';
  const playing = playLive(client, { mode, maxPieces: options.maxPieces ?? 3, seed: 1, script: options.script });
  await options.during?.(api);
  const run = await playing;
  client.close();
  expect(run.over?.ranked).toBe(true);
  const replay = decodeReplay(run.encoded!);
  return { api, gameId: run.gameId, played: { replay, result: simulateReplay(replay) }, minted: client.setCookies };
}

/** Plays a short game live and submits it: a ranked game (201). */
export async function playLiveVerified(baseURL: string, api: APIRequestContext, mode: Mode = 'marathon') {
  const { gameId, played } = await playLiveGame(baseURL, api, { mode });
  const response = await submit(api, { gameId }, played);
  expect(response.status(), await response.text()).toBe(201);
  return { gameId, played, body: (await response.json()) as { game: { id: string; week: string; createdAt: string } } };
}

/**
 * A ranked game, as the boards now take them: played live over /api/live (the server deals the
 * pieces and paces the game) as the owner of `api`'s cookies, then its seeded replay submitted.
 * A mode that ranks only a finished game (Sprint, Dig) is played to its end by the bot (a Sprint in about 40 s); in the others every piece is
 * dropped where it spawns after `maxPieces` placed ones, so the game lasts seconds.
 * `playVerified` plays over a plain HTTP ticket instead: stored and verified, but held as unpaced.
 * `beforeSubmit` runs once the game is over, just before its replay is sent.
 */
export async function playRanked(
  api: APIRequestContext,
  mode: Mode,
  options: { maxPieces?: number; beforeSubmit?: () => Promise<unknown> } = {},
): Promise<{ ticket: { gameId: string }; played: Played & { week: string } }> {
  const origin = new URL((await api.get('/api/health')).url()).origin;
  const { cookies } = await api.storageState();
  const client = await LiveClient.connect(origin, { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') });
  try {
    // A mode that ranks only a finished game (Sprint, Dig) is played to its end; the others top out.
    const run = await playLive(client, { mode, maxPieces: options.maxPieces ?? (MODES[mode].needsFinish ? undefined : 0), ticksPerPiece: 12 });
    expect(run.over?.ranked).toBe(true);
    const replay = decodeReplay(run.encoded!);
    const played: Played = { replay, result: simulateReplay(replay) };
    await options.beforeSubmit?.();
    const response = await api.post(`/api/games/${run.gameId}/replay`, { data: { replay: run.encoded, claimed: claimOf(played.result) } });
    expect(response.status(), await response.text()).toBe(201);
    const { game } = (await response.json()) as { game: { week: string } };
    return { ticket: { gameId: run.gameId }, played: { ...played, week: game.week } };
  } finally {
    client.close();
  }
}

/**
 * Plays a fixed input script live at real pace (each key on the script's own rhythm; a wait for
 * pieces shifts what follows) and submits it: how a test gets a live game with a given timing,
 * such as one the timing review holds. Returns the submission's response.
 */
export async function playScriptLive(api: APIRequestContext, mode: Mode, script: readonly ReplayEvent[]) {
  const origin = new URL((await api.get('/api/health')).url()).origin;
  const { cookies } = await api.storageState();
  const client = await LiveClient.connect(origin, { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') });
  try {
    const handling = { ...DEFAULT_HANDLING };
    client.send({ t: 'start', mode, handling, nextCount: 5 });
    const started = await client.next('started');
    const game = createDealtGame({ mode, handling, nextCount: 5 }, started.pieces);
    client.onMessage = (m) => {
      if (m.t === 'deal' && m.stream === started.gameId) game.deal(m.from, m.pieces);
    };
    const over = client.next('over', (m) => m.gameId === started.gameId, 120_000);
    const t0 = performance.now();
    let tick = 0;
    let next = 0;
    let logged = 0;
    let seq = 0;
    while (!game.over) {
      await new Promise((r) => setTimeout(r, 100));
      const target = Math.floor(((performance.now() - t0) * TICKS_PER_SECOND) / 1000);
      while (tick < target && !game.over) {
        // Waiting for pieces: the game's clock stands still, and the script waits with it.
        if (!game.ready) {
          tick++;
          continue;
        }
        const inputs: InputEvent[] = [];
        while (next < script.length && script[next]!.tick <= game.snapshot().tick) inputs.push({ key: script[next]!.key, down: script[next++]!.down });
        game.tick(inputs);
        tick++;
      }
      const events = game.inputs.slice(logged);
      logged += events.length;
      client.send({ t: 'inputs', stream: started.gameId, seq: ++seq, tick: game.snapshot().tick, events: events.map(toWireEvent), hash: game.playHash() });
    }
    const end = await over;
    game.reveal(end.seed);
    const encoded = encodeReplay(game.replay());
    return await api.post(`/api/games/${started.gameId}/replay`, { data: { replay: encoded, claimed: claimOf(simulateReplay(decodeReplay(encoded))) } });
  } finally {
    client.close();
  }
}
