import { expect, test, type Page } from '@playwright/test';
import { finesseOfReplay } from '@/lib/engine';
import { playRanked } from '@/tests/api/client';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { frames } from '@/tests/e2e/play-helpers';
import { PIXEL_7 } from '@/tests/e2e/touch-helpers';

/** Three taps to the left wall, where holding left is one press: a fault for every piece. */
async function tapThreeLeft(page: Page): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await page.keyboard.down('ArrowLeft');
    await frames(page, 2);
    await page.keyboard.up('ArrowLeft');
    await frames(page, 2);
  }
}

test('the finesse trainer takes a faulty piece back and says why; a clean one stays', async ({ page }) => {
  await page.goto('/practice');
  const sandbox = page.getByTestId('sandbox');
  await expect(sandbox).toHaveAttribute('data-ready', 'true');
  const spawn = await sandbox.getAttribute('data-active');
  await page.getByLabel(/Finesse trainer/).check();

  await tapThreeLeft(page);
  await page.keyboard.press('Space');
  await expect(page.getByTestId('finesse-fault')).toContainText(/3 inputs, [12] needed: hold left/);
  await expect(sandbox).toHaveAttribute('data-pieces', '0');
  await expect(sandbox).toHaveAttribute('data-active', spawn!);

  // Held past DAS the piece goes to the wall in one press: placed, and the message goes.
  await page.keyboard.down('ArrowLeft');
  await frames(page, 30);
  await page.keyboard.up('ArrowLeft');
  await page.keyboard.press('Space');
  await expect(sandbox).toHaveAttribute('data-pieces', '1');
  await expect(page.getByTestId('finesse-fault')).toHaveCount(0);
  await expect(page.getByTestId('finesse-count')).toContainText('Finesse faults: 0');

  // Off, the same taps are placed and counted.
  await page.getByLabel(/Finesse trainer/).uncheck();
  await tapThreeLeft(page);
  await page.keyboard.press('Space');
  await expect(sandbox).toHaveAttribute('data-pieces', '2');
  await expect(page.getByTestId('finesse-count')).toContainText(/Finesse faults: [12]/);
});

test('the play page counts finesse faults live and the result panel sums them', async ({ page }) => {
  await page.goto('/play/sprint?practice');
  const game = page.getByTestId('game');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });
  await expect(page.getByTestId('finesse-faults')).toHaveText('Faults 0');
  await tapThreeLeft(page);
  await page.keyboard.press('Space');
  await expect(game).toHaveAttribute('data-pieces', '1');
  const faults = Number(await game.getAttribute('data-faults'));
  expect([1, 2]).toContain(faults);
  await expect(page.getByTestId('finesse-faults')).toHaveText(`Faults ${faults}`);
  // Top out by hard drops alone (nothing moves, so nothing more to fault) to reach the result panel.
  while ((await game.getAttribute('data-phase')) === 'playing') {
    await page.keyboard.press('Space');
    await frames(page, 2);
  }
  await expect(page.getByTestId('result-finesse')).toContainText(`${faults} finesse fault`);
});

// On a phone the picture is smaller than its box (the live badge above takes height): the count at
// the box's bottom corner covered the stats' PPS. It sits just above the stats, whose rows take the
// lower half of the picture, under the hold.
test('on a phone the live fault count sits above the stats, clear of them', async ({ browser }) => {
  const context = await browser.newContext({ ...PIXEL_7, viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto('/play/marathon');
  await expect(page.getByTestId('game')).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });
  const field = page.getByTestId('field');
  const faults = page.getByTestId('finesse-faults');
  await expect.poll(async () => {
    const [f, b] = [(await field.boundingBox())!, (await faults.boundingBox())!];
    return b.y >= f.y + f.height / 4 && b.y + b.height <= f.y + f.height / 2 && b.x + b.width <= f.x + f.width / 3;
  }, 'the count between the hold and the stats').toBe(true);
  await context.close();
});

test('a ranked Sprint shows its server-counted faults on the board, and the replay viewer marks them', async ({ page }) => {
  test.setTimeout(120_000);
  const name = uniqueUsername('finesse');
  await signUp(page, name, 'finesse-password-1');
  const { ticket, played } = await playRanked(page.request, 'sprint');
  const tally = finesseOfReplay(played.replay);
  expect(tally.faults).toBeGreaterThan(0);

  await page.goto('/leaderboards?mode=sprint');
  await expect(page.getByRole('columnheader', { name: 'Faults' })).toBeVisible();
  await expect(page.getByTestId('my-row')).toContainText(name);
  await expect(page.getByTestId('my-row').getByRole('cell', { name: String(tally.faults), exact: true })).toBeVisible();

  await page.goto(`/replays/${ticket.gameId}`);
  await expect(page.getByTestId('replay-faults')).toHaveAttribute('data-faults', String(tally.faults));
  await expect(page.getByTestId('fault-markers')).toHaveAttribute('data-count', String(tally.pieces.filter((p) => p.faults > 0).length));
});
