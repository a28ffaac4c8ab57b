import { devices, expect, test, type Locator, type Page } from '@playwright/test';
import { uniqueAddress } from '@/tests/e2e/fixtures';
import { setThemeCookie, violations } from '@/tests/e2e/a11y-helpers';
import { button, Fingers, PIXEL_7 } from '@/tests/e2e/touch-helpers';
import { createRoom } from '@/tests/e2e/versus-helpers';

/**
 * Versus on a phone (issue 39): a guest on a Pixel 7 meets a guest at a desk in a private room and
 * plays the match to its result by taps alone. Upright, on its side and at 360×740 the whole play
 * view is on screen: both fields, every button of the pad, none of them over this player's field,
 * and the page does not move under the fingers. The lobby has no pad; both players see live
 * APM / PPS / VS for both fields; at a desk the garbage meter stands against the matrix.
 */

type Size = { width: number; height: number };
const UPRIGHT = PIXEL_7.viewport;
const SIDEWAYS = { width: UPRIGHT.height, height: UPRIGHT.width };
const SMALL = { width: 360, height: 740 };
const DESK = { width: 1280, height: 720 };

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (r: Box, size: Size) => r.x >= 0 && r.y >= 0 && r.x + r.width <= size.width && r.y + r.height <= size.height;

/** What of the play view lies off a screen of this size, and which buttons cover this player's field (empty: none). */
async function playViewProblems(page: Page, size: Size): Promise<string[]> {
  const problems: string[] = [];
  const own = await page.getByTestId('field').boundingBox();
  const them = await page.getByTestId('opponent-field').boundingBox();
  if (!own || !them) return ['a field is not shown'];
  if (!inside(own, size)) problems.push(`your field off the screen (${JSON.stringify(own)})`);
  if (!inside(them, size)) problems.push(`the opponent's field off the screen (${JSON.stringify(them)})`);
  // Readable: a cell of 4 px or more on the smallest phone (the picture is 21 cells wide, 23 high).
  if (them.height < 23 * 4) problems.push(`the opponent's field is ${Math.round(them.height)} px high`);
  const buttons = await page.getByTestId('touch-pad').getByRole('button').all();
  if (buttons.length === 0) problems.push('no touch pad');
  for (const b of buttons) {
    const name = (await b.getAttribute('aria-label')) ?? '?';
    const r = (await b.boundingBox())!;
    if (!inside(r, size)) problems.push(`${name} off the screen`);
    if (overlaps(r, own)) problems.push(`${name} covers your field`);
    if (overlaps(r, them)) problems.push(`${name} covers the opponent's field`);
  }
  return problems;
}

async function guest(page: Page): Promise<void> {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueAddress() });
}

const stat = async (stats: Locator, name: 'apm' | 'pps' | 'vs') => Number(await stats.getAttribute(`data-${name}`));

