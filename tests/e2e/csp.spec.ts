import { expect, test, type Page } from '@playwright/test';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { startGame, tap } from '@/tests/e2e/play-helpers';

// The Content-Security-Policy is strict (scripts only with a per-response nonce), so this walks
// every page a player visits and fails on any violation the browser reports: the app must work
// under its own policy, not merely send one.

function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect)/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
  return violations;
}

test('every page works under the CSP with no violation, signed out and signed in', async ({ page }) => {
  test.setTimeout(120_000);
  const violations = watchViolations(page);
  for (const path of ['/', '/leaderboards', '/replays', '/play', '/settings', '/signin', '/signup', '/no-such-page']) {
    // Scripts that the policy blocked show up as console violations or page errors; the game
    // played at the end proves the client code ran.
    await page.goto(path);
    await expect(page.locator('body')).toBeVisible();
  }
  await signUp(page, uniqueUsername('csp'), 'strict-policy-77');
  for (const path of ['/profile', '/settings', '/leaderboards?mode=sprint']) await page.goto(path);

  const game = await startGame(page, 'marathon');
  await tap(page, game, 'Space', 'pieces');
  await expect(game).toHaveAttribute('data-pieces', '1');
  expect(violations).toEqual([]);
});

test('the site refuses to be framed by another page', async ({ page, baseURL }) => {
  const violations: string[] = [];
  page.on('console', (message) => violations.push(message.text()));
  await page.setContent(`<iframe id="f" src="${baseURL}/"></iframe>`);
  await expect.poll(() => violations.some((v) => /frame-ancestors|refused to (display|frame)/i.test(v)), { timeout: 10_000 }).toBe(true);
});
