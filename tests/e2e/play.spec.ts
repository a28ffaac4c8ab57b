import { expect, test } from '@playwright/test';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { frames, pieceColourPixels, playLiveSprint, startGame, tap, topOut } from '@/tests/e2e/play-helpers';

const PASSWORD = 'falling-blocks-42';

// The longest browser test: ~100 pieces typed with real key presses, each tap watched until the
// game has drawn it: ~1 s a piece, 1.6 minutes in all on this 2-core machine, 3.5–4.5 on a slower
// one (2026-11-23), hence the budget. Each piece is planned from the pieces dealt by then.
test('a player picks Sprint, plays 40 lines with real key presses and sees the verified time on the board', async ({ page }) => {
  test.setTimeout(420_000);
  const username = uniqueUsername('sprint');
  await signUp(page, username, PASSWORD);
  await page.goto('/play');
  // The mode's card, not the practice link beside it.
  await page.getByRole('link', { name: /^Sprint 40 lines Clear/ }).click();
  await expect(page).toHaveURL(/\/play\/sprint$/);
  const game = page.getByTestId('game');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });

  // The plan is made in Node, piece by piece, from the pieces the server deals this page.
  const gameId = await game.getAttribute('data-game-id');
  await playLiveSprint(page, game);

  await expect(game).toHaveAttribute('data-phase', 'ended');
  await expect(game).toHaveAttribute('data-lines', /^4\d$/);
  const status = page.getByTestId('submit-status');
  await expect(status).toHaveAttribute('data-status', 'verified', { timeout: 30_000 });
  await expect(status).toContainText('Verified');
  // Its text says why, should the game have been held (too slow, say) rather than ranked.
  await expect(status).not.toContainText('Held for review');
  await expect(page.getByTestId('ranks')).toContainText(/#\d+/);
  const time = await page.getByTestId('result-main').textContent();
  expect(time).toMatch(/^\d+:\d\d\.\d\d$/);

  await page.getByTestId('result').getByRole('link', { name: 'Leaderboard' }).click();
  await expect(page).toHaveURL(/\/leaderboards\?mode=sprint/);
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row).toBeVisible();
  await expect(row.locator(`a[href="/replays/${gameId}"]`)).toBeVisible();
});

// A new game's 3-2-1 shows the pieces dealt, as every site's does: the server's clock waits it out
// (lib/live/pace.ts), so hiding them only left them to a modified page. A resume's shows nothing (below).
test("a new game's countdown shows its queue", async ({ page }) => {
  const game = page.getByTestId('game');
  for (let tries = 1; ; tries++) {
    await page.goto('/play/marathon');
    await expect(page.getByTestId('countdown')).toBeVisible({ timeout: 20_000 });
    await frames(page, 2);
    const pixels = await pieceColourPixels(page);
    // Read after the pixels: still counting down, so they were drawn during the countdown.
    if ((await game.getAttribute('data-phase')) === 'countdown') {
      expect(pixels).toBeGreaterThan(100);
      break;
    }
    expect(tries, 'the countdown ended before the test could look at it').toBeLessThan(3);
  }
});

test('pausing hides the field and stops the game; resuming counts down again', async ({ page }) => {
  const game = await startGame(page, 'marathon');
  for (let i = 0; i < 3; i++) await tap(page, game, 'Space', 'pieces');
  expect(await pieceColourPixels(page)).toBeGreaterThan(100);

  await page.keyboard.press('KeyP');
  await expect(game).toHaveAttribute('data-phase', 'paused');
  await expect(page.getByTestId('paused')).toBeVisible();
  expect(await pieceColourPixels(page)).toBe(0);
  // Nothing moves while paused.
  await page.keyboard.press('Space');
  await expect(game).toHaveAttribute('data-pieces', '3');

  await page.keyboard.press('Escape');
  await expect(page.getByTestId('countdown')).toBeVisible();
  expect(await pieceColourPixels(page)).toBe(0);
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
  expect(await pieceColourPixels(page)).toBeGreaterThan(100);
  await tap(page, game, 'Space', 'pieces');
  await expect(game).toHaveAttribute('data-pieces', '4');
});

test('leaving the tab pauses the game; R restarts on a new ticket', async ({ page }) => {
  const game = await startGame(page, 'ultra');
  await page.evaluate(() => window.dispatchEvent(new Event('blur')));
  await expect(game).toHaveAttribute('data-phase', 'paused');

  const first = await game.getAttribute('data-game-id');
  // A restart plays at once: only the page's first game counts down (play-view.spec.ts).
  await page.keyboard.press('KeyR');
  await expect(game).not.toHaveAttribute('data-game-id', first!);
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
  await expect(game).toHaveAttribute('data-pieces', '0');
});

test('a remapped key works in the game', async ({ page }) => {
  await page.goto('/settings');
  await page.getByRole('button', { name: /^Hard drop key 1:/ }).click();
  await expect(page.getByRole('button', { name: /^Hard drop key 1:/ })).toHaveText('Press a key…');
  await page.keyboard.press('KeyV');
  await expect(page.getByRole('button', { name: /^Hard drop key 1:/ })).toHaveText('V');
  await expect(page.getByTestId('settings-status')).toHaveText('Saved on this device.');

  // A key bound twice is flagged.
  await page.getByRole('button', { name: /^Hold key 1:/ }).click();
  await page.keyboard.press('KeyV');
  await expect(page.getByTestId('binding-conflicts')).toContainText('V is bound to Hard drop and Hold');
  await page.getByRole('button', { name: /^Hold key 1:/ }).click();
  await page.keyboard.press('KeyC');
  await expect(page.getByTestId('binding-conflicts')).toHaveCount(0);

  const game = await startGame(page, 'marathon');
  await tap(page, game, 'KeyV', 'pieces');
  await expect(game).toHaveAttribute('data-pieces', '1');
  // Space was the key replaced: it no longer drops. Pressed before another V, had it dropped a
  // piece the count would be 3 once V's piece is down.
  await page.keyboard.press('Space');
  await tap(page, game, 'KeyV', 'pieces');
  await expect(game).toHaveAttribute('data-pieces', '2');
});

test('a game finished while the server is unreachable is submitted once it is back', async ({ page }) => {
  test.setTimeout(120_000);
  const username = uniqueUsername('offline');
  await signUp(page, username, PASSWORD);
  await page.route('**/api/games/*/replay', (route) => route.abort());
  const game = await startGame(page, 'marathon');
  await topOut(page, game);
  const status = page.getByTestId('submit-status');
  await expect(status).toHaveAttribute('data-status', 'queued');
  await expect(status).toContainText('Could not reach the server.');
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('linefall:pending-games:v1') ?? '[]').length);
  expect(saved).toBe(1);

  await page.unroute('**/api/games/*/replay');
  // No click: the page retries on its own.
  await expect(status).toHaveAttribute('data-status', 'verified', { timeout: 30_000 });
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('linefall:pending-games:v1') ?? '[]').length)).toBe(0);
  await page.goto('/leaderboards?mode=marathon');
  await expect(page.getByRole('row').filter({ hasText: username })).toBeVisible();
});
