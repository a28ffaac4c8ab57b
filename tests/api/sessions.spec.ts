import { expect, test, type APIRequestContext } from '@playwright/test';
import { decode, encode } from 'next-auth/jwt';
import { RULES } from '@/lib/server/limits/rules';
import { E2E_AUTH_SECRET } from '@/scripts/e2e-secret.mjs';
import { credentialsSignIn, newClient, signUpAndIn } from '@/tests/api/client';
import { uniqueAddress } from '@/tests/e2e/fixtures';

// Who the server thinks is calling, when the cookies lie. /api/settings answers 401 to anyone it
// does not take for a signed-in player, so it shows what the server made of a session cookie.

const SESSION = 'next-auth.session-token';
const PASSWORD = 'api-password-123';

async function sessionCookieOf(api: APIRequestContext): Promise<string> {
  const cookie = (await api.storageState()).cookies.find((c) => c.name === SESSION);
  if (!cookie) throw new Error('no session cookie');
  return cookie.value;
}

/** A client with exactly these cookies and nothing else. */
async function withCookies(baseURL: string, cookies: Record<string, string>) {
  const header = Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; ');
  const api = await newClient(baseURL);
  return { api, settings: () => api.get('/api/settings', { headers: { cookie: header } }) };
}

test('session cookies: a real one signs in; forged, expired or foreign-secret ones do not', async ({ baseURL }) => {
  const owner = await newClient(baseURL!);
  const username = await signUpAndIn(owner);
  const real = await sessionCookieOf(owner);
  const { sub, uid } = (await decode({ token: real, secret: E2E_AUTH_SECRET }))!;
  const claims = { sub, uid, name: username };

  const cases: [string, string, number][] = [
    ['the real cookie', real, 200],
    // One character changed in the ciphertext: the JWE no longer authenticates.
    ['forged', `${real.slice(0, -8)}${real.slice(-8) === 'AAAAAAAA' ? 'BBBBBBBB' : 'AAAAAAAA'}`, 401],
    ['expired', await encode({ token: claims, secret: E2E_AUTH_SECRET, maxAge: -60 }), 401],
    ['signed with another secret', await encode({ token: claims, secret: 'someone-elses-secret-someone-elses', maxAge: 3600 }), 401],
    ['not a token at all', 'eyJhbGciOiJub25lIn0.e30.', 401],
  ];
  for (const [what, value, status] of cases) {
    const { api, settings } = await withCookies(baseURL!, { [SESSION]: value });
    expect((await settings()).status(), what).toBe(status);
    await api.dispose();
  }
  await owner.dispose();
});

test('"sign out everywhere" and a password change end every other session; the browser that asked keeps one', async ({ baseURL }) => {
  const owner = await newClient(baseURL!);
  await signUpAndIn(owner);
  const before = await sessionCookieOf(owner);
  expect((await owner.delete('/api/account/sessions')).status()).toBe(200);
  const after = await sessionCookieOf(owner);
  expect(after).not.toBe(before);
  const stale = await withCookies(baseURL!, { [SESSION]: before });
  expect((await stale.settings()).status()).toBe(401);
  // A change of password needs the current one, and ends the session from the first step too.
  const wrong = await owner.post('/api/account/password', { data: { current: 'not-it-at-all', next: 'a-new-password-77' } });
  expect([wrong.status(), ((await wrong.json()) as { error: { code: string } }).error.code]).toEqual([400, 'wrong_password']);
  expect((await owner.post('/api/account/password', { data: { current: PASSWORD, next: 'a-new-password-77' } })).status()).toBe(200);
  const previous = await withCookies(baseURL!, { [SESSION]: after });
  expect((await previous.settings()).status()).toBe(401);
  expect((await owner.get('/api/settings')).status()).toBe(200);
  for (const c of [stale, previous]) await c.api.dispose();
  await owner.dispose();
});

test('session cookies split into chunks: read whole when genuine, refused when forged', async ({ baseURL }) => {
  const owner = await newClient(baseURL!);
  await signUpAndIn(owner);
  const real = await sessionCookieOf(owner);
  const half = Math.ceil(real.length / 2);
  const chunks = (value: string) => ({ [`${SESSION}.0`]: value.slice(0, half), [`${SESSION}.1`]: value.slice(half) });

  const genuine = await withCookies(baseURL!, chunks(real));
  expect((await genuine.settings()).status()).toBe(200);
  const foreign = await encode({ token: { uid: 'someone', name: 'someone' }, secret: 'someone-elses-secret-someone-elses', maxAge: 3600 });
  const forged = await withCookies(baseURL!, chunks(foreign));
  expect((await forged.settings()).status()).toBe(401);
  // Chunks in the wrong order are a different (invalid) token.
  const swapped = await withCookies(baseURL!, { [`${SESSION}.0`]: real.slice(half), [`${SESSION}.1`]: real.slice(0, half) });
  expect((await swapped.settings()).status()).toBe(401);
  for (const c of [genuine, forged, swapped]) await c.api.dispose();
  await owner.dispose();
});

