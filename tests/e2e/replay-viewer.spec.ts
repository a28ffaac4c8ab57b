import { expect, test, type Page } from '@playwright/test';
import { formatTime } from '@/lib/ui/format';
import { isoWeek, shiftWeek } from '@/lib/periods/weeks';
import type { Played } from '@/tests/support/replays';
import { playRanked } from '@/tests/api/client';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { frames } from '@/tests/e2e/play-helpers';
import { engineAt, expectedField, renderedField } from '@/tests/e2e/replay-helpers';

/** The viewer is paused on `tick`, and both its engine hash and its drawn field match an independent engine run. */
async function expectExactlyAt(page: Page, played: Played, tick: number) {
  const viewer = page.getByTestId('replay-viewer');
  await expect(viewer).toHaveAttribute('data-playing', 'false');
  await expect(viewer).toHaveAttribute('data-tick', String(tick));
  const engine = engineAt(played.replay, tick);
  await expect(viewer).toHaveAttribute('data-hash', engine.hash);
  await expect.poll(() => renderedField(page.getByTestId('field'))).toEqual(expectedField(engine.snap));
  await expect(page.getByTestId('stat-score')).toHaveText(engine.snap.score.toLocaleString('en-US'));
  await expect(page.getByTestId('stat-lines')).toHaveText(String(engine.snap.lines));
  await expect(page.getByTestId('input-display')).toHaveAttribute('data-held', engine.snap.held.join(' '));
  return engine;
}

test('boards, a top replay played, paused, seeked, stepped and shared, and the player’s profile', async ({ page }) => {
  test.setTimeout(120_000);
  const username = uniqueUsername('viewer');
  await signUp(page, username, 'viewer-password-1');
  // Ranked games, played live: the boards below must list them (HTTP-ticket games are held as unpaced).
  const [sprint, marathon] = await Promise.all([playRanked(page.request, 'sprint'), playRanked(page.request, 'marathon')]);

  // Boards: mode tabs, this week with its countdown, a past week from the picker.
  await page.goto('/leaderboards');
  await expect(page.getByTestId('my-row')).toContainText(formatTime(sprint.played.result.ticks));
  await page.getByRole('navigation', { name: 'Mode' }).getByRole('link', { name: 'Marathon' }).click();
  await expect(page).toHaveURL(/mode=marathon/);
  await expect(page.getByTestId('my-row')).toContainText(marathon.played.result.score.toLocaleString('en-US'));
  const before = isoWeek(new Date());
  await page.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: 'This week' }).click();
  // The server's week, which may have rolled over (Monday 00:00 UTC) since the test began.
  await expect(page.getByTestId('board-bucket')).toHaveText(/^\d{4}-W\d\d$/);
  expect([before, isoWeek(new Date())]).toContain(await page.getByTestId('board-bucket').textContent());
  await expect(page.getByTestId('reset-countdown')).toContainText(/Resets in (\dd )?\d\d:\d\d:\d\d/);
  // The week before the one the game was stored in: the player cannot be on it.
  const lastWeek = shiftWeek(marathon.played.week, -1)!;
  await page.getByTestId('period-picker').selectOption(lastWeek);
  await expect(page).toHaveURL(new RegExp(`week=${lastWeek}`));
  await expect(page.getByTestId('board-bucket')).toHaveText(lastWeek);
  await expect(page.getByTestId('leaderboard')).not.toContainText(username);
  await expect(page.getByTestId('reset-countdown')).toHaveCount(0);

  // The player's name links to their profile; "Watch" opens the replay.
  await page.goto('/leaderboards?mode=sprint');
  const row = page.getByTestId('my-row');
  await expect(row.getByRole('link', { name: username })).toHaveAttribute('href', `/u/${username}`);
  await row.getByRole('link', { name: 'Watch' }).click();
  await expect(page).toHaveURL(new RegExp(`/replays/${sprint.ticket.gameId}$`));
  const viewer = page.getByTestId('replay-viewer');
  const end = sprint.played.result.ticks;
  await expect(viewer).toHaveAttribute('data-end', String(end));
  await expect(page.getByTestId('piece-markers')).toHaveAttribute('data-count', String(sprint.played.result.pieces));

  // It plays on its own; pause stops the clock.
  await expect.poll(async () => Number(await viewer.getAttribute('data-tick'))).toBeGreaterThan(30);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(viewer).toHaveAttribute('data-playing', 'false');
  const pausedAt = Number(await viewer.getAttribute('data-tick'));
  // Eighteen frames later (what 300 ms of play would draw), still there.
  await frames(page, 18);
  await expect(viewer).toHaveAttribute('data-tick', String(pausedAt));

  // Seek by time: the board is exactly the engine's at that tick.
  const target = Math.floor(end / 2);
  await page.getByTestId('seek-bar').fill(String(target));
  const mid = await expectExactlyAt(page, sprint.played, target);
  await expect(page.getByTestId('replay-clock')).toHaveText(`${formatTime(target)} / ${formatTime(end)}`);

  // Piece and tick steps, by button and by key.
  const { pieceTicks } = engineAt(sprint.played.replay, end);
  const nextPiece = pieceTicks.find((t) => t > target)!;
  await page.getByRole('button', { name: 'Next piece' }).click();
  expect((await expectExactlyAt(page, sprint.played, nextPiece)).snap.pieces).toBe(mid.snap.pieces + 1);
  await page.keyboard.press('.');
  await expectExactlyAt(page, sprint.played, nextPiece + 1);
  await page.keyboard.press(',');
  await page.keyboard.press(',');
  await expectExactlyAt(page, sprint.played, nextPiece - 1);
  await page.keyboard.press('ArrowLeft');
  const previous = pieceTicks.filter((t) => t < nextPiece - 1).at(-1)!;
  await expectExactlyAt(page, sprint.played, previous);

  // Speed: the menu and the shortcut; playing at 4× moves four ticks per tick of wall time.
  await page.getByLabel('Speed').selectOption('2');
  await expect(viewer).toHaveAttribute('data-speed', '2');
  // Keys typed into the focused menu are the menu's; click away first, as a person would.
  await page.getByTestId('replay-clock').click();
  await page.keyboard.press('+');
  await expect(viewer).toHaveAttribute('data-speed', '4');
  await page.keyboard.press('k');
  await expect(viewer).toHaveAttribute('data-playing', 'true');
  await expect.poll(async () => Number(await viewer.getAttribute('data-tick'))).toBeGreaterThan(previous + 60);
  await page.keyboard.press('End');
  await expectExactlyAt(page, sprint.played, end);
  await expect(page.getByRole('button', { name: 'Replay' })).toBeVisible();

  // A shared link opens paused at its moment.
  await page.keyboard.press('Home');
  await page.getByTestId('seek-bar').fill('300');
  await expectExactlyAt(page, sprint.played, 300);
  const link = page.getByTestId('share-link');
  await expect(link).toHaveAttribute('href', `/replays/${sprint.ticket.gameId}?t=5`);
  await page.goto(`/replays/${sprint.ticket.gameId}?t=7.25`);
  await expectExactlyAt(page, sprint.played, 435);

  // The profile: bests, the PB chart per mode, recent games with replay links.
  await page.goto(`/u/${username}`);
  await expect(page.getByTestId('profile-username')).toHaveText(username);
  await expect(page.getByTestId('personal-bests')).toContainText(formatTime(end));
  await expect(page.getByTestId('pb-chart-sprint')).toHaveAttribute('data-points', '1');
  await expect(page.getByTestId('pb-chart-sprint')).toContainText(formatTime(end));
  await expect(page.getByTestId('pb-chart-ultra')).toContainText('No Ultra 2:00 bests yet');
  await expect(page.getByTestId('game-list').getByRole('link', { name: 'Watch' })).toHaveCount(2);
  await page.goto('/profile');
  await expect(page).toHaveURL(new RegExp(`/u/${username}$`));
});

