import { expect, test, type Browser, type Page } from '@playwright/test';
import { roomSetSchema } from '@/lib/validations/room-sets';
import { signUp, uniqueAddress, uniqueUsername } from '@/tests/e2e/fixtures';
import { DESK, dropByKey, serverResult } from '@/tests/e2e/room-helpers';

// Ranked 2v2 end to end in Chromium: four accounts, each on an address and device of its own (the
// queue keeps one address's or device's players apart as opponents), queue from the versus page,
// two as a party by its code and two alone. The server matches them, each page takes its seat up
// on the room page, and the two solos hard-drop to the top twice while the pair waits: the set is
// the pair's, stored ranked, and every player's 2v2 rating moved on their profile.

async function account(browser: Browser, prefix: string): Promise<{ page: Page; name: string }> {
  const context = await browser.newContext({ viewport: DESK, extraHTTPHeaders: { 'x-forwarded-for': uniqueAddress() } });
  const page = await context.newPage();
  const name = uniqueUsername(prefix);
  await signUp(page, name, `ranked-2v2-pw-${prefix}`);
  await page.goto('/versus');
  return { page, name };
}

test('a party and two solos queue for ranked 2v2, play the set by keys, and it is stored ranked with every rating moved', async ({ browser }) => {
  test.setTimeout(120_000);
  const [ann, ben, cat, dan] = await Promise.all([account(browser, 'ta'), account(browser, 'tb'), account(browser, 'tc'), account(browser, 'td')]);
  const players = [ann, ben, cat, dan];
  const pages = players.map((x) => x.page);
  const saw = pages.map((p) => serverResult(p));
  const queue = (p: Page) => p.getByTestId('team-queue');

  // Ann makes a party; Ben joins it by its code; either may queue the two of them.
  await queue(ann.page).getByRole('button', { name: 'Make a party' }).click();
  const code = (await queue(ann.page).getByTestId('party-code').textContent()) ?? '';
  expect(code).toMatch(/^[A-Z2-9]{6}$/);
  await queue(ben.page).getByLabel('Party code').fill(code);
  await queue(ben.page).getByRole('button', { name: 'Join party' }).click();
  await expect(queue(ann.page)).toContainText('2/2');
  await queue(ben.page).getByRole('button', { name: 'Queue together' }).click();
  await expect(queue(ann.page).getByRole('status')).toContainText('Looking for a match for your pair');
  // Cat and Dan queue alone: the fourth player makes the match.
  for (const x of [cat, dan]) await queue(x.page).getByRole('button', { name: 'Queue alone' }).click();

  // Each page is taken to the room and its seat taken up there; all four play the same set.
  for (const p of pages) await expect(p).toHaveURL(/\/versus\/rooms\/[A-Z2-9]{6}$/, { timeout: 15_000 });
  expect(new Set(pages.map((p) => p.url())).size).toBe(1);
  const roots = pages.map((p) => p.getByTestId('rooms'));
  for (const r of roots) await expect(r).toHaveAttribute('data-phase', /countdown|playing/, { timeout: 15_000 });
  const matchId = (await ann.page.getByTestId('room-play').getAttribute('data-match')) ?? '';
  expect(matchId).toMatch(/^[A-Za-z0-9_-]{8,40}$/);
  for (const p of pages) await expect(p.getByTestId('room-play')).toHaveAttribute('data-match', matchId);
  // Teams by the other fields' labels: Ann sees Ben on her team, Cat and Dan on the other.
  const teamOf = async (viewer: Page, name: string) => {
    const field = viewer.getByTestId('room-field').filter({ has: viewer.getByRole('button', { name: `${name}'s field` }) });
    return (await field.textContent())?.match(/ · T(\d)/)?.[1];
  };
  const pairTeam = await teamOf(ann.page, ben.name);
  expect(pairTeam).toMatch(/^[12]$/);
  expect(await teamOf(ann.page, cat.name)).not.toBe(pairTeam);
  expect(await teamOf(ann.page, dan.name)).toBe(await teamOf(ann.page, cat.name));

  // Each game: Cat and Dan hard-drop at the spawn (no line cleared, no garbage sent) until both top
  // out, a dozen pieces each; Ann and Ben press nothing. First to two games.
  const [catRoot, danRoot] = [cat.page.getByTestId('rooms'), dan.page.getByTestId('rooms')];
  for (let game = 0; ; game++) {
    expect(game, 'games played').toBeLessThan(2);
    for (const r of [catRoot, danRoot]) await expect(r).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
    await Promise.all([dropByKey(cat.page, 40), dropByKey(dan.page, 40)]);
    // A decided game shows its result a moment ('between', even the set's last), then the next countdown or the set's end.
    await expect(catRoot).toHaveAttribute('data-phase', /countdown|over/, { timeout: 15_000 });
    if ((await catRoot.getAttribute('data-phase')) === 'over') break;
  }

  // Every page shows the set's result as the server sent it: the pair's, 2–0, stored.
  for (const [i, p] of pages.entries()) {
    const play = p.getByTestId('room-play');
    await expect(play).toHaveAttribute('data-state', 'over', { timeout: 20_000 });
    const over = saw[i]!();
    expect(over, 'the server ended the set on this socket').not.toBeNull();
    expect(over!.stored).toBe(true);
    await expect(play).toHaveAttribute('data-winner', String(over!.winner));
    await expect(play).toHaveAttribute('data-stored', 'true');
    await expect(p.getByTestId('room-result')).toHaveAttribute('data-won', String(i < 2));
    await expect(p.getByTestId('room-stored')).toContainText('The set is stored');
  }
  expect(String(saw[0]!()!.winner + 1)).toBe(pairTeam);

  // Stored ranked: each seat's rating before and after, up for the pair, down for the solos.
  const res = await ann.page.request.get(`/api/versus/rooms/sets/${matchId}`);
  expect(res.status()).toBe(200);
  const set = roomSetSchema.parse(await res.json());
  expect(set).toMatchObject({ ranked: true, winnerTeam: saw[0]!()!.winner });
  expect(set.games.map((g) => g.winnerTeam)).toEqual([set.winnerTeam, set.winnerTeam]);
  const seatOf = (name: string) => set.players.find((p) => p.player?.username === name)!;
  for (const [i, x] of players.entries()) {
    const seat = seatOf(x.name);
    expect(seat.won).toBe(i < 2);
    expect(seat.rating!.before).toBe(1500);
    if (i < 2) expect(seat.rating!.after).toBeGreaterThan(1500);
    else expect(seat.rating!.after).toBeLessThan(1500);
  }

  // Each profile shows the moved 2v2 rating and the set with partner and opponents.
  for (const [i, x] of players.entries()) {
    const after = Math.round(seatOf(x.name).rating!.after);
    await x.page.goto(`/u/${x.name}`);
    await expect(x.page.getByTestId('team-rating')).toContainText(`Rating ${after}`);
    await expect(x.page.getByTestId('team-rating')).toContainText(`${i < 2 ? 1 : 0}/1 sets won`);
    const line = x.page.getByTestId('team-history').locator('li');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText(`${i < 2 ? 'Won' : 'Lost'} with ${[ben, ann, dan, cat][i]!.name} against`);
    await expect(line).toContainText(`${after} (${i < 2 ? '+' : '−'}`);
  }
  await Promise.all(pages.map((p) => p.context().close()));
});
