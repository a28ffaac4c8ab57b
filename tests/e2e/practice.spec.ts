import { expect, test, type Page } from '@playwright/test';
import { hardDropGame } from '@/tests/support/replays';
import { playRanked, playVerified } from '@/tests/api/client';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { engineAt } from '@/tests/e2e/replay-helpers';
import { COMMUNITY_FUMENS } from '@/tests/unit/fumen/setups';

const board = (page: Page) => page.getByTestId('sandbox').getAttribute('data-board');

async function placed(page: Page, n: number) {
  await expect(page.getByTestId('sandbox')).toHaveAttribute('data-pieces', String(n));
  return (await board(page))!;
}

test('play on from a replay moment, undo, export the fumen and open it again', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueUsername('practice'), 'practice-password-1');
  // Any stored game will do (the unpaced hold of an HTTP-ticket game does not matter here):
  // the test is about the replay file and playing on from it.
  const { ticket, played } = await playVerified(page.request, 'marathon', hardDropGame);

  // The replay downloads as a small file that the viewer opens again from disk; other files are refused.
  await page.goto(`/replays/${ticket.gameId}`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-replay').click()]);
  const file = await download.path();
  await page.goto('/replays/open');
  await page.getByTestId('replay-file').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
  await expect(page.getByTestId('replay-file-error')).toContainText('notes.json: This file is not a Linefall replay');
  await page.getByTestId('replay-file').setInputFiles(file);
  await expect(page.getByTestId('replay-file-error')).toHaveCount(0);
  const viewer = page.getByTestId('replay-viewer');
  await expect(viewer).toHaveAttribute('data-end', String(played.result.ticks));

  // Seek in the viewer: open at 0.1 s, one tick forward, then play from that exact moment.
  await page.goto(`/replays/${ticket.gameId}?t=0.1`);
  await expect(viewer).toHaveAttribute('data-tick', '6');
  await expect(viewer).toHaveAttribute('data-ready', 'true');
  await page.keyboard.press('.');
  await expect(viewer).toHaveAttribute('data-tick', '7');
  await page.getByTestId('play-from-here').click();
  await expect(page).toHaveURL(new RegExp(`/practice\\?replay=${ticket.gameId}&tick=7$`));
  const sandbox = page.getByTestId('sandbox');
  await expect(sandbox).toHaveAttribute('data-ready', 'true');
  const moment = engineAt(played.replay, 7).snap;
  await expect(sandbox).toHaveAttribute('data-board', moment.board.join('/'));
  const a = moment.active!;
  await expect(sandbox).toHaveAttribute('data-active', `${a.type}:${a.rotation}:${a.x}:${a.y}`);

  // Two pieces by keyboard (Space is hard drop in the default keys); undo takes back the second.
  await page.keyboard.press('Space');
  const afterOne = await placed(page, 1);
  expect(afterOne).not.toBe(moment.board.join('/'));
  await page.keyboard.press('Space');
  const afterTwo = await placed(page, 2);
  await page.keyboard.press('Backspace');
  expect(await placed(page, 1)).toBe(afterOne);
  await page.keyboard.press('Space');
  expect(await placed(page, 2)).toBe(afterTwo);

  // Export the position; its link opens a sandbox on the same board.
  await page.getByTestId('export').click();
  await expect(page.getByTestId('fumen-out')).toHaveValue(/^v115@/);
  await page.getByTestId('fumen-link').click();
  await expect(page).toHaveURL(/\/practice\?fumen=v115%40/);
  await expect(sandbox).toHaveAttribute('data-ready', 'true');
  await expect(sandbox).toHaveAttribute('data-board', afterTwo);

  // A link that is not a fumen says so, and leaves an empty board to play on.
  await page.goto('/practice?fumen=hello');
  await expect(page.getByTestId('sandbox-error')).toContainText('not a fumen');
  await expect(sandbox).toHaveAttribute('data-board', Array.from({ length: 20 }, () => '..........').join('/'));

  // The editor: paint two garbage cells (a click on a painted cell erases it), set the queue, play it.
  await page.getByTestId('edit').click();
  const editor = page.getByTestId('editor');
  await editor.locator('[data-cell="0,0"]').click();
  await editor.locator('[data-cell="1,0"]').click();
  await editor.locator('[data-cell="2,0"]').click();
  await editor.locator('[data-cell="1,0"]').click();
  await editor.getByLabel(/^Queue/).fill('ti');
  await editor.getByRole('button', { name: 'Play this board' }).click();
  await expect(sandbox).toHaveAttribute('data-board', /\/X\.X\.\.\.\.\.\.\.$/);
  await expect(sandbox).toHaveAttribute('data-active', /^T:0:/);
});

