import { expect, test, type Page } from '@playwright/test';
import { signUp, uniqueUsername } from './fixtures';
import { startGame, tap } from './play-helpers';

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
    await page.goto(path);
    // Hydrated: the client router took over (Next marks the document once React has mounted).
    await expect(page.locator('body')).toBeVisible();
  }
  await signUp(page, uniqueUsername('csp'), 'strict-policy-77');
  for (const path of ['/profile', '/settings', '/leaderboards?mode=sprint']) await page.goto(path);

  const game = await startGame(page, 'marathon');
  await tap(page, game, 'Space', 'pieces');
  await expect(game).toHaveAttribute('data-pieces', '1');
  expect(violations).toEqual([]);
});

test('the site refuses to be framed by another page', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => violations.push(message.text()));
  const base = new URL(page.context().pages()[0]?.url() || 'http://127.0.0.1:3100');
  await page.setContent(`<iframe id="f" src="${test.info().project.use.baseURL ?? base.origin}/"></iframe>`);
  await expect.poll(() => violations.some((v) => /frame-ancestors|refused to (display|frame)/i.test(v)), { timeout: 10_000 }).toBe(true);
});
