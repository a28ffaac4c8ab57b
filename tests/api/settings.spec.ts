import { expect, test } from '@playwright/test';
import { defaultSettings, presetBindings } from '@/lib/validations/settings';
import { credentialsSignIn, errorCode, newClient, signUpAndIn } from '@/tests/api/client';

// GET/PUT /api/settings on the production server: account settings follow the player.

test('settings are saved to the account and read back from another browser', async ({ baseURL }) => {
  const a = await newClient(baseURL!);
  const username = await signUpAndIn(a);
  expect(await (await a.get('/api/settings')).json()).toEqual({ settings: null });
  const settings = { ...defaultSettings(), handling: { das: 7, arr: 0, sdf: 'instant' as const, dasCut: true }, bindings: presetBindings('numpad') };
  const put = await a.put('/api/settings', { data: settings });
  expect(put.status()).toBe(200);

  // The same player signing in elsewhere gets them.
  const b = await newClient(baseURL!);
  await credentialsSignIn(b, username, 'api-password-123');
  expect(await (await b.get('/api/settings')).json()).toEqual({ settings });
});

test('settings need a signed-in player', async ({ baseURL }) => {
  const guest = await newClient(baseURL!);
  expect(await errorCode(await guest.get('/api/settings'))).toMatchObject({ status: 401, code: 'unauthenticated' });
  expect(await errorCode(await guest.put('/api/settings', { data: defaultSettings() }))).toMatchObject({ status: 401, code: 'unauthenticated' });
});

test('bad settings are refused with a message naming the field', async ({ baseURL }) => {
  const api = await newClient(baseURL!);
  await signUpAndIn(api);
  const bad = { ...defaultSettings(), handling: { ...defaultSettings().handling, das: 99 } };
  expect(await errorCode(await api.put('/api/settings', { data: bad }))).toEqual({ status: 400, code: 'invalid_input', message: 'DAS must be at most 20' });
  const tooMany = { ...defaultSettings(), bindings: { ...defaultSettings().bindings, left: ['KeyA', 'KeyB', 'KeyC'] } };
  expect(await errorCode(await api.put('/api/settings', { data: tooMany }))).toMatchObject({ status: 400, message: 'At most 2 keys per action' });
  expect(await errorCode(await api.put('/api/settings', { data: [1, 2] }))).toEqual({ status: 400, code: 'invalid_input', message: 'Settings must be an object' });
});
