import { expect, test, type Locator, type Page } from '@playwright/test';
import { decodeReplay, type Key } from '@/lib/engine';
import { signUp, uniqueUsername } from '@/tests/e2e/fixtures';
import { frames } from '@/tests/e2e/play-helpers';
import { button, Fingers, PIXEL_7 } from '@/tests/e2e/touch-helpers';

/**
 * Phones: the whole site at phone sizes, a Marathon played by touch alone on Chromium's Pixel 7
 * profile, and the installed site's offline practice. Versus on a phone: versus-phone.spec.ts.
 */

const activeX = async (game: Locator) => Number(((await game.getAttribute('data-active')) ?? '').split(':')[2]);

/**
 * The page's width against the window's. A phone browser zooms out to show a page that is too
 * wide, which widens innerWidth with it: the screen's own width is the bar as well.
 */
async function expectFits(page: Page, width: number, what: string): Promise<void> {
  const { scroll, inner, boards } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
    // A board scrolls inside its own box, so the page fits while its last columns hide past the edge.
    boards: [...document.querySelectorAll('[data-testid=leaderboard]')].map((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth),
  }));
  expect(scroll, what).toBeLessThanOrEqual(Math.min(inner, width));
  for (const over of boards) expect(over, `a board's columns past its box on ${what}`).toBeLessThanOrEqual(0);
}

/** What of the field and the pad lies partly off a screen of this size, and which buttons cover the field (empty: none). */
async function onScreen(page: Page, size: { width: number; height: number }): Promise<string[]> {
  const problems: string[] = [];
  const field = (await page.getByTestId('field').boundingBox())!;
  const things: Array<[string, Locator]> = [['field', page.getByTestId('field')]];
  for (const b of await page.getByTestId('touch-pad').getByRole('button').all()) things.push([(await b.getAttribute('aria-label')) ?? '?', b]);
  for (const [name, thing] of things) {
    const r = (await thing.boundingBox())!;
    if (r.x < 0 || r.y < 0 || r.x + r.width > size.width || r.y + r.height > size.height) problems.push(`${name} off the screen`);
    const covers = r.x < field.x + field.width && field.x < r.x + r.width && r.y < field.y + field.height && field.y < r.y + r.height;
    if (name !== 'field' && covers) problems.push(`${name} covers the field`);
  }
  return problems;
}

