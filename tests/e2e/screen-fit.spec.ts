import { expect, test, type Page } from '@playwright/test';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { startGame } from '@/tests/e2e/play-helpers';

/**
 * The game screen at a desk: the field is sized from the space the page leaves it, so a signed-in
 * player's header, title and ranked badge never push its bottom rows below the screen (Space and
 * the arrows cannot scroll mid-game). Phones are in phone.spec.ts.
 */
async function fieldBottom(page: Page): Promise<number> {
  const box = (await page.getByTestId('field').locator('..').boundingBox())!;
  const field = (await page.getByTestId('field').boundingBox())!;
  expect(box.y, 'the field starts on screen').toBeGreaterThanOrEqual(0);
  return Math.max(box.y + box.height, field.y + field.height);
}

test('on common laptop screens the whole field of a signed-in player\'s ranked game is on screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUp(page, uniqueUsername('laptop'), 'laptop-password-1');
  for (const size of [{ width: 1280, height: 720 }, { width: 1366, height: 657 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(size);
    await startGame(page, 'marathon');
    // The ranked badge loads with the game; the field makes room for it as it appears.
    await expect(page.getByText('Live · ranked')).toBeVisible();
    await expect.poll(() => fieldBottom(page), `${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scrolling').toBe(true);
    // For the record of how each screen looks (test-results/…), not compared.
    await page.screenshot({ path: test.info().outputPath(`game-screen-${size.width}x${size.height}.png`) });
  }
  // A tall screen keeps the field as large as before: 78% of the screen, at most 880 px.
  await page.setViewportSize({ width: 1920, height: 1200 });
  await expect.poll(async () => (await page.getByTestId('field').locator('..').boundingBox())!.height).toBe(880);
});