test('a fumen plays page by page: its piece waits for the player, the next pages make the queue, the address keeps the page', async ({ page }) => {
  test.setTimeout(60_000);
  // The TSD opener of tetris-fumen's README: 7 pages placing I Z L S O J T.
  const fumen = COMMUNITY_FUMENS['TSD opener (tetris-fumen README)']!;
  const link = `/practice?fumen=${encodeURIComponent(fumen)}`;
  const field = (...rows: string[]) => [...Array.from({ length: 20 - rows.length }, () => '..........'), ...rows].join('/');
  const sandbox = page.getByTestId('sandbox');
  const label = page.getByTestId('page-label');

  await page.goto(`${link}&page=3`);
  await expect(sandbox).toHaveAttribute('data-ready', 'true');
  await expect(label).toHaveText('Page 3 of 7');
  await expect(sandbox).toHaveAttribute('data-board', field('...ZZ.....', '....ZZ....', '...IIII...'));
  // The page's L enters at the top; S O J T (pages 4 to 7) come next, then the note says a bag follows.
  await expect(sandbox).toHaveAttribute('data-active', /^L:0:4:/);
  await expect(sandbox).toHaveAttribute('data-next', /^SOJT/);
  await expect(page.getByTestId('fumen-queue')).toHaveText('Next: 4 more pieces from the fumen, then random 7-bag pieces.');

  // Left alone, nothing falls or locks: the sandbox's clock waits for the first key.
  await page.waitForTimeout(2_500);
  await expect(sandbox).toHaveAttribute('data-pieces', '0');
  await expect(sandbox).toHaveAttribute('data-active', /^L:0:4:/);
  await page.keyboard.press('Space');
  await expect(sandbox).toHaveAttribute('data-pieces', '1');
  await expect(sandbox).toHaveAttribute('data-active', /^S:0:4:/);
  await expect(page.getByTestId('fumen-queue')).toHaveText('Next: 3 more pieces from the fumen, then random 7-bag pieces.');

  // Stepping loads that page's field and piece, and the address follows.
  await page.getByTestId('page-next').click();
  await expect(label).toHaveText('Page 4 of 7');
  await expect(page).toHaveURL(/&page=4$/);
  await expect(sandbox).toHaveAttribute('data-board', field('L..ZZ.....', 'L...ZZ....', 'LL.IIII...'));
  await expect(sandbox).toHaveAttribute('data-active', /^S:0:4:/);
  await expect(sandbox).toHaveAttribute('data-next', /^OJT/);
  await page.getByTestId('page-prev').click();
  await page.getByTestId('page-prev').click();
  await expect(label).toHaveText('Page 2 of 7');
  await expect(page).toHaveURL(/&page=2$/);
  await expect(sandbox).toHaveAttribute('data-board', field('...IIII...'));
  await page.keyboard.press('PageDown');
  await expect(label).toHaveText('Page 3 of 7');
  await expect(page).toHaveURL(/&page=3$/);

  // A page the fumen does not have is named, and its first page opens instead.
  await page.goto(`${link}&page=9`);
  await expect(page.getByTestId('sandbox-error')).toHaveText('This fumen has 7 pages, so there is no page 9: here is page 1.');
  await expect(label).toHaveText('Page 1 of 7');
  await expect(page).toHaveURL(/&page=1$/);
  await expect(sandbox).toHaveAttribute('data-active', /^I:0:4:/);
});

test('race your best: the PB ghost shows ahead or behind during a Sprint', async ({ page, request }) => {
  test.setTimeout(90_000);
  // Only the signed-in player's own best is served.
  expect((await request.get('/api/bests/sprint/replay')).status()).toBe(401);
  await signUp(page, uniqueUsername('ghost'), 'ghost-password-1');
  // A ranked best: played live (an HTTP-ticket game would be held as unpaced, with no best).
  const best = await playRanked(page.request, 'sprint');
  const api = await page.request.get('/api/bests/sprint/replay');
  expect(await api.json()).toMatchObject({ gameId: best.ticket.gameId, ticks: best.played.result.ticks, lines: best.played.result.lines });
  expect((await page.request.get('/api/bests/ultra/replay')).status()).toBe(404);
  expect((await page.request.get('/api/bests/zen/replay')).status()).toBe(400);

  // The option is remembered on the device; with it on, a Sprint races the best from its first tick.
  await page.goto('/play');
  await page.evaluate(() => window.localStorage.setItem('linefall:ghost', 'on'));
  await page.goto('/play/sprint');
  const ghost = page.getByTestId('ghost');
  await expect(ghost.getByLabel('Race my best')).toBeChecked();
  await expect(page.getByTestId('game')).toHaveAttribute('data-phase', 'playing');
  // The player does nothing; the best game clears lines within seconds, so the player falls behind.
  await expect.poll(async () => Number(await ghost.getAttribute('data-ahead')), { timeout: 20_000 }).toBeLessThan(0);
  await expect(page.getByTestId('ghost-standing')).toHaveText(/^Behind by \d+ lines?$/);
});
