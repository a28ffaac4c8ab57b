import { expect, test } from '@playwright/test';
import { RULES } from '@/lib/server/limits/rules';
import { uniqueAddress, uniqueUsername } from '@/tests/e2e/fixtures';
import { credentialsSignIn, errorCode, newClient, sessionName, signUpAndIn } from '@/tests/api/client';

// Abuse and security on the production server, against both databases. Each test names its
// own client addresses (the test servers trust one proxy hop), so limits never leak between tests.

const PASSWORD = 'api-password-123';

test('sign-up: refused past the per-address limit with 429, Retry-After and a clear message', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  for (let i = 0; i < RULES.signUpAddress.limit; i++) {
    expect((await api.post('/api/account', { data: { username: uniqueUsername('su'), password: PASSWORD } })).status()).toBe(201);
  }
  const username = uniqueUsername('su');
  const refused = await api.post('/api/account', { data: { username, password: PASSWORD } });
  expect(await errorCode(refused)).toMatchObject({ status: 429, code: 'rate_limited', message: expect.stringMatching(/Too many new accounts.*Try again in \d+ minutes/) });
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
  // Refused before anything was stored (or hashed): the name is still free elsewhere.
  const elsewhere = await newClient(baseURL!);
  expect((await elsewhere.post('/api/account', { data: { username, password: PASSWORD } })).status()).toBe(201);
});

test('sign-up: only accounts made count against the per-address limit; every attempt counts against a looser one', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  const taken = uniqueUsername('lan');
  expect((await api.post('/api/account', { data: { username: taken, password: PASSWORD } })).status()).toBe(201);
  // A LAN party's mistakes: a name already taken, a password too common. Neither made an account.
  for (let i = 0; i < RULES.signUpAddress.limit; i++) {
    expect((await api.post('/api/account', { data: { username: taken, password: PASSWORD } })).status()).toBe(409);
    expect((await api.post('/api/account', { data: { username: uniqueUsername('lan'), password: 'password1' } })).status()).toBe(400);
  }
  // The rest of the hour's accounts are still there to make.
  for (let i = 1; i < RULES.signUpAddress.limit; i++) {
    expect((await api.post('/api/account', { data: { username: uniqueUsername('lan'), password: PASSWORD } })).status()).toBe(201);
  }
  expect(await errorCode(await api.post('/api/account', { data: { username: uniqueUsername('lan'), password: PASSWORD } }))).toMatchObject({ status: 429, message: expect.stringMatching(/new accounts/) });
  // Attempts themselves are bounded: what a script trying taken names (a password hash each) meets.
  const script = await newClient(baseURL!);
  for (let i = 0; i < RULES.signUpAttemptAddress.limit; i++) expect((await script.post('/api/account', { data: { username: taken, password: PASSWORD } })).status()).toBe(409);
  expect(await errorCode(await script.post('/api/account', { data: { username: taken, password: PASSWORD } }))).toMatchObject({ status: 429, message: expect.stringMatching(/sign-up attempts/) });
});

test('sign-up: common passwords and passwords built from the username are refused on the password field', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  for (const password of ['password1', 'iloveyou', 'qwertyuiop']) {
    const response = await api.post('/api/account', { data: { username: uniqueUsername('pw'), password } });
    expect(response.status()).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'weak_password', field: 'password', message: expect.stringMatching(/common/) });
  }
  const username = uniqueUsername('pw');
  expect(await errorCode(await api.post('/api/account', { data: { username, password: `${username}-2026` } }))).toMatchObject({ status: 400, code: 'weak_password' });
});