test.describe('on a phone', () => {
  test.use({ ...PIXEL_7 });

  test('a Marathon played by touch alone reaches the board, DAS works under a second finger, and every page fits the screen', async ({ page }) => {
    test.setTimeout(180_000);
    const username = uniqueUsername('phone');
    // Signing up is not what this test is about: done at a desktop width, then back to the phone.
    await page.setViewportSize({ width: 1024, height: 800 });
    await signUp(page, username, 'phone-password-1');
    await page.setViewportSize(PIXEL_7.viewport);

    // Latency, for the report: each pointerdown's time against when animation frames (the game
    // loop's) run, i.e. how soon the engine runs the touched tick.
    await page.addInitScript(() => {
      const w = window as unknown as { __frames: number[]; __downs: number[] };
      w.__frames = [];
      w.__downs = [];
      addEventListener('pointerdown', (e) => void w.__downs.push(e.timeStamp), true);
      const raf = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (fn) => raf((ts) => {
        w.__frames.push(performance.now());
        fn(ts);
      });
    });

    // A left-handed split layout, picked in Settings on the phone.
    await page.goto('/settings');
    await page.getByRole('group', { name: 'Touch layouts' }).getByRole('button', { name: 'Split' }).tap();
    await page.getByLabel('Left-handed (mirror the layout)').check();
    await expect(page.getByTestId('settings-status')).toContainText('Saved to your account');

    await page.goto('/play/marathon');
    const game = page.getByTestId('game');
    await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });
    const pad = page.getByTestId('touch-pad');
    await expect(pad).toBeVisible();
    const cdp = await page.context().newCDPSession(page);
    const fingers = new Fingers(cdp);

    // The pad leaves the field alone, every button is a fingertip or more, and nothing runs off the
    // screen: the field and every button lie inside the viewport (a button below it cannot be touched).
    await expect.poll(() => onScreen(page, PIXEL_7.viewport)).toEqual([]);
    for (const b of await pad.getByRole('button').all()) expect((await b.boundingBox())!.width).toBeGreaterThanOrEqual(48);
    await expectFits(page, PIXEL_7.viewport.width, 'the play page');
    const left = (await button(page, 'left').boundingBox())!;
    expect(left.x, 'mirrored: "left" under the right thumb').toBeGreaterThan(PIXEL_7.viewport.width / 2);

    // One tap of each button.
    for (const action of ['right', 'left', 'rowDown', 'rotateCW', 'rotateCCW', 'rotate180']) {
      const before = await game.getAttribute('data-active');
      await fingers.tap(page, button(page, action));
      await expect.poll(() => game.getAttribute('data-active')).not.toBe(before);
    }
    const piecesBefore = Number(await game.getAttribute('data-pieces'));
    await fingers.tap(page, button(page, 'hold'));
    await fingers.tap(page, button(page, 'softDrop'));
    await fingers.tap(page, button(page, 'hardDrop'));
    await expect.poll(async () => Number(await game.getAttribute('data-pieces'))).toBeGreaterThan(piecesBefore);

    // A finger held on "left" slides the piece to the wall (DAS) while a second finger taps rotate.
    const startX = await activeX(game);
    await fingers.press(1, button(page, 'left'));
    await frames(page, 3);
    await fingers.press(2, button(page, 'rotateCW'));
    await page.waitForTimeout(45);
    await fingers.lift(2);
    await expect.poll(() => activeX(game), { timeout: 5_000 }).toBeLessThanOrEqual(Math.min(startX - 2, 1));
    await fingers.lift(1);
    await frames(page, 2);

    // Turned on its side mid-game, on a smaller phone's screen, and back: the game plays on, the
    // field and every button on screen.
    const screens = [
      { name: 'pixel7-839x412', size: { width: PIXEL_7.viewport.height, height: PIXEL_7.viewport.width } },
      { name: '360x740', size: { width: 360, height: 740 } },
      { name: 'pixel7-412x839', size: PIXEL_7.viewport },
    ];
    for (const { name, size } of screens) {
      await page.setViewportSize(size);
      await expect.poll(() => onScreen(page, size), name).toEqual([]);
      await page.screenshot({ path: test.info().outputPath(`game-screen-${name}.png`) });
      await expect(game).toHaveAttribute('data-phase', 'playing');
    }

    // Pause and resume by touch.
    await fingers.tap(page, button(page, 'pause'));
    await expect(game).toHaveAttribute('data-phase', 'paused');
    // The paused panel's buttons, each inside it on a 360 px screen (Settings once ran past its edge, cut off by the field's box).
    await page.setViewportSize({ width: 360, height: 740 });
    const panel = (await page.getByTestId('paused').boundingBox())!;
    for (const name of ['Resume (P)', 'Restart (R)', 'Settings']) {
      const r = (await page.getByTestId('paused').getByRole('button', { name, exact: true }).boundingBox())!;
      expect([r.x >= panel.x, r.x + r.width <= panel.x + panel.width], `${name} inside the paused panel at 360 px`).toEqual([true, true]);
    }
    await page.setViewportSize(PIXEL_7.viewport);
    await page.getByRole('button', { name: 'Resume (P)' }).tap();
    await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 10_000 });

    // Hard drops until the stack tops out.
    for (let i = 0; i < 80 && (await game.getAttribute('data-phase')) === 'playing'; i++) {
      const pieces = await game.getAttribute('data-pieces');
      await fingers.tap(page, button(page, 'hardDrop'));
      await expect.poll(async () => (await game.getAttribute('data-pieces')) !== pieces || (await game.getAttribute('data-phase')) !== 'playing').toBe(true);
    }
    await expect(game).toHaveAttribute('data-phase', 'ended');
    await expect(page.getByTestId('submit-status')).toHaveAttribute('data-status', 'verified', { timeout: 15_000 });
    await expect(page.getByTestId('ranks')).toBeVisible();
    const gameId = (await game.getAttribute('data-game-id'))!;
    const { frameStarts, downs } = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __downs: number[] };
      return { frameStarts: w.__frames, downs: w.__downs };
    });

    // The stored replay has both fingers' keys down at once: rotate pressed while left was held past DAS.
    const stored = await (await page.request.get(`/api/replays/${gameId}`)).json();
    const replay = decodeReplay(stored.replay);
    const held = new Map<Key, number>();
    let chord = false;
    for (const e of replay.events) {
      if (e.key === 'rotateCW' && e.down && held.has('left') && e.tick - held.get('left')! >= 1) chord = true;
      if (e.down) held.set(e.key, e.tick);
      else {
        if (e.key === 'left' && chord && e.tick - held.get('left')! < replay.handling.das) chord = false;
        held.delete(e.key);
      }
    }
    expect(chord, 'rotate pressed while left was held long enough to auto-shift').toBe(true);

    // On the board, as the player sees it on the phone.
    await page.goto('/leaderboards?mode=marathon');
    await expect(page.getByRole('main').getByText(username).first()).toBeVisible();

    // A press is stamped with its event's time, so its edge lands on the tick in progress when the
    // finger touched; the wait is until the next frame runs that tick.
    const waits = downs.map((t) => (frameStarts.find((f) => f >= t) ?? Number.NaN) - t).filter((d) => Number.isFinite(d) && d < 1000);
    const sorted = waits.sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
    console.log(`[touch-latency] pointerdown → frame running its tick: n=${sorted.length} p50=${p(0.5)}ms p99=${p(0.99)}ms max=${sorted.at(-1)!.toFixed(1)}ms (1 tick = 16.7 ms)`);

    // Every page at the two common phone sizes: no sideways scrolling.
    const pages = [
      '/', '/play', '/play/sprint', '/leaderboards', '/leaderboards?mode=marathon&period=week', '/leaderboards/versus', '/replays', `/replays/${gameId}`, '/replays/open',
      '/practice', '/settings', '/profile', `/u/${username}`, '/live', '/versus', '/account', '/account/email', '/moderation',
      '/signin', '/signup', '/forgot-password', '/no-such-page',
    ];
    for (const size of [{ width: 360, height: 640 }, { width: 412, height: 915 }, { width: 839, height: 412 }]) {
      await page.setViewportSize(size);
      for (const path of pages) {
        await page.goto(path);
        await page.waitForLoadState('load');
        await expectFits(page, size.width, `${path} at ${size.width}×${size.height}`);
        // A slider a thumb can work (12 rem at least): it once shared its row with seven buttons and was 4 px wide.
        if (path === `/replays/${gameId}`) expect((await page.getByTestId('seek-bar').boundingBox())!.width).toBeGreaterThanOrEqual(180);
      }
    }
    // The header's menu opens and leads somewhere.
    await page.getByTestId('nav-menu').locator('summary').tap();
    await page.getByTestId('nav-menu').getByRole('link', { name: 'Practice' }).tap();
    await expect(page).toHaveURL(/\/practice$/);
    // …and gets out of the way of the page it led to.
    await expect(page.getByTestId('nav-menu')).not.toHaveAttribute('open');
    await expect(page.getByTestId('nav-menu').getByRole('link', { name: 'Practice' })).toBeHidden();
  });
});

