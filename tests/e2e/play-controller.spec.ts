import { expect, test, type Page, type Route } from '@playwright/test';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { frames, startGame, tap, topOut } from '@/tests/e2e/play-helpers';

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

// A page that stutters, as a phone does in garbage collection or a loaded machine's browser: its
// main thread stands still for 400 ms twenty times in one ranked game. A clock that ran only 10
// ticks of each stall's backlog fell 4.7 s behind the server's for good, and the game, played to
// its end, was held as too slow (lib/live/pace.ts).
test('a page that stutters keeps its ranked game on the clock', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueUsername('stutter'), PASSWORD);
  const game = await startGame(page, 'marathon');
  for (let i = 0; i < 20; i++) {
    await page.evaluate(() => {
      const until = performance.now() + 400;
      while (performance.now() < until);
    });
    await frames(page, 2);
  }
  await topOut(page, game);
  const status = page.getByTestId('submit-status');
  await expect(status).toHaveAttribute('data-status', 'verified');
  await expect(status).not.toContainText('Held for review');
  await expect(page.getByTestId('ranks')).toContainText(/#\d+/);
});

// The page's first game counts down and says so, so the server's clock waits the 3-2-1 out too
// (lib/live/pace.ts) rather than taking it from what a slow network may trail; a restart plays at
// once and says nothing.
test('a game that counts down says so when it is asked for; a restart does not', async ({ page }) => {
  const starts: Array<Record<string, unknown>> = [];
  page.on('websocket', (ws) => ws.on('framesent', (frame) => {
    const sent = [JSON.parse(String(frame.payload))].flat() as Array<Record<string, unknown>>;
    starts.push(...sent.filter((m) => m.t === 'start'));
  }));
  const game = await startGame(page, 'sprint');
  const first = await game.getAttribute('data-game-id');
  await page.keyboard.press('KeyR');
  await expect(game).not.toHaveAttribute('data-game-id', first!);
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
  expect(starts).toHaveLength(2);
  expect(starts[0]).toMatchObject({ mode: 'sprint', countdown: true });
  expect(starts[1]).not.toHaveProperty('countdown');
});

// A player who opened the settings during a ranked Sprint's first 3-2-1 paused a game not yet
// begun, and in a mode where any pause costs the rank it went on unranked (lib/live/pauses.ts).
// Now no pause is sent: coming back deals a new game, counted down, and it stays ranked.
test('settings opened during a ranked Sprint\'s countdown cost no rank: the game is dealt again', async ({ page }) => {
  const sent: Array<Record<string, unknown>> = [];
  page.on('websocket', (ws) => ws.on('framesent', (frame) => {
    sent.push(...([JSON.parse(String(frame.payload))].flat() as Array<Record<string, unknown>>));
  }));
  // Clicked inside the page the moment the countdown shows: from the test, a loaded machine could
  // see the countdown only as it ended.
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      if (document.querySelector('[data-testid="game"]')?.getAttribute('data-phase') !== 'countdown') return;
      seen.disconnect();
      [...document.querySelectorAll('button')].find((b) => b.textContent === 'Settings')?.click();
    });
    seen.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-phase'] });
  });
  await page.goto('/play/sprint');
  const game = page.getByTestId('game');
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible({ timeout: 20_000 });
  await expect(game).toHaveAttribute('data-phase', 'paused');
  const first = await game.getAttribute('data-game-id');
  await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('redeal-note')).toBeVisible();
  // The live badge says the same: it once said a pause costs the rank, of a game not begun.
  await expect(page.getByTestId('pause-note')).toHaveText('Not begun yet: a pause deals a new game');
  await page.getByRole('button', { name: 'Resume (P)' }).click();
  await expect(game).not.toHaveAttribute('data-game-id', first!);
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-ranked', 'true');
  expect(sent.filter((m) => m.t === 'pause'), 'no pause sent for a game never begun').toHaveLength(0);
  expect(sent.filter((m) => m.t === 'start').map((m) => m.countdown)).toEqual([true, true]);
});

/** From the next page on, every write to localStorage fails as on a device whose storage is full. */
const fillStorage = (page: Page) =>
  page.addInitScript(() => {
    Storage.prototype.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });

test('with storage full, a finished game is still submitted and verified', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueUsername('full'), PASSWORD);
  await fillStorage(page);
  const game = await startGame(page, 'marathon');
  await topOut(page, game);
  await expect(page.getByTestId('submit-status')).toHaveAttribute('data-status', 'verified');
});

test('with storage full and the server unreachable, the page says the game is not saved and Retry submits it', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueUsername('fulloff'), PASSWORD);
  await fillStorage(page);
  await page.route(SUBMISSIONS, (route) => route.abort());
  const game = await startGame(page, 'marathon');
  await topOut(page, game);
  const status = page.getByTestId('submit-status');
  await expect(status).toHaveAttribute('data-status', 'queued');
  // Nothing could be written, so nothing will retry it by itself: the page must not say otherwise.
  await expect(status).toContainText('Not saved on this device');
  await expect(status).not.toContainText('submitted automatically');

  await page.unroute(SUBMISSIONS);
  await status.getByRole('button', { name: 'Retry' }).click();
  await expect(status).toHaveAttribute('data-status', 'verified');
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
