import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import type { PieceType } from '@/lib/engine';
import { playGame } from '@/tests/support/bot';
import { signUp, uniqueAddress, uniqueUsername } from '@/tests/e2e/fixtures';
import { cuttableLiveChannel } from '@/tests/e2e/live-channel';
import { topOut, typePlan } from '@/tests/e2e/play-helpers';
import { violations } from '@/tests/e2e/a11y-helpers';
import { createRoom } from '@/tests/e2e/versus-helpers';

// Versus in Chromium, with real sockets and key presses: two browsers meet in a private room by
// its link and play until one tops out under the other's garbage, a third watches from /live, and
// the stored match plays back to the same end; two signed-in players meet in a ranked quick
// match, one leaves at once and loses rating, and the other gains none from it (no contest).

async function player(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueAddress() });
  return page;
}

const attr = async (el: Locator, name: string) => (await el.getAttribute(name)) ?? '';

/** Plays this seat's next piece as the solo bot would place it, from the pieces dealt so far. */
async function playPiece(page: Page, game: Locator, i: number): Promise<void> {
  const handling = JSON.parse(await attr(game, 'data-handling'));
  const dealt = [...(await attr(game, 'data-dealt'))] as PieceType[];
  // Keeping a well on the right, the bot's first double or better (its first attack) came by piece 27
  // in each of 300 seeded games (by piece 13 in nine of ten); without it, one game in four had none by 40.
  const step = playGame({ mode: 'sprint', seed: 'dealt-by-the-server', handling, queue: dealt, maxPieces: i + 1, well: true }).plan[i];
  if (!step) throw new Error(`no plan for piece ${i} from ${dealt.length} dealt pieces`);
  await typePlan(page, game, [step]);
}

