import { expect, test } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { startGame, tap } from './play-helpers';

/**
 * Frame-time benchmark (a figure for the record, not a pass/fail bar): plays a scripted Marathon
 * in headless Chromium and prints p50/p99 frame interval, frame work time and dropped frames.
 */
test('frame times while a scripted game plays', async ({ page }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => {
    (window as unknown as { __linefallBench: number[] }).__linefallBench = [];
  });
  const game = await startGame(page, 'marathon');
  const keys = ['ArrowLeft', 'ArrowRight', 'KeyX', 'KeyZ', 'ArrowLeft', 'KeyA'];
  const until = Date.now() + 10_000;
  for (let i = 0; Date.now() < until && (await game.getAttribute('data-phase')) === 'playing'; i++) {
    await page.keyboard.press(keys[i % keys.length]!);
    await page.waitForTimeout(40);
    if (i % 4 === 3) await tap(page, game, 'Space', 'pieces');
  }
  const samples = await page.evaluate(() => (window as unknown as { __linefallBench: number[] }).__linefallBench);
  const stamps: number[] = [];
  const work: number[] = [];
  for (let i = 0; i + 1 < samples.length; i += 2) {
    stamps.push(samples[i]!);
    work.push(samples[i + 1]!);
  }
  // Only consecutive frames of play: the loop restarts after a countdown.
  const intervals = stamps.slice(1).map((t, i) => t - stamps[i]!).filter((d) => d > 0 && d < 1000);
  expect(intervals.length).toBeGreaterThan(200);
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  };
  const FRAME = 1000 / 60;
  const dropped = intervals.reduce((n, d) => n + Math.max(0, Math.round(d / FRAME) - 1), 0);
  console.log(
    `[frame-bench] frames=${intervals.length} interval p50=${pct(intervals, 50).toFixed(2)}ms p99=${pct(intervals, 99).toFixed(2)}ms ` +
      `dropped=${dropped} | work per frame p50=${pct(work, 50).toFixed(3)}ms p99=${pct(work, 99).toFixed(3)}ms max=${Math.max(...work).toFixed(3)}ms`,
  );
});

/** First-load JS of the game page: every script it loads before play starts, gzipped. Budget 150 kB. */
test('first-load JS of /play/[mode] stays within 150 kB gzipped', async ({ page }) => {
  const bodies = new Map<string, Promise<Buffer>>();
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script' && res.ok()) bodies.set(res.url(), res.body());
  });
  await page.goto('/play/sprint', { waitUntil: 'networkidle' });
  await expect(page.getByTestId('game')).toHaveAttribute('data-phase', /countdown|playing/);
  let raw = 0;
  let gz = 0;
  for (const body of await Promise.all(bodies.values())) {
    raw += body.length;
    gz += gzipSync(body).length;
  }
  console.log(`[first-load-js] /play/sprint: ${bodies.size} scripts, ${(raw / 1024).toFixed(1)} kB raw, ${(gz / 1024).toFixed(1)} kB gzipped`);
  expect(gz).toBeLessThanOrEqual(150 * 1024);
});
