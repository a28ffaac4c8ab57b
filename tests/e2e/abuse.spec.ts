import { expect, test } from '@playwright/test';
import { RULES } from '@/lib/server/limits/rules';
import { signIn, signOut, signUp, uniqueAddress, uniqueUsername } from '@/tests/e2e/fixtures';

const PASSWORD = 'falling-blocks-42';

test('the forms explain a refused common password and a rate-limited sign-in', async ({ page, browser }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueAddress() });
  await page.goto('/signup');
  await page.getByLabel('Username').fill(uniqueUsername('cp'));
  await page.getByLabel('Password').fill('iloveyou1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(/one of the most common ones/)).toBeVisible();

  const username = uniqueUsername('bf');
  await signUp(page, username, PASSWORD);
  await signOut(page);
  // Someone else guesses from their own network until they are stopped …
  const guesser = await browser.newPage({ extraHTTPHeaders: { 'x-forwarded-for': uniqueAddress() } });
  for (let i = 0; i < RULES.signInAccountAddress.limit; i++) {
    await signIn(guesser, username, `wrong-guess-${i}`);
    await expect(guesser.getByRole('main').getByRole('alert')).toHaveText('Wrong password.');
  }
  await signIn(guesser, username, PASSWORD);
  await expect(guesser.getByRole('main').getByRole('alert')).toContainText('Too many sign-in attempts');
  // … while the owner, on the browser they signed in with before, still gets in.
  await signIn(page, username, PASSWORD);
  await expect(page.getByTestId('nav-profile')).toHaveText(username);
});