test('device cookies: only the account’s own, genuine one lets a browser past a guesser’s lockout', async ({ baseURL }) => {
  const owner = await newClient(baseURL!);
  const username = await signUpAndIn(owner);
  const ownDevice = (await owner.storageState()).cookies.find((c) => c.name === 'lf_device')!.value;
  const other = await newClient(baseURL!);
  await signUpAndIn(other);
  const otherDevice = (await other.storageState()).cookies.find((c) => c.name === 'lf_device')!.value;

  // Lock the account out for one address.
  const nat = uniqueAddress();
  const attacker = await newClient(baseURL!, { address: nat });
  for (let i = 0; i < RULES.signInAccountAddress.limit; i++) await credentialsSignIn(attacker, username, `guess-${i}-wrong`);
  expect((await credentialsSignIn(attacker, username, PASSWORD)).status()).toBe(429);

  const [user, device, expires, signature] = ownDevice.split('.');
  const cases: [string, string, number][] = [
    ['another account’s device cookie', otherDevice, 429],
    ['a forged signature', `${user}.${device}.${expires}.${'A'.repeat(43)}`, 429],
    ['a later expiry on a real signature', `${user}.${device}.${Number(expires) + 1}.${signature}`, 429],
    ['garbage', 'not-a-device-cookie', 429],
    ['its own genuine cookie', ownDevice, 200],
  ];
  for (const [what, device, status] of cases) {
    const url = new URL(baseURL!);
    const context = await newClient(baseURL!, {
      address: nat,
      cookiesOf: { cookies: [{ name: 'lf_device', value: device, domain: url.hostname, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] },
    });
    expect((await credentialsSignIn(context, username, PASSWORD)).status(), what).toBe(status);
    await context.dispose();
  }
  for (const c of [owner, other, attacker]) await c.dispose();
});

test('a device cookie of a deleted account is no use to whoever signs up with its name next', async ({ baseURL }) => {
  const first = await newClient(baseURL!);
  const username = await signUpAndIn(first);
  const oldDevice = (await first.storageState()).cookies.find((c) => c.name === 'lf_device')!.value;
  expect((await first.delete('/api/account', { data: { password: PASSWORD, confirm: 'delete my account' } })).status()).toBe(200);
  const second = await newClient(baseURL!);
  await signUpAndIn(second, username);

  // A guesser locks the new account out for one address; the old account's cookie does not get past.
  const nat = uniqueAddress();
  const attacker = await newClient(baseURL!, { address: nat });
  for (let i = 0; i < RULES.signInAccountAddress.limit; i++) await credentialsSignIn(attacker, username, `guess-${i}-wrong`);
  const url = new URL(baseURL!);
  const stale = await newClient(baseURL!, {
    address: nat,
    cookiesOf: { cookies: [{ name: 'lf_device', value: oldDevice, domain: url.hostname, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] },
  });
  expect((await credentialsSignIn(stale, username, PASSWORD)).status()).toBe(429);
  // The new owner's own device cookie still does.
  const ownDevice = (await second.storageState()).cookies.find((c) => c.name === 'lf_device')!.value;
  const own = await newClient(baseURL!, {
    address: nat,
    cookiesOf: { cookies: [{ name: 'lf_device', value: ownDevice, domain: url.hostname, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] },
  });
  expect((await credentialsSignIn(own, username, PASSWORD)).status()).toBe(200);
  for (const c of [first, second, attacker, stale, own]) await c.dispose();
});

test('a session says when it signed in; a reissued cookie keeps that time, never a fresh one', async ({ baseURL }) => {
  const owner = await newClient(baseURL!);
  const started = Math.floor(Date.now() / 1000);
  await signUpAndIn(owner);
  const { at } = (await decode({ token: await sessionCookieOf(owner), secret: E2E_AUTH_SECRET }))!;
  expect(at).toBeGreaterThanOrEqual(started - 1);
  expect(at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
  // "Sign out everywhere else" reissues this browser's cookie: no new proof of who is there.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  expect((await owner.delete('/api/account/sessions')).status()).toBe(200);
  expect((await decode({ token: await sessionCookieOf(owner), secret: E2E_AUTH_SECRET }))?.at).toBe(at);
  await owner.dispose();
});
