import { expect, test } from '@playwright/test';
import { signUp, uniqueUsername } from './fixtures';

test('a signed-in player’s settings follow them to a fresh device', async ({ page }) => {
  await signUp(page, uniqueUsername('set'), 'falling-blocks-42');
  await page.goto('/settings');
  await page.getByRole('button', { name: 'WASD' }).click();
  await page.getByLabel('Rising (field upside down)').check();
  await expect(page.getByTestId('settings-status')).toHaveText('Saved to your account and this device.');

  // A new device: nothing stored locally, the account's copy is loaded.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(page.getByRole('button', { name: 'Move left key 1', exact: true })).toHaveText('A');
  await expect(page.getByLabel('Rising (field upside down)')).toBeChecked();
});

test('handling is shown in milliseconds and "instant" soft drop is offered', async ({ page }) => {
  await page.goto('/settings');
  await expect(page.getByText('167 ms')).toBeVisible();
  await page.getByLabel('Instant soft drop').check();
  await expect(page.getByText('instant', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Instant soft drop')).toBeChecked();
});
