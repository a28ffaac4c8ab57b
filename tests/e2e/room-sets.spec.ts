import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { decodeReplay } from '@/lib/engine';
import { RoomPlayer } from '@/lib/client/room-player';
import { secondsParam } from '@/lib/ui/links';
import { roomSetSchema, type RoomSet } from '@/lib/validations/room-sets';
import { createAppServer, type AppServer } from '@/tests/support/app-server';
import type { RoomSeedPlan } from '@/tests/support/seed-rooms';
import { uniqueAddress } from '@/tests/e2e/fixtures';

// The room set viewer against a server of its own, on an embedded database seeded before it
// starts: four seats (an account, a guest, two bots) play a first-to-2 free-for-all through the
// referee, and the server's own storeRoomMatch verifies and stores it (tests/support/seed-rooms.ts).
const plan: RoomSeedPlan = { password: 'room-sets-pw-9', user: 'rina', id: 'roomset4' };
const SCREENSHOTS = process.env.ROOM_SET_SCREENSHOTS;

let server: AppServer;
let dir: string;
let guestId: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(path.join(tmpdir(), 'linefall-room-sets-e2e-'));
  const databaseUrl = `pglite:${path.join(dir, 'pglite')}`;
  server = await createAppServer(databaseUrl);
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'tests/support/seed-rooms.ts'], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  child.stdin.end(JSON.stringify(plan));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`seeding failed (${code}): ${err}`);
  guestId = (JSON.parse(out) as { guest: string }).guest;
  await server.start();
});

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** An independent run of a game through the referee (in the test process) to `tick`. */
function expected(set: RoomSet, game: number, tick: number) {
  const g = set.games[game]!;
  const replays = g.replays.map((r) => decodeReplay(r));
  const p = new RoomPlayer({ mode: set.mode, seed: replays[0]!.seed, rules: set.rules, replays, leaves: g.leaves, endTick: g.endTick });
  p.seek(tick);
  return { player: p, hashes: p.hash().split(' '), frame: p.snapshot() };
}

async function expectFields(page: Page, hashes: string[]) {
  for (const [i, hash] of hashes.entries()) await expect(page.getByTestId(`room-field-${i}`)).toHaveAttribute('data-hash', hash);
}