test('two browsers play a private room by its link; a third watches; the replay ends where the match did', async ({ browser }) => {
  test.setTimeout(240_000);
  const [ann, ben, watcher] = [await player(browser), await player(browser), await player(browser)];

  // Ann makes a room (Battle, one game) and the page's address becomes its share link.
  const link = await createRoom(ann);
  expect(link).toBe(ann.url());

  // Ben opens the link and is seated; both say they are ready.
  await ben.goto(link);
  await expect(ben.getByTestId('room-seats')).toContainText('(you)');
  await expect(ann.getByTestId('room-seats').locator('li')).toHaveCount(2);
  await expect(ann.getByTestId('room-seats').locator('li').nth(1)).not.toContainText('Waiting');
  expect(await violations(ann, 'a room with two players')).toEqual([]);
  await ann.getByRole('button', { name: 'Ready', exact: true }).click();
  await ben.getByRole('button', { name: 'Ready', exact: true }).click();

  const [a, b] = [ann.getByTestId('versus'), ben.getByTestId('versus')];
  await expect(a).toHaveAttribute('data-match', /^[a-z0-9]{8,40}$/);
  const matchId = await attr(a, 'data-match');
  await expect(b).toHaveAttribute('data-match', matchId);

  // Someone else finds the match on /live and watches it (this match's: another spec's may be listed too).
  await watcher.goto('/live');
  await watcher.getByRole('link', { name: /^Watch .* against / }).and(watcher.locator(`[href="/versus/watch/${matchId}"]`)).click();
  await expect(watcher).toHaveURL(new RegExp(`/versus/watch/${matchId}$`));
  const spectator = watcher.getByTestId('match-spectator');
  await expect(spectator).toHaveAttribute('data-phase', 'watching');
  expect(await violations(watcher, 'watching a match')).toEqual([]);

  // Ann places pieces as the bot plans them until her clears have sent Ben garbage; Ben, whose
  // pieces only slide to the wall and fall (a dozen of them, well over a minute, before they would
  // top him out), then hard-drops: the garbage rises under his stack and he tops out.
  await expect(a).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
  await expect(b).toHaveAttribute('data-phase', 'playing');
  // A play view while the game runs: the site's header gives way (it comes back at the end, below).
  await expect(ann.locator('html')).toHaveAttribute('data-playing', '');
  await expect(ann.getByRole('banner')).toBeHidden();
  // One tap to the whole screen and back, mid-game, as on the play page.
  await ann.getByRole('button', { name: 'Full screen' }).click();
  await expect.poll(() => ann.evaluate(() => document.fullscreenElement !== null)).toBe(true);
  await ann.getByRole('button', { name: 'Leave full screen' }).click();
  await expect.poll(() => ann.evaluate(() => document.fullscreenElement === null)).toBe(true);
  await ben.keyboard.down('ArrowLeft');
  // Until Ben's meter shows garbage coming (read before each of Ann's pieces, so a lock of Ben's
  // that raises it into his field between two looks only means another look).
  const meter = ben.getByTestId('garbage-meter-you');
  for (let i = 0; (await meter.getAttribute('data-rows')) === '0'; i++) {
    expect(await attr(a, 'data-phase'), `Ann's game before her piece ${i}, with no garbage sent yet`).toBe('playing');
    expect(i, 'pieces Ann placed without sending garbage').toBeLessThan(60);
    await playPiece(ann, a, i);
  }
  await ben.keyboard.up('ArrowLeft');
  await topOut(ben, b, /between|over/);
  await expect(b).toHaveAttribute('data-topped-out', 'true');

  // Both see the result; a room is never ranked.
  await expect(ann.getByTestId('versus-result')).toHaveAttribute('data-won', 'true', { timeout: 20_000 });
  await expect(ben.getByTestId('versus-result')).toHaveAttribute('data-won', 'false');
  await expect(ann.getByTestId('versus-result')).toContainText('Unranked');
  await expect(ann.getByTestId('versus')).toHaveAttribute('data-score', '1-0');
  await expect(ann.getByRole('banner')).toBeVisible();
  await expect(ann.locator('html')).not.toHaveAttribute('data-playing');
  expect(await violations(ben, 'a lost match')).toEqual([]);
  const ends = await Promise.all([a, b].map(async (g) => ({ pieces: await attr(g, 'data-pieces'), lines: await attr(g, 'data-lines'), stack: await attr(g, 'data-stack') })));
  // Garbage rows (X) rose into Ben's field before it filled.
  expect(ends[1]!.stack).toContain('X');

  // The room opens again for both, not ready: a rematch is two clicks away.
  await ben.getByRole('button', { name: 'Back to the room' }).click();
  await expect(ben.getByTestId('room')).toBeVisible();
  await expect(ben.getByTestId('room-seats')).toContainText('Not ready');
  await expect(ben.getByTestId('room-seats').locator('li')).toHaveCount(2);

  // The spectator saw the same fields to the end.
  await expect(watcher.getByTestId('match-over')).toBeVisible();
  await expect(spectator).toHaveAttribute('data-stack0', ends[0]!.stack);
  await expect(spectator).toHaveAttribute('data-stack1', ends[1]!.stack);

  // The stored match, at its end, shows each field as it ended.
  await ann.getByRole('link', { name: 'Watch the replay' }).click();
  await expect(ann).toHaveURL(new RegExp(`/versus/matches/${matchId}`));
  const viewer = ann.getByTestId('match-viewer');
  // Server-rendered at its first frame: a key pressed before its shortcuts listen would be lost.
  await expect(viewer).toHaveAttribute('data-ready', 'true');
  await ann.keyboard.press('End');
  await expect(viewer).toHaveAttribute('data-tick', await attr(viewer, 'data-end'));
  for (const i of [0, 1] as const) {
    await expect(ann.getByTestId(`versus-field-${i}`)).toHaveAttribute('data-pieces', ends[i]!.pieces);
    await expect(ann.getByTestId(`versus-field-${i}`)).toHaveAttribute('data-lines', ends[i]!.lines);
  }
});

