import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { playVerified } from '@/tests/api/client';
import { hardDropGame } from '@/tests/support/replays';
import { expectTheme, setThemeCookie } from '@/tests/e2e/a11y-helpers';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Every kind of page, with `{game}` and `{user}` filled in; signed-in players are sent away from the auth pages. */
const PAGES = ['/', '/play', '/play/sprint', '/play/sprint?practice', '/live', '/leaderboards', '/leaderboards?mode=marathon&period=week', '/replays', '/replays/{game}', '/u/{user}', '/settings', '/practice', '/replays/open', '/no-such-page'];
const SIGNED_OUT_ONLY = ['/signin', '/signup'];

/** Serious and critical axe violations (and headings out of order) on the page as it stands, one line each. */
async function violations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(WCAG_AA)
    // Experimental in axe, but it is WCAG 2.5.3: a control's accessible name contains its visible label.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    // Heading order is only "moderate" to axe, but headings in order is part of what we promise.
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order')
    .flatMap((v) => v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ')}`));
}

test('every page, signed out and signed in, light and dark: no serious or critical WCAG 2.1 AA violations', async ({ browser, page, baseURL }) => {
  test.setTimeout(300_000);
  const username = uniqueUsername('a11y');
  await signUp(page, username, 'accessible-blocks-7');
  // Any stored game gives a replay page to check; its unpaced hold does not matter here.
  const { ticket } = await playVerified(page.request, 'marathon', hardDropGame);
  const guest = await browser.newContext({ baseURL });
  const visitors = [
    { who: 'signed out', page: await guest.newPage(), paths: [...PAGES, ...SIGNED_OUT_ONLY] },
    { who: 'signed in', page, paths: PAGES },
  ];

  const found: string[] = [];
  for (const visitor of visitors) {
    for (const theme of ['light', 'dark'] as const) {
      // The device agrees, so pages that apply the saved `system` theme stay in this one.
      await visitor.page.emulateMedia({ colorScheme: theme });
      for (const path of visitor.paths.map((p) => p.replace('{game}', ticket.gameId).replace('{user}', username))) {
        // The cookie again before each page: the settings and play pages write the saved theme back to it.
        await setThemeCookie(visitor.page.context(), baseURL!, theme);
        await visitor.page.goto(path);
        await expectTheme(visitor.page, theme);
        if (path.startsWith('/play/')) {
          // The game's overlays too: paused, with its buttons.
          const game = visitor.page.getByTestId('game');
          await expect(game).toHaveAttribute('data-phase', /countdown|playing/, { timeout: 20_000 });
          await visitor.page.keyboard.press('Escape');
          await expect(game).toHaveAttribute('data-phase', 'paused');
        }
        found.push(...(await violations(visitor.page, `${visitor.who}, ${theme}, ${path}`)));
      }
    }
  }
  await guest.close();
  expect(found).toEqual([]);
});
