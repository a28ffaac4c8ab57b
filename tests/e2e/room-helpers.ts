import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { messagesOfFrame, parseServerMessage } from '@/lib/live/protocol';
import type { RoomServerMessage } from '@/lib/live/rooms';
import { uniqueAddress } from '@/tests/e2e/fixtures';
import { frames } from '@/tests/e2e/play-helpers';

export const DESK = { width: 1280, height: 720 };

/** A guest's page of its own (its own address, so rate limits see separate players). */
export async function guestPage(browser: Browser, options: BrowserContextOptions = { viewport: DESK }): Promise<Page> {
  const context = await browser.newContext({ ...options, extraHTTPHeaders: { 'x-forwarded-for': uniqueAddress() } });
  return context.newPage();
}

/** The set's end as the server said it on this page's socket (`rover`), read with the protocol's own schema. */
export function serverResult(page: Page): () => Extract<RoomServerMessage, { t: 'rover' }> | null {
  let over: Extract<RoomServerMessage, { t: 'rover' }> | null = null;
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      for (const value of messagesOfFrame(String(payload))) {
        const parsed = parseServerMessage(value);
        if (parsed.ok && parsed.message.t === 'rover') over = parsed.message;
      }
    }),
  );
  return () => over;
}

/** Makes a room from /versus/rooms with the rules given by label (number fields and selects); returns its share link. */
export async function makeRoom(page: Page, o: { seats: number; numbers?: Record<string, string>; selects?: Record<string, string>; bots?: { speed: string; style: string }[] }): Promise<string> {
  await page.goto('/versus/rooms');
  const form = page.getByRole('form', { name: 'Make a room' });
  await form.getByLabel(/^Seats/).fill(String(o.seats));
  for (const [label, value] of Object.entries(o.numbers ?? {})) await form.getByLabel(new RegExp(`^${label} \\(`)).fill(value);
  for (const [label, value] of Object.entries(o.selects ?? {})) await form.getByLabel(new RegExp(`^${label}`)).selectOption(value);
  for (const [i, bot] of (o.bots ?? []).entries()) {
    await form.getByRole('button', { name: 'Add a bot' }).click();
    await form.getByLabel(`Bot ${i + 1} speed`).selectOption(bot.speed);
    await form.getByLabel(`Bot ${i + 1} style`).selectOption(bot.style);
  }
  await form.getByRole('button', { name: 'Make the room' }).click();
  await expect(page).toHaveURL(/\/versus\/rooms\/[A-Z2-9]{6}$/);
  return page.getByLabel('Share link').inputValue();
}

/** Hard drops by key, held a varied moment as a person's are, until this seat's game is over or the room's stops. */
export async function dropByKey(page: Page, times: number): Promise<void> {
  const root = page.getByTestId('rooms');
  // The server may put the seat out (its copy topped out) while this page waits for a deal that will not come.
  const ko = page.getByRole('region', { name: 'Your field' }).getByTestId('ko');
  const done = async () => (await root.getAttribute('data-phase')) !== 'playing' || (await root.getAttribute('data-over')) === 'true' || (await ko.count()) > 0;
  for (let i = 0; i < times; i++) {
    if (await done()) return;
    const before = await root.getAttribute('data-pieces');
    await page.keyboard.down('Space');
    await page.waitForTimeout(20 + ((i * 37) % 50));
    await page.keyboard.up('Space');
    const moved = async () => (await root.getAttribute('data-pieces')) !== before || (await done());
    await expect.poll(moved).toBe(true);
    await frames(page, 2);
  }
}
