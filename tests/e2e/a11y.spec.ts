import { expect, test } from '@playwright/test';
import { playVerified } from '@/tests/api/client';
import { hardDropGame } from '@/tests/support/replays';
import { expectTheme, setThemeCookie, violations } from '@/tests/e2e/a11y-helpers';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';

/** Every kind of page, with `{game}` and `{user}` filled in; signed-in players are sent away from the auth pages. */
const PAGES = [
  '/', '/play', '/play/sprint', '/play/sprint?practice', '/live', '/leaderboards', '/leaderboards?mode=marathon&period=week',
  '/leaderboards/versus', '/leaderboards/versus?mode=race30&board=wins', '/replays', '/replays/{game}', '/u/{user}', '/settings',
  '/practice', '/replays/open', '/versus', '/no-such-page',
];
const SIGNED_OUT_ONLY = ['/signin', '/signup'];
// A stored versus match, a profile with versus history and a provisional player's pinned row:
// tests/e2e/versus-records.spec.ts scans those (on a server it seeds itself). A room, a match being
// played and watched, and its result: tests/e2e/versus.spec.ts.

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
        // In full once (light); dark changes colours only.
        found.push(...(await violations(visitor.page, `${visitor.who}, ${theme}, ${path}`, theme === 'dark' ? 'colours' : undefined)));
      }
    }
  }
  await guest.close();
  expect(found).toEqual([]);
});
