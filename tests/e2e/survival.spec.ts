import { expect, test } from '@playwright/test';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { topOut } from '@/tests/e2e/play-helpers';

// Survival live and ranked: the rows rise on the game's clock, each hole column dealt by the server
// two rows ahead at most (data-holes grows as rows rise); the stack is then dropped to the top by
// real key presses, and the time survived is the verified result on the board.
test('a player survives rising rows by real key presses and sees the verified time survived on the board', async ({ page }) => {
  test.setTimeout(120_000);
  const username = uniqueUsername('survive');
  await signUp(page, username, 'falling-blocks-42');
  await page.goto('/play');
  await page.getByRole('link', { name: /^Survival A garbage row/ }).click();
  await expect(page).toHaveURL(/\/play\/survival$/);
  const game = page.getByTestId('game');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });
  // No row in the field at the start: the first two rows' columns, and no more.
  await expect(game).toHaveAttribute('data-holes', /^\d{2}$/);
  const gameId = await game.getAttribute('data-game-id');
  // The first row rises 3 s in, the second 6 s in: each rise is followed by the next column's deal.
  await expect(game).toHaveAttribute('data-holes', /^\d{4}$/, { timeout: 15_000 });

  await topOut(page, game);

  const status = page.getByTestId('submit-status');
  await expect(status).toHaveAttribute('data-status', 'verified', { timeout: 30_000 });
  await expect(page.getByTestId('ranks')).toContainText(/#\d+/);
  const time = await page.getByTestId('result-main').textContent();
  expect(time).toMatch(/^0:\d\d\.\d\d$/);
  // The game outlived the second rise (6 s).
  expect(Number(time!.slice(2))).toBeGreaterThan(6);

  await page.getByTestId('result').getByRole('link', { name: 'Leaderboard' }).click();
  await expect(page).toHaveURL(/\/leaderboards\?mode=survival/);
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row).toContainText(time!);
  await expect(row.locator(`a[href="/replays/${gameId}"]`)).toBeVisible();
});