test('a ranked quick match: the player who leaves at once loses rating; the winner gains nothing (no contest)', async ({ browser }) => {
  test.setTimeout(120_000);
  const [ann, ben] = [await player(browser), await player(browser)];
  await signUp(ann, uniqueUsername('va'), 'versus-e2e-pw-1');
  await signUp(ben, uniqueUsername('vb'), 'versus-e2e-pw-2');
  for (const p of [ann, ben]) {
    await p.goto('/versus');
    const quick = p.getByRole('region', { name: 'Quick match' });
    await expect(quick.getByLabel(/Ranked/)).toBeChecked();
    await quick.getByRole('button', { name: 'Find a match' }).click();
  }
  await expect(ann.getByTestId('versus')).toHaveAttribute('data-match', /^[a-z0-9]{8,40}$/, { timeout: 20_000 });
  await expect(ben.getByTestId('versus')).toHaveAttribute('data-phase', /countdown|playing/);
  // Ranked: asked once more, and "Stay" stays.
  await ann.getByRole('button', { name: /Leave match/ }).click();
  const asked = ann.getByRole('group', { name: 'Leave the ranked match?' });
  await asked.getByRole('button', { name: 'Stay' }).click();
  await expect(ann.getByTestId('versus-result')).toBeHidden();
  await ann.getByRole('button', { name: /Leave match/ }).click();
  await asked.getByRole('button', { name: 'Yes, leave' }).click();

  await expect(ann.getByTestId('versus-result')).toHaveAttribute('data-won', 'false', { timeout: 20_000 });
  await expect(ann.getByTestId('versus-result')).toContainText('You left the match');
  await expect(ben.getByTestId('versus-result')).toHaveAttribute('data-won', 'true');
  // New players start at 1500: the leaver goes down. Ann left before placing a piece, so the
  // match is no contest for Ben: no rating and no weekly win from it (two accounts cannot farm).
  await expect(ann.getByTestId('rating-change')).toContainText(/1500 → 1\d{3} \(−\d+\)/);
  await expect(ben.getByTestId('rating-change')).toContainText('1500 → 1500 (±0)');
  await expect(ben.getByTestId('no-contest')).toContainText('No contest');
});

test('a player whose network drops mid-match comes back within the window, and the match plays on to its end', async ({ browser }) => {
  test.setTimeout(180_000);
  const [ann, ben] = [await player(browser), await player(browser)];
  const network = await cuttableLiveChannel(ben);
  await ben.goto(await createRoom(ann));
  await expect(ann.getByTestId('room-seats').locator('li').nth(1)).not.toContainText('Waiting');
  await ann.getByRole('button', { name: 'Ready', exact: true }).click();
  await ben.getByRole('button', { name: 'Ready', exact: true }).click();
  const [a, b] = [ann.getByTestId('versus'), ben.getByTestId('versus')];
  await expect(a).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
  await expect(b).toHaveAttribute('data-phase', 'playing');
  for (let i = 0; i < 2; i++) await playPiece(ann, a, i);

  // Ben's network drops: both pages say so, Ann's with the seconds Ben has left to come back.
  await network.cut();
  await expect(b).not.toHaveAttribute('data-link', 'open');
  await expect(ben.getByRole('status').filter({ hasText: 'Reconnecting…' })).toBeVisible();
  await expect(ann.getByTestId('away')).toContainText(/lost their connection; they have \d+ s to come back/);
  // Ann plays on meanwhile.
  await playPiece(ann, a, 2);
  await ben.waitForTimeout(3_000);

  // Back within the window: the notices go, and the match goes on from where it was.
  network.restore();
  await expect(b).toHaveAttribute('data-link', 'open', { timeout: 15_000 });
  await expect(ann.getByTestId('away')).toHaveCount(0, { timeout: 15_000 });
  await expect(ben.getByRole('status').filter({ hasText: 'Reconnecting…' })).toHaveCount(0);
  await expect(b).toHaveAttribute('data-phase', 'playing');
  await topOut(ben, b, /between|over/);
  await expect(b).toHaveAttribute('data-topped-out', 'true');

  // The match ends as any other: a result on both pages, and a stored replay to its end.
  await expect(ann.getByTestId('versus-result')).toHaveAttribute('data-won', 'true', { timeout: 20_000 });
  await expect(ben.getByTestId('versus-result')).toHaveAttribute('data-won', 'false');
  const matchId = await attr(a, 'data-match');
  await ann.getByRole('link', { name: 'Watch the replay' }).click();
  await expect(ann).toHaveURL(new RegExp(`/versus/matches/${matchId}`));
  const viewer = ann.getByTestId('match-viewer');
  await expect(viewer).toHaveAttribute('data-ready', 'true');
  await ann.keyboard.press('End');
  await expect(viewer).toHaveAttribute('data-tick', await attr(viewer, 'data-end'));
  await expect(ann.getByTestId('versus-field-1')).toHaveAttribute('data-pieces', await attr(b, 'data-pieces'));
});