test.describe('versus on a phone', () => {
  test.use({ ...PIXEL_7 });

  test('a match played by taps alone on a phone, upright and on its side, against a player at a desk', async ({ page: ben, browser, baseURL }) => {
    test.setTimeout(180_000);
    await guest(ben);
    // A context made here takes the describe block's phone options unless told otherwise.
    const { userAgent, deviceScaleFactor, isMobile, hasTouch } = devices['Desktop Chrome'];
    const desk = await browser.newContext({ viewport: DESK, userAgent, deviceScaleFactor, isMobile, hasTouch });
    // The desk in the dark theme, the phone in the light one: the match screen is checked in both.
    await setThemeCookie(desk, baseURL!, 'dark');
    const ann = await desk.newPage();
    await ann.emulateMedia({ colorScheme: 'dark' });
    await guest(ann);

    const link = await createRoom(ann);

    // The phone's lobby: a room and its buttons, and no pad (there is no game to play).
    await ben.goto(link);
    await expect(ben.getByTestId('room-seats')).toContainText('(you)');
    await expect(ben.getByRole('button', { name: 'Ready', exact: true })).toBeVisible();
    // The pad, where it is drawn, loads a moment after the page's game code: time for it to show.
    await ben.waitForTimeout(1_500);
    await expect(ben.getByTestId('touch-pad')).toHaveCount(0);

    await ann.getByRole('button', { name: 'Ready', exact: true }).click();
    await ben.getByRole('button', { name: 'Ready', exact: true }).tap();
    const [a, b] = [ann.getByTestId('versus'), ben.getByTestId('versus')];
    await expect(b).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
    await expect(button(ben, 'hardDrop')).toBeVisible();
    const fingers = new Fingers(await ben.context().newCDPSession(ben));

    // Upright: everything on screen, and taps do not move the page.
    await expect.poll(() => playViewProblems(ben, UPRIGHT)).toEqual([]);
    await ben.screenshot({ path: test.info().outputPath('versus-pixel7-412x839.png') });
    const scrolled = await ben.evaluate(() => window.scrollY);
    for (const action of ['left', 'right', 'rotateCW', 'hardDrop', 'rotateCCW', 'hardDrop']) await fingers.tap(ben, button(ben, action));
    expect(await ben.evaluate(() => window.scrollY), 'the page did not scroll under the taps').toBe(scrolled);
    await expect.poll(() => playViewProblems(ben, UPRIGHT)).toEqual([]);

    // Turned on its side mid-match, to a smaller phone, and back: the match plays on, all on screen.
    for (const [size, file] of [[SIDEWAYS, 'versus-pixel7-839x412.png'], [SMALL, 'versus-360x740.png'], [UPRIGHT, null]] as const) {
      await ben.setViewportSize(size);
      await expect.poll(() => playViewProblems(ben, size), `${size.width}×${size.height}`).toEqual([]);
      if (file) await ben.screenshot({ path: test.info().outputPath(file) });
      await expect(b).toHaveAttribute('data-phase', 'playing');
      const at = await ben.evaluate(() => window.scrollY);
      const pieces = Number(await b.getAttribute('data-pieces'));
      await fingers.tap(ben, button(ben, 'hardDrop'));
      await expect.poll(async () => Number(await b.getAttribute('data-pieces'))).toBeGreaterThan(pieces);
      expect(await ben.evaluate(() => window.scrollY), `no scrolling at ${size.width}×${size.height}`).toBe(at);
    }

    // Live stats for both fields on both screens: the phone's own pieces per second, and the desk's
    // view of the phone's field. A field is shown to the other only as far as both were dealt
    // pieces (decision 0017): the desk places a few too, so the phone's pieces so far are shown.
    for (let i = 0; i < 4; i++) {
      const pieces = Number(await a.getAttribute('data-pieces'));
      await ann.keyboard.press('Space');
      await expect.poll(async () => Number(await a.getAttribute('data-pieces'))).toBeGreaterThan(pieces);
    }
    const benStats = ben.getByTestId('live-stats-you');
    await expect.poll(() => stat(benStats, 'pps')).toBeGreaterThan(0);
    await expect(benStats).toContainText(/APM/);
    await expect(benStats).toContainText(/VS/);
    await expect.poll(() => stat(ann.getByTestId('live-stats-them'), 'pps'), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect(ann.getByTestId('live-stats-you')).toHaveAttribute('data-pps', /^\d/);

    // At a desk: the opponent's field at a readable size beside the player's, and the meter against the matrix.
    const ownDesk = (await ann.getByTestId('field').boundingBox())!;
    const themDesk = (await ann.getByTestId('opponent-field').boundingBox())!;
    expect(inside(ownDesk, DESK), 'the desk player\'s field on screen').toBe(true);
    expect(themDesk.height / ownDesk.height, 'the opponent\'s field against the player\'s').toBeGreaterThanOrEqual(0.65);
    expect(themDesk.x, 'beside it').toBeGreaterThanOrEqual(ownDesk.x + ownDesk.width);
    const meter = (await ann.getByTestId('garbage-meter-you').boundingBox())!;
    // The matrix starts 5.5 of the picture's 21 cells in (hold and stats are left of it).
    const matrixLeft = ownDesk.x + (ownDesk.width * 5.5) / 21;
    expect(Math.abs(meter.x + meter.width - matrixLeft), 'the meter\'s distance from the matrix').toBeLessThanOrEqual(12);
    await ann.screenshot({ path: test.info().outputPath('versus-1280x720.png') });
    expect(await violations(ann, 'a versus match at a desk, dark')).toEqual([]);
    expect(await violations(ben, 'a versus match on a phone, light')).toEqual([]);

    // Hard drops by tap until the phone's stack tops out: the match's result, on both screens.
    for (let i = 0; i < 60 && (await b.getAttribute('data-phase')) === 'playing'; i++) {
      const pieces = await b.getAttribute('data-pieces');
      await fingers.tap(ben, button(ben, 'hardDrop'));
      await expect.poll(async () => (await b.getAttribute('data-pieces')) !== pieces || (await b.getAttribute('data-phase')) !== 'playing').toBe(true);
    }
    await expect(ben.getByTestId('versus-result')).toHaveAttribute('data-won', 'false', { timeout: 20_000 });
    await expect(ann.getByTestId('versus-result')).toHaveAttribute('data-won', 'true');
    await expect(a).toHaveAttribute('data-score', '1-0');
    await expect(ben.getByTestId('versus-result')).toBeInViewport();
    await desk.close();
  });
});