test('sign-in brute force: the guesser is stopped, the owner is not locked out', async ({ baseURL }) => {
  const owner = await newClient(baseURL!);
  const username = await signUpAndIn(owner);

  const nat = uniqueAddress();
  const attacker = await newClient(baseURL!, { address: nat });
  for (let i = 0; i < RULES.signInAccountAddress.limit; i++) {
    expect((await credentialsSignIn(attacker, username, `guess-${i}-wrong`)).status()).toBe(401);
  }
  // Even the right password is refused now from the guesser's address: no guessing oracle.
  const refused = await credentialsSignIn(attacker, username, PASSWORD);
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(60);
  expect(new URL((await refused.json()).url).searchParams.get('error')).toBe('RateLimited');
  expect(await sessionName(attacker)).toBeUndefined();

  // The owner, on another network, signs in.
  const elsewhere = await newClient(baseURL!);
  expect((await credentialsSignIn(elsewhere, username, PASSWORD)).status()).toBe(200);
  expect(await sessionName(elsewhere)).toBe(username);

  // So does the owner's own browser behind the guesser's NAT: it carries a device cookie.
  const ownBrowser = await newClient(baseURL!, { address: nat, cookiesOf: await owner.storageState() });
  expect((await credentialsSignIn(ownBrowser, username, PASSWORD)).status()).toBe(200);
  expect(await sessionName(ownBrowser)).toBe(username);
  // A stranger behind that NAT is still refused for this account.
  const stranger = await newClient(baseURL!, { address: nat });
  expect((await credentialsSignIn(stranger, username, PASSWORD)).status()).toBe(429);
});

test('sign-in: one address trying many accounts is limited before any password is checked', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  for (let i = 0; i < RULES.signInAddress.limit; i++) {
    expect((await credentialsSignIn(api, uniqueUsername('nobody'), 'whatever-password')).status()).toBe(401);
  }
  const refused = await credentialsSignIn(api, uniqueUsername('nobody'), 'whatever-password');
  expect(refused.status()).toBe(429);
  expect((await refused.json()).error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/sign-in attempts/) });
});

test('sign-in: parallel guesses cannot overrun the limit, and the limited path cannot be sidestepped', async ({ baseURL }) => {
  const owner = await newClient(baseURL!);
  const username = await signUpAndIn(owner);
  const attacker = await newClient(baseURL!);
  const { csrfToken } = (await (await attacker.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const guess = (path: string, i: number) =>
    attacker.post(path, { form: { csrfToken, username, password: `parallel-${i}`, json: 'true' }, maxRedirects: 0 });
  // Counted before the password is checked: at most the limit's worth of guesses are even tried.
  const statuses = (await Promise.all(Array.from({ length: 12 }, (_, i) => guess('/api/auth/callback/credentials', i)))).map((r) => r.status());
  expect(statuses.filter((s) => s === 401)).toHaveLength(RULES.signInAccountAddress.limit);
  expect(statuses.filter((s) => s === 429)).toHaveLength(12 - RULES.signInAccountAddress.limit);
  // next-auth ignores segments past the second; the limits must not.
  expect((await guess('/api/auth/callback/credentials/extra', 99)).status()).toBe(429);
});

test('sign-in: only next-auth\'s form, each field once, so the limited account is the one signed in', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  const mine = await signUpAndIn(api);
  const { csrfToken } = (await (await api.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const twice = await api.post('/api/auth/callback/credentials', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: new URLSearchParams([['csrfToken', csrfToken], ['username', 'someone-else'], ['username', mine], ['password', PASSWORD], ['json', 'true']]).toString(),
  });
  expect(await errorCode(twice)).toMatchObject({ status: 400, code: 'invalid_input' });
  const json = await api.post('/api/auth/callback/credentials', { data: { csrfToken, username: mine, password: PASSWORD, json: 'true' } });
  expect(await errorCode(json)).toMatchObject({ status: 415, code: 'unsupported_media_type' });
});

test('tickets and submissions: per-player limits answer 429 with Retry-After', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  await signUpAndIn(api);
  // The limiter counts in fixed windows with a sliding estimate, which by design undercounts a
  // burst that straddles a window's turn (the earlier part is weighed down): one more ticket then
  // passes. Started in the first half of a window, both bursts below end inside it.
  test.setTimeout(120_000); // the wait below is up to half a window
  const into = Date.now() % RULES.ticketPlayer.windowMs;
  if (into > RULES.ticketPlayer.windowMs / 2) await new Promise((r) => setTimeout(r, RULES.ticketPlayer.windowMs - into + 100));
  const tickets = await Promise.all(Array.from({ length: RULES.ticketPlayer.limit }, () => api.post('/api/games', { data: { mode: 'sprint' } })));
  expect(tickets.map((r) => r.status())).toEqual(tickets.map(() => 201));
  const refused = await api.post('/api/games', { data: { mode: 'sprint' } });
  expect(await errorCode(refused)).toMatchObject({ status: 429, code: 'rate_limited', message: expect.stringMatching(/new games/) });
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);

  const { gameId } = await tickets[0]!.json();
  for (let i = 0; i < RULES.submitPlayer.limit; i++) {
    expect((await api.post(`/api/games/${gameId}/replay`, { data: { replay: 'x', claimed: {} } })).status()).toBe(400);
  }
  expect(await errorCode(await api.post(`/api/games/${gameId}/replay`, { data: {} }))).toMatchObject({ status: 429, code: 'rate_limited' });
});

