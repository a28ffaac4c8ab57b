import { expect, test } from '@playwright/test';
import { PALETTES } from '@/components/game/palette';
import { PAGE_PREFS_COOKIE } from '@/lib/page-prefs';
import { backgroundOf, CANVAS } from '@/tests/e2e/a11y-helpers';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { pieceColourPixels, startGame, tap } from '@/tests/e2e/play-helpers';

// The first paint is what the server's HTML and CSS give before any script runs: each check below
// loads the page with JavaScript turned off, so nothing could repaint it afterwards.

test('a theme chosen in settings persists across reloads and devices, painted right before any script', async ({ browser, page, baseURL }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signUp(page, uniqueUsername('theme'), 'dark-and-stormy-9');
  await page.goto('/settings');
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.getByTestId('settings-status')).toHaveText('Saved to your account and this device.');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.getByLabel('Theme')).toHaveValue('dark');

  // This device, no script: dark from the first paint, though the device itself prefers light.
  const cookies = (await page.context().storageState()).cookies;
  const noScript = await browser.newContext({ baseURL, javaScriptEnabled: false, colorScheme: 'light' });
  await noScript.addCookies(cookies);
  const first = await noScript.newPage();
  await first.goto('/leaderboards');
  await expect(first.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await backgroundOf(first)).toBe(CANVAS.dark);

  // Another device of the same player (the session but no theme cookie): the account's theme.
  const fresh = await browser.newContext({ baseURL, javaScriptEnabled: false, colorScheme: 'light' });
  await fresh.addCookies(cookies.filter((c) => c.name !== PAGE_PREFS_COOKIE));
  const other = await fresh.newPage();
  await other.goto('/');
  expect(await backgroundOf(other)).toBe(CANVAS.dark);
  await Promise.all([noScript.close(), fresh.close()]);
});

test('the system theme follows the device, with no script', async ({ browser, baseURL }) => {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'system');
    expect(await backgroundOf(page)).toBe(CANVAS[scheme]);
    await context.close();
  }
});

test('"reduce motion" turns off animated transitions from the first paint', async ({ browser, page, baseURL }) => {
  await page.goto('/settings');
  const navLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Play', exact: true });
  await expect.poll(() => navLink.evaluate((el) => getComputedStyle(el).transitionDuration)).not.toBe('0s');
  await page.getByLabel('Reduce motion (no flashing)').check();
  await expect(page.locator('html')).toHaveAttribute('data-motion', 'reduce');
  await expect.poll(() => navLink.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');

  const noScript = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await noScript.addCookies((await page.context().storageState()).cookies);
  const first = await noScript.newPage();
  await first.goto('/');
  await expect(first.locator('html')).toHaveAttribute('data-motion', 'reduce');
  const link = first.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Play', exact: true });
  expect(await link.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');
  await noScript.close();

  // A device that asks for reduced motion gets it without the setting.
  const reduced = await browser.newContext({ baseURL, javaScriptEnabled: false, reducedMotion: 'reduce' });
  const device = await reduced.newPage();
  await device.goto('/');
  await expect(device.locator('html')).toHaveAttribute('data-motion', 'full');
  const deviceLink = device.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Play', exact: true });
  expect(await deviceLink.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');
  await reduced.close();
});

test('the high-contrast piece palette draws its own colours, each block marked with its pattern', async ({ page }) => {
  await page.goto('/settings');
  await page.getByLabel('Colours').selectOption('highContrast');
  await expect(page.getByTestId('settings-status')).toHaveText('Saved on this device.');
  const game = await startGame(page, 'marathon');
  await tap(page, game, 'Space', 'pieces');
  const counts = await page.getByTestId('field').evaluate((canvas: HTMLCanvasElement, palette) => {
    const rgb = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
    const colours = Object.values(palette).map(rgb);
    // A pattern is the mark's dark ink (rgba(2, 6, 23, 0.7)) over a block colour.
    const marks = colours.map((c) => c.map((v, i) => Math.round(0.3 * v + 0.7 * [2, 6, 23][i]!)));
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 2);
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let colour = 0;
    let mark = 0;
    for (let i = 0; i < data.length; i += 4) {
      const px = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (colours.some((c) => near(px, c))) colour++;
      else if (marks.some((m) => near(px, m))) mark++;
    }
    return { colour, mark };
  }, PALETTES.highContrast);
  expect(counts.colour).toBeGreaterThan(0);
  expect(counts.mark).toBeGreaterThan(0);
  expect(await pieceColourPixels(page)).toBe(0);
});
