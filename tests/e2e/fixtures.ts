import { expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';

/** A username no other test (or earlier run) has taken. */
export function uniqueUsername(prefix = 'p'): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

export async function signUp(page: Page, username: string, password: string) {
  await page.goto('/signup');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('nav-profile')).toHaveText(username);
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
