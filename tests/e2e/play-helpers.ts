import { expect, type Locator, type Page } from '@playwright/test';
import type { PiecePlan } from '@/tests/support/bot';

/** Opens a play page and waits for the countdown to end. */
export async function startGame(page: Page, mode: 'sprint' | 'marathon' | 'ultra'): Promise<Locator> {
  await page.goto(`/play/${mode}`);
  const game = page.getByTestId('game');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });
  return game;
}

const attr = async (game: Locator, name: string) => (await game.getAttribute(name)) ?? '';

let taps = 0;

/**
 * Presses one key, holds it 20–69 ms (varied as a person's are: the server holds back games whose
 * every tap lasts the same number of ticks, and 69 ms is well under the DAS that would auto-shift),
 * releases it and waits until the game has drawn its effect (the active piece or the piece count
 * changed), so every tap lands on its own tick and the input rate stays human.
 */
export async function tap(page: Page, game: Locator, key: string, changes: 'active' | 'pieces' = 'active'): Promise<void> {
  const name = changes === 'pieces' ? 'data-pieces' : 'data-active';
  const before = await attr(game, name);
  const phaseBefore = await attr(game, 'data-phase');
  await page.keyboard.down(key);
  await page.waitForTimeout(20 + ((taps++ * 37) % 50));
  await page.keyboard.up(key);
  await expect
    .poll(async () => (await attr(game, name)) !== before || (await attr(game, 'data-phase')) !== phaseBefore, { timeout: 5_000, intervals: [5, 10, 20] })
    .toBe(true);
  await page.waitForTimeout(30);
}

const TURN_KEY = { rotateCW: 'KeyX', rotateCCW: 'KeyZ', rotate180: 'KeyA' } as const;
const DIR_KEY = { left: 'ArrowLeft', right: 'ArrowRight' } as const;

/** Types the bot's plan with the Guideline keys: hold, rotate, shift (taps or held to the wall), hard drop. */
export async function typePlan(page: Page, game: Locator, plan: readonly PiecePlan[]): Promise<void> {
  for (const [i, p] of plan.entries()) {
    if ((await attr(game, 'data-phase')) !== 'playing') throw new Error(`game left play before piece ${i}`);
    if (p.hold) await tap(page, game, 'KeyC');
    if (p.rotate) await tap(page, game, TURN_KEY[p.rotate]);
    if (p.shift && 'taps' in p.shift) {
      for (let t = 0; t < p.shift.taps; t++) await tap(page, game, DIR_KEY[p.shift.dir]);
    } else if (p.shift) {
      // Held: DAS then auto-repeat carry the piece to the wall.
      await page.keyboard.down(DIR_KEY[p.shift.dir]);
      await expect.poll(async () => Number((await attr(game, 'data-active')).split(':')[2]), { timeout: 5_000, intervals: [5, 10] }).toBe(p.expect.x);
      await page.keyboard.up(DIR_KEY[p.shift.dir]);
      await page.waitForTimeout(30);
    }
    const active = (await attr(game, 'data-active')).split(':');
    expect(`${active[0]}:${active[1]}:${active[2]}`, `piece ${i} before its hard drop`).toBe(`${p.expect.type}:${p.expect.rotation}:${p.expect.x}`);
    await tap(page, game, 'Space', 'pieces');
  }
}

/** Counts canvas pixels painted in one of the standard piece colours, optionally in a part of the canvas (fractions). */
export async function pieceColourPixels(page: Page, area = { x0: 0, x1: 1, y0: 0, y1: 1 }): Promise<number> {
  return page.getByTestId('field').evaluate((canvas: HTMLCanvasElement, a) => {
    const colours = ['#22d3ee', '#facc15', '#a855f7', '#22c55e', '#ef4444', '#3b82f6', '#f97316'].map((h) => parseInt(h.slice(1), 16));
    const ctx = canvas.getContext('2d');
    if (!ctx) return -1;
    const x = Math.floor(a.x0 * canvas.width);
    const y = Math.floor(a.y0 * canvas.height);
    const { data } = ctx.getImageData(x, y, Math.ceil((a.x1 - a.x0) * canvas.width), Math.ceil((a.y1 - a.y0) * canvas.height));
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      const rgb = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
      if (colours.includes(rgb)) n++;
    }
    return n;
  }, area);
}
