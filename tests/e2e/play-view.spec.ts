import { devices, expect, test, type Locator, type Page } from '@playwright/test';
import { layoutFor, statsColumn } from '@/components/game/draw';
import { startGame, topOut } from '@/tests/e2e/play-helpers';

/**
 * The solo play page as a play view: the site's chrome gets out of the way while a game runs and
 * comes back after it, the field takes the space left, a one-tap full screen, the screen kept
 * awake while playing, no countdown on a restart, and a result that leaves the stats readable.
 */
const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = devices['Pixel 7'];
const PIXEL_7 = { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch };

const header = (page: Page) => page.locator('body > header');
const fieldBox = (page: Page) => page.getByTestId('field').locator('..');
const height = async (l: Locator) => (await l.boundingBox())!.height;

/** Whether the field and every button of the touch pad (if any) lie inside the screen. */
async function allOnScreen(page: Page, size: { width: number; height: number }): Promise<string[]> {
  const off: string[] = [];
  const things: Array<[string, Locator]> = [['field', page.getByTestId('field')]];
  for (const b of await page.getByTestId('touch-pad').getByRole('button').all()) things.push([(await b.getAttribute('aria-label')) ?? '?', b]);
  for (const [name, thing] of things) {
    const r = (await thing.boundingBox())!;
    if (r.x < 0 || r.y < 0 || r.x + r.width > size.width || r.y + r.height > size.height) off.push(name);
  }
  return off;
}

test('at a desk the header gives way while a game runs, the field grows into its room, and both come back after', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/play');
  await expect(header(page)).toBeVisible();
  const game = await startGame(page, 'marathon');
  await expect(header(page)).toBeHidden();
  await expect.poll(() => allOnScreen(page, { width: 1280, height: 720 })).toEqual([]);
  const playing = await height(fieldBox(page));
  await topOut(page, game);
  await expect(header(page)).toBeVisible();
  await expect.poll(() => height(fieldBox(page)), 'the field made room for the header again').toBeLessThan(playing);
});

test.describe('on a phone', () => {
  test.use({ ...PIXEL_7 });

  test('the header gives way while a game runs and comes back after; the field and the pad stay on screen', async ({ page }) => {
    const game = await startGame(page, 'marathon');
    await expect(page.getByTestId('touch-pad')).toBeVisible();
    await expect(header(page)).toBeHidden();
    await expect.poll(() => allOnScreen(page, PIXEL_7.viewport)).toEqual([]);
    await page.keyboard.press('KeyP');
    await expect(game).toHaveAttribute('data-phase', 'paused');
    await page.getByRole('button', { name: 'Restart (R)' }).tap();
    await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });
    await topOut(page, game);
    await expect(header(page)).toBeVisible();
  });
});

test('a one-tap full screen button puts the page in full screen and takes it out again', async ({ page }) => {
  await startGame(page, 'marathon');
  const button = page.getByRole('button', { name: 'Full screen' });
  await button.click();
  await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
  await page.getByRole('button', { name: 'Leave full screen' }).click();
  await expect.poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);
});

test('the screen is kept awake while a game is played, and let go on pause and at the end', async ({ page }) => {
  // navigator.wakeLock is the browser's: recorded, not exercised (headless has no screen to keep on).
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { __wake: string[] }).__wake = calls;
    Object.defineProperty(navigator, 'wakeLock', {
      configurable: true,
      value: {
        async request(type: string) {
          calls.push(`request:${type}`);
          let released = false;
          return {
            get released() { return released; },
            type,
            async release() {
              if (!released) calls.push('release');
              released = true;
            },
            addEventListener() {},
            removeEventListener() {},
          };
        },
      },
    });
  });
  const calls = () => page.evaluate(() => (window as unknown as { __wake: string[] }).__wake.join(','));
  const game = await startGame(page, 'marathon');
  await expect.poll(calls).toBe('request:screen');
  await page.keyboard.press('KeyP');
  await expect(game).toHaveAttribute('data-phase', 'paused');
  await expect.poll(calls).toBe('request:screen,release');
  await page.keyboard.press('KeyP');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
  await expect.poll(calls).toBe('request:screen,release,request:screen');
  await topOut(page, game);
  await expect.poll(calls).toBe('request:screen,release,request:screen,release');
});

test('the first game counts down; a restart goes straight to play', async ({ page }) => {
  await page.goto('/play/ultra');
  const game = page.getByTestId('game');
  await expect(page.getByTestId('countdown')).toBeVisible({ timeout: 20_000 });
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
  const first = await game.getAttribute('data-game-id');
  await game.evaluate((el) => {
    const w = window as unknown as { __phases: string[] };
    w.__phases = [];
    new MutationObserver(() => w.__phases.push(el.getAttribute('data-phase') ?? '')).observe(el, { attributeFilter: ['data-phase'] });
  });
  await page.keyboard.press('KeyR');
  await expect(game).not.toHaveAttribute('data-game-id', first!, { timeout: 10_000 });
  await expect(game).toHaveAttribute('data-phase', 'playing');
  expect(await page.evaluate(() => (window as unknown as { __phases: string[] }).__phases)).not.toContain('countdown');
});

test('with the countdown set for every game, a restart counts down too', async ({ page }) => {
  await page.goto('/settings');
  await page.getByRole('combobox', { name: /^Countdown/ }).selectOption('every');
  await expect(page.getByTestId('settings-status')).toHaveText('Saved on this device.');
  const game = await startGame(page, 'ultra');
  const first = await game.getAttribute('data-game-id');
  await page.keyboard.press('KeyR');
  await expect(page.getByTestId('countdown')).toBeVisible();
  await expect(game).not.toHaveAttribute('data-game-id', first!);
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });
});

test('the result panel leaves the stats column uncovered', async ({ page }) => {
  for (const size of [{ width: 1280, height: 720 }, { width: 412, height: 915 }]) {
    await page.setViewportSize(size);
    const game = await startGame(page, 'marathon');
    await topOut(page, game);
    const panel = (await page.getByTestId('result').boundingBox())!;
    const canvas = page.getByTestId('field');
    const css = (await canvas.boundingBox())!;
    // The column in the canvas's own pixels (drawn at the device's pixel ratio), then on the page.
    const backing = await canvas.evaluate((c: HTMLCanvasElement) => ({ w: c.width, h: c.height }));
    const col = statsColumn(layoutFor(backing.w, backing.h));
    const k = css.width / backing.w;
    const stats = { x: css.x + col.x * k, y: css.y + col.y * k, width: col.width * k, height: col.height * k };
    const overlaps = panel.x < stats.x + stats.width && stats.x < panel.x + panel.width && panel.y < stats.y + stats.height && stats.y < panel.y + panel.height;
    expect(overlaps, `the result panel ${JSON.stringify(panel)} and the stats column ${JSON.stringify(stats)} at ${size.width}×${size.height}`).toBe(false);
  }
});
