import { expect, test } from '@playwright/test';
import { signIn, signOut, signUp, uniqueUsername } from '@/tests/e2e/fixtures';

const PASSWORD = 'falling-blocks-42';

test('a newcomer signs up, signs out and signs back in', async ({ page }) => {
  const username = uniqueUsername('new');
  await signUp(page, username, PASSWORD);
  await signOut(page);
  await signIn(page, username.toUpperCase(), PASSWORD);
  await expect(page.getByTestId('nav-profile')).toHaveText(username);
  await page.getByTestId('nav-profile').click();
  await expect(page.getByTestId('profile-username')).toHaveText(username);
});

test('a wrong password is shown on the form', async ({ page }) => {
  const username = uniqueUsername('wp');
  await signUp(page, username, PASSWORD);
  await signOut(page);
  await signIn(page, username, 'not-the-password');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Wrong password.');
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});

test('an unknown username is shown on the form', async ({ page }) => {
  await signIn(page, uniqueUsername('ghost'), PASSWORD);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('No account has that username.');
});

test('a taken username is shown on the sign-up form, whatever its case', async ({ page, browser }) => {
  const username = uniqueUsername('taken');
  await signUp(page, username, PASSWORD);
  const other = await browser.newPage();
  await other.goto('/signup');
  await other.getByLabel('Username').fill(username.toUpperCase());
  await other.getByLabel('Password').fill(PASSWORD);
  await other.getByRole('button', { name: 'Create account' }).click();
  await expect(other.getByRole('main').getByRole('alert')).toHaveText('That username is taken.');
  await other.close();
});

test('a weak password is refused before anything is sent', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('Username').fill(uniqueUsername('weak'));
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Password is too weak: use at least 8 characters');
});

test('the site shell: navigation, home and 404', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Prove it');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of ['Play', 'Leaderboards', 'Replays', 'Settings', 'Sign in']) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('This line has already cleared')).toBeVisible();
});
