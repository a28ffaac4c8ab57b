import { expect, test, type Page } from '@playwright/test';
import { RETRY_EVERY_MS } from '@/components/game/usePendingGames';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { startGame, topOut } from '@/tests/e2e/play-helpers';

// The offline queue away from the page that finished the game: /play tells the player about
// saved games and submits them when the browser comes back online, or on its retry timer.

const PASSWORD = 'falling-blocks-42';
const QUEUE = 'linefall:pending-games:v1';
const SUBMISSIONS = '**/api/games/*/replay';
const queued = (page: Page) => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]').length as number, QUEUE);

test('saved games are announced on /play and submitted on `online` and by the retry timer', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueUsername('queue'), PASSWORD);
  await page.route(SUBMISSIONS, (route) => route.abort());
  const game = await startGame(page, 'marathon');
  const gameId = await game.getAttribute('data-game-id');
  await topOut(page, game);
  await expect(page.getByTestId('submit-status')).toHaveAttribute('data-status', 'queued');
  const saved = await page.evaluate((key) => localStorage.getItem(key), QUEUE);

  // Still unreachable: /play says the game is waiting on this device.
  await page.goto('/play');
  const notice = page.getByTestId('pending-notice');
  await expect(notice).toContainText('1 finished game is saved on this device');

  // Back online: submitted at once, well before the retry timer would fire.
  await page.unroute(SUBMISSIONS);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(notice).toContainText('1 saved game submitted.', { timeout: 5_000 });
  expect(await queued(page)).toBe(0);
  expect((await page.request.get(`/api/replays/${gameId}`)).status()).toBe(200);

  // The same game saved again (a second tab that had not heard): no `online` event this time,
  // only the timer, which the page's clock is moved past.
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [QUEUE, saved]);
  await page.route(SUBMISSIONS, (route) => route.abort());
  await page.clock.install();
  await page.reload();
  await expect(notice).toContainText('1 finished game is saved on this device');
  await page.unroute(SUBMISSIONS);
  await page.clock.fastForward(RETRY_EVERY_MS);
  await expect(notice).toContainText('1 saved game submitted.');
  expect(await queued(page)).toBe(0);
});
