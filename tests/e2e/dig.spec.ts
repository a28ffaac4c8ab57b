import { expect, test } from '@playwright/test';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { playLive } from '@/tests/e2e/play-helpers';

// Dig 10 live and ranked: the browser never has the seed, so both the pieces and the garbage rows'
// hole columns arrive from the server as the game goes; each piece is planned in Node from what
// the page has been dealt by then (data-dealt, data-holes) and typed with real key presses.
test('a player digs out Dig 10 with real key presses and sees the verified time on the board', async ({ page }) => {
  test.setTimeout(300_000);
  const username = uniqueUsername('dig');
  await signUp(page, username, 'falling-blocks-42');
  await page.goto('/play');
  await page.getByRole('link', { name: /^Dig 10 lines Ten/ }).click();
  await expect(page).toHaveURL(/\/play\/dig10$/);
  const game = page.getByTestId('game');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });
  // The starting field's ten rows (Dig 10 has no more; a longer dig is dealt two rows past its field at most).
  await expect(game).toHaveAttribute('data-holes', /^\d{10}$/);
  const gameId = await game.getAttribute('data-game-id');

  await playLive(page, game, 'dig10');

  await expect(game).toHaveAttribute('data-phase', 'ended');
  await expect(game).toHaveAttribute('data-progress', '10');
  const status = page.getByTestId('submit-status');
  await expect(status).toHaveAttribute('data-status', 'verified', { timeout: 30_000 });
  await expect(page.getByTestId('ranks')).toContainText(/#\d+/);
  expect(await page.getByTestId('result-main').textContent()).toMatch(/^\d+:\d\d\.\d\d$/);

  await page.getByTestId('result').getByRole('link', { name: 'Leaderboard' }).click();
  await expect(page).toHaveURL(/\/leaderboards\?mode=dig10/);
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row).toBeVisible();
  await expect(row.locator(`a[href="/replays/${gameId}"]`)).toBeVisible();
});
