import { expect, test } from '@playwright/test';
import { playRanked } from '@/tests/api/client';
import { tabTo } from '@/tests/e2e/a11y-helpers';
import { uniqueAddress, uniqueUsername } from '@/tests/e2e/fixtures';

test('keyboard only: sign up, a Sprint paused and resumed, the boards, a replay sought', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueAddress() });
  const username = uniqueUsername('keys');
  const focused = page.locator(':focus');

  // The first Tab reaches the skip link, which moves focus past the navigation to the page itself.
  await page.goto('/');
  await page.keyboard.press('Tab');
  await expect(focused).toHaveText('Skip to main content');
  await page.keyboard.press('Enter');
  await expect(focused).toHaveAttribute('id', 'main');

  // Sign up: back from the page into the header, as a keyboard user goes (the home page lists every
  // mode, so going forward round the whole page takes dozens of presses).
  await tabTo(page, page.getByRole('link', { name: 'Sign in' }), 10, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/signin/);
  await tabTo(page, page.getByRole('link', { name: 'Create an account' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/signup/);
  await tabTo(page, page.getByLabel('Username'));
  await page.keyboard.type(username);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type('only-the-keyboard-5');
  await page.keyboard.press('Enter');
  // The recovery codes take focus; the way on is a few Tabs after them.
  await expect(page.getByRole('region', { name: 'Your recovery codes' })).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: 'I saved them: continue' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-profile')).toHaveText(username);

  // A Sprint: start, pause, resume with the overlay's button.
  // From the home page's content, round past its list of every mode to the header.
  await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Play', exact: true }), 80);
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('link', { name: /^Sprint/ }).and(page.locator('[href="/play/sprint"]')));
  await page.keyboard.press('Enter');
  const game = page.getByTestId('game');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });
  await expect(page.getByTestId('announcer')).toHaveText('Go');
  await page.keyboard.press('Escape');
  await expect(game).toHaveAttribute('data-phase', 'paused');
  await expect(page.getByTestId('announcer')).toHaveText(/^Paused/);
  // The settings dialog takes focus when it opens and Escape closes it.
  await tabTo(page, page.getByTestId('paused').getByRole('button', { name: 'Settings' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await tabTo(page, page.getByRole('button', { name: 'Resume (P)' }));
  await page.keyboard.press('Enter');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
  await page.keyboard.press('Escape');
  await expect(game).toHaveAttribute('data-phase', 'paused');

  // A game of this player's on the boards to watch (played live over a socket, not the page: the
  // journey is about the site's controls; an HTTP-ticket game would be held off the boards as unpaced).
  const { ticket } = await playRanked(page.request, 'marathon');

  // The boards: Marathon, then the player's own replay.
  await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leaderboards' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/leaderboards/);
  await tabTo(page, page.getByRole('navigation', { name: 'Mode' }).getByRole('link', { name: 'Marathon' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/mode=marathon/);
  await tabTo(page, page.getByTestId('my-row').getByRole('link', { name: 'Watch' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/replays/${ticket.gameId}$`));

  // The replay: pause with its button, then seek from the position slider.
  const viewer = page.getByTestId('replay-viewer');
  await tabTo(page, page.getByRole('button', { name: /^(Pause|Replay)$/ }));
  if ((await viewer.getAttribute('data-playing')) === 'true') await page.keyboard.press('Enter');
  await expect(viewer).toHaveAttribute('data-playing', 'false');
  await tabTo(page, page.getByRole('slider', { name: 'Position' }));
  await page.keyboard.press('Home');
  await expect(viewer).toHaveAttribute('data-tick', '0');
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => Number(await viewer.getAttribute('data-tick'))).toBeGreaterThan(0);
  await expect(viewer).toHaveAttribute('data-playing', 'false');
  await expect(page.getByTestId('replay-announcer')).toHaveText(/^Paused at 0:00\.\d\d of /);
});
