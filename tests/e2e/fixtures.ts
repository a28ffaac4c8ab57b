import { expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';

/** A username no other test (or earlier run) has taken. */
export function uniqueUsername(prefix = 'p'): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/**
 * A client address of its own (the test servers trust one proxy hop, so X-Forwarded-For names
 * the client): each test's sign-ups and sign-ins count against their own rate limits, as they
 * would for players on different networks.
 */
export function uniqueAddress(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${(c! % 254) + 1}`;
}

export async function signUp(page: Page, username: string, password: string) {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueAddress() });
  await page.goto('/signup');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await saveRecoveryCodes(page);
  await expect(page.getByTestId('nav-profile')).toHaveText(username);
}

/** A site without mail answers a sign-up with recovery codes, which stay until the player goes on. */
export async function saveRecoveryCodes(page: Page) {
  const codes = page.getByTestId('recovery-codes');
  // A sign-up hashes its password slowly by design (argon2), and a lane's first one meets a cold
  // server: on a busy 2-core machine it outlasted the 10 s default with the button still waiting.
  await expect(codes.or(page.getByTestId('nav-profile'))).toBeVisible({ timeout: 30_000 });
  if (await codes.isVisible()) await page.getByRole('button', { name: 'I saved them: continue' }).click();
}

export async function signIn(page: Page, username: string, password: string) {
  await page.goto('/signin');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signOut(page: Page) {
  await page.getByTestId('nav-profile').click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
}
