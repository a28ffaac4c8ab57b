import { expect, test } from '@playwright/test';
import { isRankable, isRanked, MODE_NAMES, RANKED_MODE_NAMES } from '@/lib/engine';
import { PERIOD_IDS, PERIODS } from '@/lib/periods';
import { boardHref } from '@/lib/ui/links';
import { formatResult, MODE_INFO } from '@/lib/ui/modes';
import { playRanked } from '@/tests/api/client';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';

// Every mode the engine has, through every page that shows one, and every board period: a new
// mode or period that is only half wired fails here. Modes and periods come from their tables:
// the ranked ones (MODES' `ranked`) on the boards and charts, every one on the play pages.


test('every mode reaches its play page, every period’s board, the profile chart and the mode pickers', async ({ page }) => {
  // The longest game is a Dig 100 dug out live at a human pace (~450 pieces, about two minutes).
  test.setTimeout(300_000);
  const username = uniqueUsername('modes');
  await signUp(page, username, 'every-mode-password-1');
  // Concurrently, each live (the only games that rank): a mode that ranks only finished games (Sprint, Dig) is played to its finish, the others top out.
  // A mode the test bot cannot finish (20 TSD) and that ranks only finished games is on no board yet:
  // its pages must still show it, with no row of the player's.
  const games = await Promise.all(RANKED_MODE_NAMES.map(async (mode) => ({ mode, ...(await playRanked(page.request, mode)) })));

  for (const { mode, played } of games) {
    const result = formatResult(mode, { ticks: played.result.ticks, score: played.result.score, clears: played.result.clears });
    const ranked = isRankable(mode, played.result);
    for (const period of PERIOD_IDS) {
      await page.goto(boardHref({ mode, period }));
      await expect(page.getByRole('navigation', { name: 'Mode' }).getByRole('link', { name: MODE_INFO[mode].label })).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: PERIODS[period].tab })).toHaveAttribute('aria-current', 'page');
      if (PERIODS[period].unit) await expect(page.getByTestId('board-bucket')).toHaveText(PERIODS[period].bucketOf(new Date()));
      await expect(page.getByTestId('leaderboard').getByRole('columnheader', { name: MODE_INFO[mode].result.label })).toBeVisible();
      if (ranked) {
        await expect(page.getByTestId('my-rank')).toContainText(result);
        await expect(page.getByTestId('my-row')).toContainText(result);
      } else await expect(page.getByTestId('my-row')).toHaveCount(0);
    }
    await page.goto(`/play/${mode}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(MODE_INFO[mode].title);
    await expect(page.getByTestId('game')).toHaveAttribute('data-phase', /countdown|playing|paused/);
  }

  await page.goto(`/u/${username}`);
  for (const { mode, played } of games) {
    const chart = page.getByTestId(`pb-chart-${mode}`);
    await expect(chart).toHaveAttribute('data-points', isRankable(mode, played.result) ? '1' : '0');
    if (isRankable(mode, played.result)) await expect(chart).toContainText(formatResult(mode, played.result));
  }
  await page.goto('/play');
  // Each mode's card (its title, then its description) and its practice link (the title alone).
  for (const mode of MODE_NAMES) {
    await expect(page.getByRole('link', { name: new RegExp(`^${MODE_INFO[mode].title} `) })).toHaveAttribute('href', `/play/${mode}`);
    await expect(page.getByRole('link', { name: MODE_INFO[mode].title, exact: true })).toHaveAttribute('href', `/play/${mode}?practice`);
  }
  // A mode that never ranks (Zen) is played as practice at once: no ticket, no ranked twin, no board tab.
  for (const mode of MODE_NAMES.filter((m) => !isRanked(m))) {
    await page.goto(`/play/${mode}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(MODE_INFO[mode].title);
    await expect(page.getByTestId('game')).toHaveAttribute('data-phase', /countdown|playing/);
    await expect(page.getByRole('link', { name: 'Ranked', exact: true })).toHaveCount(0);
    await page.goto(boardHref({ mode: RANKED_MODE_NAMES[0]!, period: 'all' }));
    await expect(page.getByRole('navigation', { name: 'Mode' }).getByRole('link', { name: MODE_INFO[mode].label })).toHaveCount(0);
  }
});