test('a stored 4-seat set: every field at ?t=, steps, the attack log and KOs, the game picker, and play from here as seat 2 and seat 0', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server.url, extraHTTPHeaders: { 'x-forwarded-for': uniqueAddress() } });
  const page = await context.newPage();

  // The API: one payload, the same schema the page reads; nothing private in it.
  const res = await page.request.get(`/api/versus/rooms/sets/${plan.id}`);
  expect(res.status()).toBe(200);
  const text = await res.text();
  expect(text).not.toContain(guestId);
  const set = roomSetSchema.parse(JSON.parse(text));
  expect(set.players.map((p) => [p.player?.username ?? null, p.bot?.pps ?? null])).toEqual([['rina', null], [null, null], [null, 3], [null, 5]]);
  expect(set.games.length).toBeGreaterThanOrEqual(2);
  const missing = await page.request.get('/api/versus/rooms/sets/nope');
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toMatchObject({ error: { code: 'room_set_not_found' } });

  // ?t=4.5 opens paused on tick 270: every field on the referee's state there.
  await page.goto(`/versus/rooms/sets/${plan.id}?t=4.5`);
  const viewer = page.getByTestId('room-viewer');
  await expect(viewer).toHaveAttribute('data-ready', 'true');
  await expect(viewer).toHaveAttribute('data-tick', '270');
  await expect(viewer).toHaveAttribute('data-playing', 'false');
  let at = expected(set, 0, 270);
  await expectFields(page, at.hashes);
  for (let s = 0; s < 4; s++) await expect(page.getByTestId(`field-${s}`)).toBeVisible();
  await expect(page.getByTestId('room-set-seats')).toContainText('rina');
  await expect(page.getByTestId('seat-2')).toContainText('Bot · 3/s tidy');
  expect(await page.content()).not.toContain(guestId);
  const log = page.getByTestId('attack-log');
  const sent = at.player.attacks.filter((a) => a.tick < 270);
  expect(sent.length).toBeGreaterThan(0);
  await expect(log).toHaveAttribute('data-count', String(sent.length));
  const last = sent.at(-1)!;
  await expect(log.getByTestId('attack-entry').first()).toHaveAttribute('data-tick', String(last.tick));
  await expect(log.getByTestId('attack-entry').first()).toContainText(`sent ${last.size} row`);
  await expect(log.getByTestId('attack-entry').first()).toHaveAttribute('data-to', String(last.to));

  // Step a tick by key and a piece by button: the fields follow the referee.
  await page.keyboard.press('.');
  await expect(viewer).toHaveAttribute('data-tick', '271');
  await expectFields(page, expected(set, 0, 271).hashes);
  const nextPiece = expected(set, 0, 271).player.pieceBoundary(1);
  await page.getByRole('button', { name: 'Next piece' }).click();
  await expect(viewer).toHaveAttribute('data-tick', String(nextPiece));
  await expectFields(page, expected(set, 0, nextPiece).hashes);

  // The first KO as it happened: the field says so from the next tick, and the log lists it.
  const ko = at.player.kos[0]!;
  await page.goto(`/versus/rooms/sets/${plan.id}?t=${secondsParam(ko.tick + 1)}`);
  await expect(viewer).toHaveAttribute('data-tick', String(ko.tick + 1));
  await expect(page.getByTestId(`ko-${ko.seat}`)).toHaveText('KO');
  await expect(log.getByTestId('ko-entry').first()).toHaveAttribute('data-seat', String(ko.seat));
  await expectFields(page, expected(set, 0, ko.tick + 1).hashes);

  // Another game of the set, from the picker.
  await page.getByTestId('game-selector').getByRole('link', { name: /^Game 2/ }).click();
  await expect(page).toHaveURL(new RegExp(`/versus/rooms/sets/${plan.id}\\?game=2$`));
  await expect(viewer).toHaveAttribute('data-end', String(expected(set, 1, 0).player.endTick));

  // Play from here as seat 2, then as seat 0: the practice board is that seat's field in the viewer, exactly.
  for (const seat of [2, 0]) {
    await page.goto(`/versus/rooms/sets/${plan.id}?t=4.5`);
    await expect(viewer).toHaveAttribute('data-ready', 'true');
    at = expected(set, 0, 270);
    const field = page.getByTestId(`room-field-${seat}`);
    const board = await field.getAttribute('data-board');
    const active = await field.getAttribute('data-active');
    expect(board).toBe(at.frame.fields[seat]!.board.join('/'));
    await page.getByTestId(`play-from-here-${seat}`).click();
    await expect(page).toHaveURL(new RegExp(`/practice\\?room=${plan.id}&game=1&seat=${seat}&tick=270$`));
    const sandbox = page.getByTestId('sandbox');
    await expect(sandbox).toHaveAttribute('data-ready', 'true');
    await expect(sandbox).toHaveAttribute('data-board', board!);
    await expect(sandbox).toHaveAttribute('data-active', active!);
    await expect(page.getByRole('link', { name: `${seat === 0 ? 'rina' : 'Bot · 3/s tidy'}'s field in game 1` })).toHaveAttribute('href', `/versus/rooms/sets/${plan.id}?t=4.5`);
    // It plays on by keyboard.
    await page.keyboard.press('Space');
    await expect(sandbox).toHaveAttribute('data-pieces', '1');
  }

  // The set on its player's profile, linking to the viewer.
  await page.goto('/u/rina');
  const row = page.getByTestId('room-set-row');
  await expect(row).toHaveAttribute('data-match', plan.id);
  await row.getByRole('link', { name: 'Watch' }).click();
  await expect(page).toHaveURL(new RegExp(`/versus/rooms/sets/${plan.id}$`));
  await expect(viewer).toHaveAttribute('data-ready', 'true');

  await page.goto('/versus/rooms/sets/nope');
  await expect(page.getByRole('heading', { name: 'Room set not found' })).toBeVisible();
  await context.close();
});

test('on a phone (360 px) every field is readable and every control is in reach of a thumb; a desk at 1280 px', async ({ browser }) => {
  test.setTimeout(120_000);
  for (const viewport of [{ width: 1280, height: 900 }, { width: 360, height: 740 }]) {
    const context = await browser.newContext({ baseURL: server.url, viewport, hasTouch: viewport.width < 400, isMobile: viewport.width < 400, extraHTTPHeaders: { 'x-forwarded-for': uniqueAddress() } });
    const page = await context.newPage();
    await page.goto(`/versus/rooms/sets/${plan.id}?t=4.5`);
    await expect(page.getByTestId('room-viewer')).toHaveAttribute('data-ready', 'true');
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    for (let s = 0; s < 4; s++) {
      const box = (await page.getByTestId(`field-${s}`).boundingBox())!;
      // Readable: a cell of 5 px or more (the picture is 21 cells wide).
      expect(box.width / 21, `field ${s} at ${viewport.width} px`).toBeGreaterThanOrEqual(5);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
    // The slider is the replay viewer's own (a native range, as tall as the browser draws it): reached by its width.
    const seekBar = (await page.getByTestId('seek-bar').boundingBox())!;
    expect(seekBar.width).toBeGreaterThanOrEqual(200);
    expect(seekBar.x + seekBar.width).toBeLessThanOrEqual(viewport.width);
    for (const control of [page.getByRole('button', { name: 'Next piece' }), page.getByRole('button', { name: 'Play' }), page.getByTestId('play-from-here-3')]) {
      await control.scrollIntoViewIfNeeded();
      const box = (await control.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(24);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
    if (viewport.width < 400) {
      await page.getByRole('button', { name: 'Next piece' }).tap();
      await expect(page.getByTestId('room-viewer')).not.toHaveAttribute('data-tick', '270');
    }
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `room-set-${viewport.width}.png`), fullPage: true });
    await context.close();
  }
});
