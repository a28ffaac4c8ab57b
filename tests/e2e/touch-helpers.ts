import { devices, type CDPSession, type Locator, type Page } from '@playwright/test';
import { frames } from '@/tests/e2e/play-helpers';

const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = devices['Pixel 7'];
// Without its browser type, which a describe block may not set (Chromium is the project's anyway).
export const PIXEL_7 = { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch };

/** Fingers on the screen through the DevTools protocol: each its own touch point, down and up when we say. */
export class Fingers {
  private readonly down = new Map<number, { x: number; y: number }>();
  private presses = 0;
  constructor(private readonly cdp: CDPSession) {}

  private points() {
    return [...this.down].map(([id, p]) => ({ id, x: p.x, y: p.y, radiusX: 8, radiusY: 8, force: 1 }));
  }

  /** A button that is gone (its game ended) fails here in the expect timeout, named, instead of waiting out the test. */
  async press(id: number, target: Locator): Promise<void> {
    const box = await target.boundingBox({ timeout: 10_000 });
    if (!box) throw new Error(`nothing on screen to touch: ${target}`);
    this.down.set(id, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    await this.cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: this.points() });
  }

  /**
   * A touchEnd names the points that leave the screen, not the ones that stay (a touchStart names
   * all that are down): naming the others lifted the finger still held on "left" instead, which
   * let this test pass only when DAS had already carried the piece to the wall.
   */
  async lift(id: number): Promise<void> {
    const lifted = this.points().filter((p) => p.id === id);
    this.down.delete(id);
    await this.cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: lifted });
  }

  /** A tap held 20–69 ms, varied as a person's are (the server holds back games whose every press is identical). */
  async tap(page: Page, target: Locator): Promise<void> {
    await this.press(9, target);
    // How long the finger stays down: an input, not a wait for anything.
    await page.waitForTimeout(20 + ((this.presses++ * 37) % 50));
    await this.lift(9);
    await frames(page, 2);
  }
}

export const button = (page: Page, action: string) => page.getByTestId('touch-pad').locator(`[data-action="${action}"]`);