test.describe('the touch layout editor on a small phone', () => {
  test.use({ ...PIXEL_7, viewport: { width: 360, height: 740 }, screen: { width: 360, height: 740 } });

  test('says which buttons of a layout would overlap or cover the field on this screen', async ({ page }) => {
    await page.goto('/settings');
    const problems = page.getByTestId('touch-problems');
    const layouts = page.getByRole('group', { name: 'Touch layouts' });
    await layouts.getByRole('button', { name: 'Split' }).tap();
    // Squeezed to the screen's sides on its side, the split pad's neighbours touch at 740 × 360.
    await expect(problems).toContainText('“Move left” and “Move right” overlap on this screen on its side.');
    await layouts.getByRole('button', { name: 'Classic pad' }).tap();
    await expect(problems).toHaveText('');
    // The preview is as wide as the screen the pad will be on.
    expect((await page.getByTestId('touch-editor').boundingBox())!.width).toBeLessThanOrEqual(360);
  });
});

test.describe('practice on a phone', () => {
  test.use({ ...PIXEL_7 });

  test('opened on its side, the practice page scrolls to the field: all of it and every button on screen', async ({ page }) => {
    const side = { width: PIXEL_7.viewport.height, height: PIXEL_7.viewport.width };
    await page.setViewportSize(side);
    await page.goto('/practice');
    await expect(page.getByTestId('sandbox')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
    await expect(button(page, 'hardDrop')).toBeVisible();
    await expect.poll(() => onScreen(page, side)).toEqual([]);
  });

  test('the practice sandbox is played with the same pad: drops, a move, undo', async ({ page }) => {
    await page.goto('/practice');
    const sandbox = page.getByTestId('sandbox');
    await expect(sandbox).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
    await expect(button(page, 'hardDrop')).toBeVisible();
    // Right under the field, within the screen, as on the play page: no scrolling to play.
    const drop = (await button(page, 'hardDrop').boundingBox())!;
    expect(drop.y + drop.height).toBeLessThanOrEqual(PIXEL_7.viewport.height);
    // On a smaller phone and on its side too, the field and every button on screen, none on the field.
    for (const size of [{ width: 360, height: 740 }, { width: PIXEL_7.viewport.height, height: PIXEL_7.viewport.width }, PIXEL_7.viewport]) {
      await page.setViewportSize(size);
      await expect.poll(() => onScreen(page, size), `practice at ${size.width}×${size.height}`).toEqual([]);
    }
    const fingers = new Fingers(await page.context().newCDPSession(page));
    const placed = sandbox.getByText(/\d+ pieces? placed/);
    await expect(placed).toHaveText(/^0 pieces placed/);
    await fingers.tap(page, button(page, 'left'));
    await fingers.tap(page, button(page, 'hardDrop'));
    await expect(placed).toHaveText(/^1 piece placed/);
    await fingers.tap(page, button(page, 'hardDrop'));
    await expect(placed).toHaveText(/^2 pieces placed/);
    await page.getByTestId('undo').tap();
    await expect(placed).toHaveText(/^1 piece placed/);
  });
});

test.describe('installed', () => {
  test.use({ serviceWorkers: 'allow' });

  test('the manifest, icons and service worker are served, and practice loads with the network off', async ({ page, context, request }) => {
    const manifest = await (await request.get('/manifest.webmanifest')).json();
    expect(manifest).toMatchObject({ name: 'Linefall', display: 'standalone', start_url: '/' });
    const icon = await request.get(manifest.icons.find((i: { sizes: string }) => i.sizes === '512x512').src);
    expect(icon.headers()['content-type']).toBe('image/png');
    const sw = await request.get('/sw.js');
    expect(sw.headers()['content-type']).toContain('javascript');
    expect(await sw.text()).toContain('/_next/static/');

    await page.goto('/practice');
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', /manifest/);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await context.setOffline(true);
    await page.reload();
    const sandbox = page.getByTestId('sandbox');
    await expect(sandbox).toHaveAttribute('data-ready', 'true');
    const pieces = Number(await sandbox.getAttribute('data-pieces'));
    await page.keyboard.press('Space');
    await expect(sandbox).toHaveAttribute('data-pieces', String(pieces + 1));

    // A page never visited has no copy: it says ranked play needs a connection and points to practice.
    await page.goto('/leaderboards');
    await expect(page.getByText('Ranked games need one too')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Practice works offline' })).toBeVisible();
    await context.setOffline(false);
  });
});