test('after a quick match both press Rematch and the same two play a new match; when one goes instead, the other sees it', async ({ browser }) => {
  test.setTimeout(120_000);
  const [ann, ben] = [await player(browser), await player(browser)];
  for (const p of [ann, ben]) {
    await p.goto('/versus');
    await p.getByRole('region', { name: 'Quick match' }).getByRole('button', { name: 'Find a match' }).click();
  }
  const [a, b] = [ann.getByTestId('versus'), ben.getByTestId('versus')];
  await expect(a).toHaveAttribute('data-match', /^[a-z0-9]{8,40}$/, { timeout: 20_000 });
  const first = await attr(a, 'data-match');
  await expect(b).toHaveAttribute('data-match', first);

  // Two guests read apart ("Guest 4F2A (you) vs Guest 09BC"), and each page names the other alike.
  const names = async (p: Page) => /Guest ([0-9A-F]{4}) \(you\) vs Guest ([0-9A-F]{4})/.exec((await p.getByText(/\(you\) vs/).first().textContent()) ?? '')?.slice(1) ?? [];
  const [annSees, benSees] = [await names(ann), await names(ben)];
  expect(annSees).toHaveLength(2);
  expect(annSees[0]).not.toBe(annSees[1]);
  expect(benSees).toEqual([annSees[1], annSees[0]]);
  const [annName, benName] = [`Guest ${annSees[0]}`, `Guest ${annSees[1]}`];

  // The quickest end: Ann leaves (unranked: at once). Both are offered a rematch.
  await ann.getByRole('button', { name: /Leave match/ }).click();
  await expect(ben.getByTestId('versus-result')).toHaveAttribute('data-won', 'true', { timeout: 20_000 });
  await expect(ann.getByTestId('rematch')).toHaveAttribute('data-state', 'offered');
  await expect(ben.getByTestId('rematch')).toHaveAttribute('data-state', 'offered');
  await ann.getByRole('button', { name: 'Rematch' }).click();
  await expect(ann.getByTestId('rematch')).toContainText(`Waiting for ${benName}…`);
  await expect(ben.getByTestId('rematch')).toContainText(`${annName} wants a rematch`);
  expect(await violations(ben, 'a rematch asked for')).toEqual([]);
  await ben.getByRole('button', { name: 'Accept' }).click();

  // A new match, with an id of its own, for the same two.
  await expect(a).not.toHaveAttribute('data-match', first, { timeout: 20_000 });
  const second = await attr(a, 'data-match');
  expect(second).toMatch(/^[a-z0-9]{8,40}$/);
  await expect(b).toHaveAttribute('data-match', second);
  await expect(ann.getByTestId('versus-result')).toBeHidden();
  expect(await names(ann)).toEqual(annSees);

  // Over again; Ann asks, and Ben goes back to the lobby instead: Ann is told he left.
  await ben.getByRole('button', { name: /Leave match/ }).click();
  await expect(ann.getByTestId('versus-result')).toHaveAttribute('data-won', 'true', { timeout: 20_000 });
  await ann.getByRole('button', { name: 'Rematch' }).click();
  await expect(ann.getByTestId('rematch')).toHaveAttribute('data-state', 'waiting');
  await ben.goto('/versus');
  await expect(ann.getByTestId('rematch')).toHaveAttribute('data-state', 'left', { timeout: 15_000 });
  await expect(ann.getByTestId('rematch')).toContainText(`${benName} left.`);

  // The stored match names the two guests apart too.
  await ann.getByRole('link', { name: 'Watch the replay' }).click();
  const title = ann.getByTestId('match-title');
  await expect(title).toContainText(annName);
  await expect(title).toContainText(benName);
});