test('cross-site state changes are refused; same-origin ones pass', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  const foreign = await api.post('/api/games', { data: { mode: 'sprint' }, headers: { origin: 'https://evil.example' } });
  expect(await errorCode(foreign)).toMatchObject({ status: 403, code: 'cross_site_request' });
  const fetchMeta = await api.post('/api/account', { data: {}, headers: { 'sec-fetch-site': 'cross-site' } });
  expect(await errorCode(fetchMeta)).toMatchObject({ status: 403, code: 'cross_site_request' });
  const sameOrigin = await api.post('/api/games', { data: { mode: 'sprint' }, headers: { origin: new URL(baseURL!).origin, 'sec-fetch-site': 'same-origin' } });
  expect(sameOrigin.status()).toBe(201);
});

test('nothing changes over GET: signing out needs a POST', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  const username = await signUpAndIn(api);
  await api.get('/api/auth/signout');
  expect(await sessionName(api)).toBe(username);
  expect((await api.get('/api/games')).status()).toBe(405);
});

test('pages carry a fresh CSP nonce and the security headers; session cookies are http-only and SameSite', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  const pages = await Promise.all(['/', '/'].map((path) => api.get(path)));
  const nonces = [];
  for (const page of pages) {
    const headers = page.headers();
    const csp = headers['content-security-policy'] ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    nonces.push(nonce);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'strict-origin-when-cross-origin' });
    // Every script the page ships is allowed by exactly this response's nonce.
    const html = await page.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  }
  expect(nonces[0]).not.toBe(nonces[1]);

  const username = uniqueUsername('ck');
  await api.post('/api/account', { data: { username, password: PASSWORD } });
  const signIn = await credentialsSignIn(api, username, PASSWORD);
  const cookies = signIn.headersArray().filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value.toLowerCase());
  for (const name of ['next-auth.session-token', 'lf_device']) {
    const cookie = cookies.find((c) => c.startsWith(`${name}=`));
    expect(cookie, name).toContain('httponly');
    expect(cookie, name).toContain('samesite=lax');
  }
});

test('every route answers bad input with a typed JSON error, never a stack trace', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  const cases = [
    api.post('/api/games', { data: '{"mode":', headers: { 'content-type': 'application/json' } }),
    api.post('/api/games', { data: { mode: 'tetris99' } }),
    api.post('/api/games/not-an-id/replay', { data: { replay: 1 } }),
    api.post('/api/account', { data: { username: ['a'], password: 5 } }),
    api.put('/api/settings', { data: { theme: 'x' } }),
    api.get('/api/leaderboards/marathon?period=decade'),
    api.get('/api/leaderboards/marathon?cursor=%00%00'),
    api.get('/api/leaderboards/zen'),
    api.get('/api/replays/%E0%A4%A'),
    api.get('/api/no-such-thing'),
  ];
  for (const response of await Promise.all(cases)) {
    expect(response.status(), response.url()).toBeGreaterThanOrEqual(400);
    expect(response.status(), response.url()).toBeLessThan(500);
    expect(response.headers()['content-type'], response.url()).toContain('application/json');
    const text = await response.text();
    expect(JSON.parse(text).error, response.url()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(text, response.url()).not.toMatch(/\bat .+\.(js|ts):\d+/);
  }
});
