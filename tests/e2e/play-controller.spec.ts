import { expect, test, type Route } from '@playwright/test';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { startGame, tap, topOut } from '@/tests/e2e/play-helpers';

// The play page's controller (lib/client/play-controller.ts) through what a player sees.

const PASSWORD = 'falling-blocks-42';
const QUEUE = 'linefall:pending-games:v1';
const SUBMISSIONS = '**/api/games/*/replay';

test('a tab that becomes hidden pauses the game', async ({ page }) => {
  const game = await startGame(page, 'marathon');
  await tap(page, game, 'Space', 'pieces');
  // What the browser does when the player switches tabs or minimises the window (no blur).
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(game).toHaveAttribute('data-phase', 'paused');
  await expect(page.getByTestId('paused')).toBeVisible();
});

// fixme: since ranked games are live, with storage full the topping-out drop sometimes shows the
// game's end more than 5 s late (tap()'s window), though the game is then verified and ranked.
// Seen only with the machine's other core busy: 0 of 12 runs failed on an idle machine, 5 of 16
// while another checkout built and tested. Not a re-render replacing the element, nor tap()'s
// timer racing its last frame (both ruled out); tap() now reports the game's phase, pieces,
// waiting flag and dealt count when it gives up, which is what the next look needs.
test.fixme('with storage full, a finished game is still submitted and verified', async ({ page }) => {
  test.setTimeout(120_000);
  const username = uniqueUsername('full');
  await signUp(page, username, PASSWORD);
  await page.addInitScript(() => {
    Storage.prototype.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  const game = await startGame(page, 'marathon');
  await topOut(page, game);
  await expect(page.getByTestId('submit-status')).toHaveAttribute('data-status', 'verified');
});

test('restarting while a submission is in flight starts the new game and loses neither', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueUsername('restart'), PASSWORD);
  let held: Route | null = null;
  await page.route(SUBMISSIONS, (route) => void (held = route));
  const game = await startGame(page, 'marathon');
  const first = await game.getAttribute('data-game-id');
  await topOut(page, game);
  await expect(page.getByTestId('submit-status')).toHaveAttribute('data-status', 'verifying');
  await expect.poll(() => held !== null).toBe(true);

  await page.keyboard.press('KeyR');
  await expect(game).not.toHaveAttribute('data-game-id', first!);
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
  // The first game's request fails now, behind the new game: it stays saved for later, and the
  // new game carries on undisturbed.
  await held!.abort();
  await expect
    .poll(() => page.evaluate((key) => (JSON.parse(localStorage.getItem(key) ?? '[]') as { gameId: string; attempts: number }[]).map((g) => `${g.gameId}:${g.attempts}`), QUEUE))
    .toEqual([`${first}:1`]);
  await expect(game).toHaveAttribute('data-phase', 'playing');
  await expect(page.getByTestId('result')).toHaveCount(0);

  // Back on /play with the server reachable, it is submitted.
  await page.unroute(SUBMISSIONS);
  await page.goto('/play');
  await expect(page.getByTestId('pending-notice')).toContainText('1 saved game submitted.');
  expect((await page.request.get(`/api/replays/${first}`)).status()).toBe(200);
});
