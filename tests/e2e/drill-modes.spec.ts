import { expect, test } from '@playwright/test';
import { boardHref } from '@/lib/ui/links';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { startGame, topOut } from '@/tests/e2e/play-helpers';

// A drill mode played by keys in the browser, live, to a verified result on its board.
test('Perfect Clears by keys: a stack above the fourth row ends it, and the count ranks, verified', async ({ page }) => {
  test.setTimeout(90_000);
  const username = uniqueUsername('pc');
  await signUp(page, username, 'drill-modes-password-1');
  const game = await startGame(page, 'pc');
  // Hard drops at the spawn column stack past row four within a few pieces.
  await topOut(page, game);
  await expect(page.getByTestId('result')).toContainText('too high to clear');
  await expect(page.getByTestId('submit-status')).toHaveAttribute('data-status', 'verified', { timeout: 20_000 });
  await expect(page.getByTestId('ranks')).toContainText(/All time #\d+/);
  const result = (await page.getByTestId('result-main').textContent()) ?? '';
  expect(result).toMatch(/^0 clears in \d:\d\d\.\d\d$/);
  await page.goto(boardHref({ mode: 'pc', period: 'all' }));
  await expect(page.getByTestId('my-row')).toContainText(result);
  await expect(page.getByTestId('my-row')).toContainText(username);
});
