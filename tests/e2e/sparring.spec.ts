import { expect, test } from '@playwright/test';
import { uniqueAddress } from '@/tests/e2e/fixtures';
import { topOut } from '@/tests/e2e/play-helpers';
import { LIVE_PROTOCOL_VERSION, messagesOfFrame } from '@/lib/live/protocol';
import { LiveClient } from '@/tests/support/live-client';

// The sparring bot in Chromium: one click from the versus page starts a match against the server's
// bot, refereed and stored like any other; the player here hard-drops to the top while the bot
// plays at its pace, so the bot wins. Its replay names it, and the result plays it again.

test('one click plays the sparring bot to the result; "play the bot again" starts another; the replay names it', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': uniqueAddress() } });
  const page = await context.newPage();
  await page.goto('/versus');
  const card = page.getByRole('region', { name: 'Spar with a bot' });
  await card.getByRole('combobox', { name: 'First to' }).selectOption('1');
  await card.getByTestId('bot-speed').selectOption('4');
  await card.getByRole('radio', { name: /Attacker/ }).check();
  await card.getByRole('button', { name: 'Play the bot' }).click();

  const game = page.getByTestId('versus');
  await expect(game).toHaveAttribute('data-match', /^[a-z0-9]{8,40}$/);
  const matchId = (await game.getAttribute('data-match'))!;
  await expect(page.getByRole('img', { name: "Bot · 4/s attacker's field" })).toBeVisible();
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
  // The bot plays while the player waits a moment, then the player hard-drops to the top.
  await page.waitForTimeout(3_000);
  await topOut(page, game, /between|over/);
  const result = page.getByTestId('versus-result');
  await expect(result).toHaveAttribute('data-won', 'false', { timeout: 20_000 });
  await expect(result).toContainText('Unranked');
  // No rematch offer to a bot: one click plays it again, a new match.
  await expect(page.getByTestId('rematch')).toHaveCount(0);
  await result.getByRole('button', { name: 'Play the bot again' }).click();
  await expect(game).not.toHaveAttribute('data-match', matchId);
  await expect(game).toHaveAttribute('data-match', /^[a-z0-9]{8,40}$/);
  await expect(page.getByRole('img', { name: "Bot · 4/s attacker's field" })).toBeVisible();

  // The stored match: the bot's seat named as the bot, its field played by its own inputs.
  await page.goto(`/versus/matches/${matchId}`);
  await expect(page.getByTestId('match-title')).toContainText('Bot · 4/s attacker');
  const viewer = page.getByTestId('match-viewer');
  await expect(viewer).toHaveAttribute('data-ready', 'true');
  await page.keyboard.press('End');
  await expect.poll(async () => Number(await page.getByTestId('versus-field-1').getAttribute('data-pieces'))).toBeGreaterThanOrEqual(8);
  await context.close();
});

// A second tab (here a socket of the test's, with the page's cookies) takes the seat up with its
// token: the server tells this page's socket (seat_taken), and the page stops playing the match,
// says where it went, and sends its seat nothing more, where it once played on, refused batch by
// batch, and took the seat back at its next reconnect.
test('a seat taken up from another tab: the page says the match goes on there, and sends it nothing more', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const address = uniqueAddress();
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': address } });
  const page = await context.newPage();
  let match: { matchId: string; resumeToken: string } | null = null;
  let told = false;
  const sent: string[] = [];
  /** How many frames the page had sent when seat_taken passed this route on its way to the page. */
  let whenTold = -1;
  await page.routeWebSocket(/\/api\/live(\?|$)/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((frame) => {
      for (const m of messagesOfFrame(String(frame)) as Array<{ t?: string; code?: string; matchId?: string; resumeToken?: string }>) {
        if (m.t === 'match' && m.resumeToken) match = { matchId: m.matchId!, resumeToken: m.resumeToken };
        if (m.t === 'error' && m.code === 'seat_taken' && !told) {
          told = true;
          whenTold = sent.length;
        }
      }
      ws.send(frame);
    });
    ws.onMessage((frame) => {
      sent.push(String(frame));
      server.send(frame);
    });
  });
  await page.goto('/versus');
  const card = page.getByRole('region', { name: 'Spar with a bot' });
  await card.getByRole('combobox', { name: 'First to' }).selectOption('3');
  await card.getByTestId('bot-speed').selectOption('1');
  await card.getByRole('button', { name: 'Play the bot' }).click();
  const game = page.getByTestId('versus');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
  await expect.poll(() => match).not.toBeNull();

  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const tab = await LiveClient.connect(baseURL!, { address, cookie });
  tab.send({ t: 'hello', v: LIVE_PROTOCOL_VERSION });
  await tab.next('welcome');
  const { matchId, resumeToken } = match!;
  tab.send({ t: 'resume', of: { kind: 'match', id: matchId }, token: resumeToken });
  await tab.next('vresumed', (m) => m.matchId === matchId);

  await expect(page.getByTestId('versus-result')).toContainText('This match goes on in another tab or window');
  expect(told).toBe(true);
  // Batches counted from when the page shows it knows, not from when seat_taken passed this route:
  // one sent while the message was on its way is in flight, not played after it. A leave or a
  // resume of the seat has no business in flight then: counted from the message's passing.
  const known = sent.length;
  // Keys pressed here play nothing the server hears: no batch, no leave, no resume of that seat.
  await page.keyboard.press('Space');
  await page.waitForTimeout(1_500);
  expect(sent.slice(known).filter((f) => /"t":"inputs"/.test(f))).toEqual([]);
  expect(sent.slice(whenTold).filter((f) => /"t":"(leave|resume)"/.test(f))).toEqual([]);
  tab.close();
  await context.close();
});
