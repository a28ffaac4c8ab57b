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

/**
 * One visitor's pages in one theme. Four tests rather than one: each sees ~18 pages (3–5 s apiece,
 * the play pages' overlays too), and one test for all 70 ran 4 of its 5 minutes on a quiet machine,
 * past them on a busy one.
 */
for (const who of ['signed out', 'signed in'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`every page ${who}, ${theme}: no serious or critical WCAG 2.1 AA violations`, async ({ browser, page, baseURL }) => {
      test.setTimeout(180_000);
      const username = uniqueUsername('a11y');
      await signUp(page, username, 'accessible-blocks-7');
      // Any stored game gives a replay page to check; its unpaced hold does not matter here.
      const { ticket } = await playVerified(page.request, 'marathon', hardDropGame);
      const guest = who === 'signed out' ? await browser.newContext({ baseURL }) : null;
      const visitor = guest ? await guest.newPage() : page;
      const paths = who === 'signed out' ? [...PAGES, ...SIGNED_OUT_ONLY] : PAGES;
      // The device agrees, so pages that apply the saved `system` theme stay in this one.
      await visitor.emulateMedia({ colorScheme: theme });
      const found: string[] = [];
      for (const path of paths.map((p) => p.replace('{game}', ticket.gameId).replace('{user}', username))) {
        // The cookie again before each page: the settings and play pages write the saved theme back to it.
        await setThemeCookie(visitor.context(), baseURL!, theme);
        await visitor.goto(path);
        await expectTheme(visitor, theme);
        if (path.startsWith('/play/')) {
          // The game's overlays too: paused, with its buttons.
          const game = visitor.getByTestId('game');
          await expect(game).toHaveAttribute('data-phase', /countdown|playing/, { timeout: 20_000 });
          await visitor.keyboard.press('Escape');
          await expect(game).toHaveAttribute('data-phase', 'paused');
        }
        // In full in light; dark changes colours only.
        found.push(...(await violations(visitor, `${who}, ${theme}, ${path}`, theme === 'dark' ? 'colours' : undefined)));
      }
      await guest?.close();
      expect(found).toEqual([]);
    });
  }
}