test('unknown players and replays get their own not-found pages', async ({ page }) => {
  const player = await page.goto('/u/nobody_here_0');
  expect(player?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Unknown player' })).toBeVisible();
  const replay = await page.goto('/replays/doesnotexist0');
  expect(replay?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Replay not found' })).toBeVisible();
});

test('the home page shows this week’s top games with watch links', async ({ page }) => {
  const username = uniqueUsername('home');
  await signUp(page, username, 'home-password-1');
  // Live, so it ranks: the card and the personal bests show ranked games only.
  const { played } = await playRanked(page.request, 'ultra');
  // Whoever else played Ultra this week, the card shows the server's top three of that week.
  type Row = { gameId: string; player: { username: string } };
  const board = (await (await page.request.get(`/api/leaderboards/ultra?period=week&week=${played.week}&limit=3`)).json()) as { rows: Row[] };
  expect(board.rows.length).toBeGreaterThan(0);
  await page.goto('/');
  await expect(page.getByTestId('personal-bests')).toContainText(played.result.score.toLocaleString('en-US'));
  const items = page.getByTestId('weekly-top-ultra').getByRole('listitem');
  await expect(items).toHaveCount(board.rows.length);
  for (const [i, row] of board.rows.entries()) {
    const item = items.nth(i);
    await expect(item.getByRole('link', { name: row.player.username })).toHaveAttribute('href', `/u/${row.player.username}`);
    await expect(item.getByRole('link', { name: 'Watch' })).toHaveAttribute('href', `/replays/${row.gameId}`);
  }
  await items.first().getByRole('link', { name: 'Watch' }).click();
  await expect(page).toHaveURL(new RegExp(`/replays/${board.rows[0]!.gameId}$`));
  await expect(page.getByTestId('replay-viewer')).toHaveAttribute('data-end', /^\d+$/);
});
