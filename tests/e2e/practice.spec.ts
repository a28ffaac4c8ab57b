import { expect, test, type Page } from '@playwright/test';
import { hardDropGame } from '../support/replays';
import { playVerified } from '../api/client';
import { signUp, uniqueUsername } from './fixtures';
import { engineAt } from './replay-helpers';

const board = (page: Page) => page.getByTestId('sandbox').getAttribute('data-board');

async function placed(page: Page, n: number) {
  await expect(page.getByTestId('sandbox')).toHaveAttribute('data-pieces', String(n));
  return (await board(page))!;
}

test('play on from a replay moment, undo, export the fumen and open it again', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueUsername('practice'), 'practice-password-1');
  const { ticket, played } = await playVerified(page.request, 'marathon', hardDropGame);

  // Seek in the viewer: open at 0.1 s, one tick forward, then play from that exact moment.
  await page.goto(`/replays/${ticket.gameId}?t=0.1`);
  const viewer = page.getByTestId('replay-viewer');
  await expect(viewer).toHaveAttribute('data-tick', '6');
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
});
