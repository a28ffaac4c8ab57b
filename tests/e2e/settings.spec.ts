import { expect, test } from '@playwright/test';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { pieceColourPixels, startGame, tap } from '@/tests/e2e/play-helpers';

test('a signed-in player’s settings follow them to a fresh device', async ({ page }) => {
  await signUp(page, uniqueUsername('set'), 'falling-blocks-42');
  await page.goto('/settings');
  await page.getByRole('button', { name: 'WASD' }).click();
  await page.getByLabel('Rising (field upside down)').check();
  await expect(page.getByTestId('settings-status')).toHaveText('Saved to your account and this device.');

  // A new device: nothing stored locally, the account's copy is loaded.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(page.getByRole('button', { name: /^Move left key 1:/ })).toHaveText('A');
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

test('the in-game settings dialog pauses the game and display changes apply at once', async ({ page }) => {
  const game = await startGame(page, 'marathon');
  for (let i = 0; i < 4; i++) await tap(page, game, 'Space', 'pieces');
  // The field spans the middle of the canvas; blocks stack at the bottom.
  const top = { x0: 0.3, x1: 0.7, y0: 0, y1: 0.5 };
  const bottom = { x0: 0.3, x1: 0.7, y0: 0.5, y1: 1 };
  expect(await pieceColourPixels(page, bottom)).toBeGreaterThan(await pieceColourPixels(page, top));

  await page.getByTestId('game').getByRole('button', { name: 'Settings' }).first().click();
  await expect(game).toHaveAttribute('data-phase', 'paused');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Rising (field upside down)').check();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.keyboard.press('KeyP');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
  // Upside down: the stack now hangs from the top.
  expect(await pieceColourPixels(page, top)).toBeGreaterThan(await pieceColourPixels(page, bottom));
});

test('a game that becomes ready while the settings dialog is open waits paused', async ({ page }) => {
  // Hold the request for a live game back so the dialog is open before the game can start.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.routeWebSocket('**/api/live', (ws) => {
    const server = ws.connectToServer();
    ws.onMessage(async (message) => {
      if (String(message).includes('"t":"start"')) await held;
      server.send(message);
    });
  });
  await page.goto('/play/marathon');
  await page.getByTestId('game').getByRole('button', { name: 'Settings' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();
  release();
  const game = page.getByTestId('game');
  await expect(game).toHaveAttribute('data-game-id', /.+/);
  await expect(game).toHaveAttribute('data-phase', 'paused');
  // Keys typed into the dialog (Space on a checkbox) do not play the game meanwhile.
  await dialog.getByLabel('Rising (field upside down)').focus();
  await page.keyboard.press('Space');
  await expect(game).toHaveAttribute('data-phase', 'paused');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.keyboard.press('KeyP');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
});
