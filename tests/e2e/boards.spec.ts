import { expect, test } from '@playwright/test';
import { formatTime } from '@/lib/ui/format';
import { playRanked } from '@/tests/api/client';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { isoWeek, shiftWeek } from '@/lib/periods/weeks';

test('a verified game shows on the weekly and all-time boards and its replay plays to the verified end', async ({ page }) => {
  const username = uniqueUsername('board');
  await signUp(page, username, 'board-password-1');
  // The page's own cookies: the game belongs to the player signed in above. Played live: a game
  // over a plain HTTP ticket would be stored but held off the boards as unpaced.
  const { ticket, played } = await playRanked(page.request, 'marathon');

  // The week the server stored the game in: "this week" may have rolled over since.
  for (const query of ['', `&period=week&week=${played.week}`]) {
    await page.goto(`/leaderboards?mode=marathon${query}`);
    await expect(page.getByTestId('my-rank')).toContainText(played.result.score.toLocaleString('en-US'));
  }
  const row = page.getByTestId('leaderboard').getByRole('row').filter({ hasText: username });
  await expect(row).toContainText(played.result.score.toLocaleString('en-US'));
  await row.getByRole('link', { name: 'Watch' }).click();

  await expect(page).toHaveURL(new RegExp(`/replays/${ticket.gameId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(username);
  const end = formatTime(played.result.ticks);
  await expect(page.getByTestId('replay-clock')).toHaveText(`${end} / ${end}`);
  await expect(page.getByRole('button', { name: 'Replay' })).toBeVisible();

  await page.goto('/profile');
  await expect(page.getByTestId('personal-bests')).toContainText(played.result.score.toLocaleString('en-US'));

  await page.goto('/replays?mode=marathon');
  const listed = page.getByTestId('game-list').getByRole('listitem').filter({ hasText: username });
  await expect(listed.getByRole('link', { name: username })).toHaveAttribute('href', `/u/${username}`);
  await expect(listed.getByRole('link', { name: 'Watch' })).toHaveAttribute('href', `/replays/${ticket.gameId}`);
});

// The board pages are kept a second per process (board-cache.ts), and a stored best starts them
// afresh. Next builds the page and the route that stores the best apart, each with its own copy of
// what they share: a best set a moment after the board was read must still show at the next read.
test('a best stored a moment after its board was read shows at the next read', async ({ page, browser }) => {
  const username = uniqueUsername('fresh');
  await signUp(page, username, 'board-password-1');
  // The board as another visitor reads it (a signed-in player's own row is read afresh every time).
  const visitor = await browser.newContext();
  const rows = async () => {
    const html = await (await visitor.request.get('/leaderboards?mode=marathon&period=day')).text();
    const at = html.indexOf('data-testid="leaderboard"');
    return at < 0 ? '' : html.slice(at, html.indexOf('</table>', at));
  };
  let before = '';
  await playRanked(page.request, 'marathon', { beforeSubmit: async () => (before = await rows()) });
  expect(before).not.toContain(username);
  expect(await rows()).toContain(username);
  await visitor.close();
});

test('a bad board query explains itself', async ({ page }) => {
  await page.goto('/leaderboards?mode=zen');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('mode must be one of');
  const missing = await page.goto('/replays/doesnotexist0');
  expect(missing?.status()).toBe(404);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the boards read and switch mode, period and week with plain links and a GET form', async ({ page }) => {
    await page.goto('/leaderboards');
    await expect(page.getByTestId('leaderboard')).toBeVisible();
    await page.getByRole('navigation', { name: 'Mode' }).getByRole('link', { name: 'Ultra 2:00' }).click();
    await expect(page).toHaveURL(/mode=ultra/);
    await page.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: 'This week' }).click();
    const before = isoWeek(new Date());
    // The server's week, which may have rolled over (Monday 00:00 UTC) since the test began.
    await expect(page.getByTestId('board-bucket')).toHaveText(/^\d{4}-W\d\d$/);
    const thisWeek = (await page.getByTestId('board-bucket').textContent())!;
    expect([before, isoWeek(new Date())]).toContain(thisWeek);
    await expect(page.getByTestId('reset-countdown')).toContainText('Resets in');
    const earlier = shiftWeek(thisWeek, -3)!;
    await page.getByTestId('period-picker').selectOption(earlier);
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(new RegExp(`mode=ultra&period=week&week=${earlier}`));
    await expect(page.getByTestId('board-bucket')).toHaveText(earlier);
  });
});
