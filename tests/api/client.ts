import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { encodeReplay, TICKS_PER_SECOND, type Mode } from '@/lib/engine';
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

export function submit(api: APIRequestContext, ticket: Ticket, played: Played, claimed = claimOf(played.result)) {
  return api.post(`/api/games/${ticket.gameId}/replay`, { data: { replay: encodeReplay(played.replay), claimed } });
}

export async function errorCode(response: { status(): number; json(): Promise<unknown> }) {
  const body = (await response.json()) as { error?: { code?: string; message?: string } };
  return { status: response.status(), code: body.error?.code, message: body.error?.message };
}

/** Takes a ticket, plays it with `play`, waits out its game time and submits it: a verified game. */
export async function playVerified(api: APIRequestContext, mode: Mode, play: (mode: Mode, seed: string) => Played): Promise<{ ticket: Ticket; played: Played }> {
  const ticket = await newTicket(api, mode);
  const played = play(mode, ticket.seed);
  await waitForGameTime(ticket, played);
  expect((await submit(api, ticket, played)).status()).toBe(201);
  return { ticket, played };
}