test('a room whose maker’s network drops keeps its seat: the guest sees the maker reconnecting, and once back they play', async ({ browser }) => {
  test.setTimeout(120_000);
  const [ann, ben] = [await player(browser), await player(browser)];
  const network = await cuttableLiveChannel(ann);
  await ben.goto(await createRoom(ann));
  await expect(ann.getByTestId('room-seats').locator('li').nth(1)).not.toContainText('Waiting');
  await ben.getByRole('button', { name: 'Ready', exact: true }).click();

  // Ann's network drops: Ben's page keeps her seat and says she is reconnecting (his ready is asked again).
  await network.cut();
  await expect(ben.getByTestId('room-maker-away')).toHaveText('Reconnecting…', { timeout: 15_000 });
  await expect(ben.getByTestId('room-closed')).toHaveCount(0);
  network.restore();
  await expect(ben.getByTestId('room-maker-away')).toHaveCount(0, { timeout: 15_000 });
  await expect(ann.getByTestId('room-seats').locator('li').first()).toContainText('(you)');
  await ann.getByRole('button', { name: 'Ready', exact: true }).click();
  await ben.getByRole('button', { name: 'Ready', exact: true }).click();
  const [a, b] = [ann.getByTestId('versus'), ben.getByTestId('versus')];
  await expect(a).toHaveAttribute('data-match', /^[a-z0-9]{8,40}$/, { timeout: 15_000 });
  await expect(b).toHaveAttribute('data-match', await attr(a, 'data-match'));
});

test('a room left on purpose is not kept: the guest hears its maker left at once, and a guest who leaves frees the seat', async ({ browser }) => {
  test.setTimeout(90_000);
  const [ann, ben] = [await player(browser), await player(browser)];
  await ben.goto(await createRoom(ann));
  const seats = ann.getByTestId('room-seats').locator('li');
  await expect(seats.nth(1)).not.toContainText('Waiting');
  // Ben leaves: Ann's room waits for another friend; Ben's page is the lobby's, at its own address.
  await ben.getByRole('button', { name: 'Leave room' }).click();
  await expect(seats.nth(1)).toContainText('Waiting for a friend');
  await expect(ben).toHaveURL(/\/versus$/);
  await expect(ben.getByRole('region', { name: 'Private room' })).toBeVisible();
  // He comes back, and Ann leaves: he is told at once, well within the time a dropped maker's seat is kept.
  await ben.goto(await ann.getByLabel('Share link').inputValue());
  await expect(seats.nth(1)).not.toContainText('Waiting');
  await ann.getByRole('button', { name: 'Leave room' }).click();
  await expect(ben.getByTestId('room-closed')).toContainText('The player who made this room left it.', { timeout: 5_000 });
  await expect(ben.getByTestId('room-maker-away')).toHaveCount(0);
  await expect(ann).toHaveURL(/\/versus$/);
});

test('a room link whose room is not there says so once', async ({ browser }) => {
  const page = await player(browser);
  await page.goto('/versus/room/ZZZZZZ');
  await expect(page.getByTestId('room-closed')).toContainText('No open room has this code');
  await expect(page.getByText('No open room has this code')).toHaveCount(1);
});
