import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { decodeReplay, type Replay } from '@/lib/engine';
import { FieldsPlayer } from '@/lib/client/fields-player';
import { momentsOf } from '@/lib/client/moments';
import { CHECKPOINT_INTERVAL, ReplayPlayer } from '@/lib/client/replay-player';
import type { StoredMatch } from '@/lib/server/versus/matches';
import { nextReset } from '@/lib/periods';
import { versusReplaySpan } from '@/lib/versus/replay-span';
import { createAppServer, type AppServer } from '@/tests/support/app-server';
import type { SeedPlan } from '@/tests/support/seed-versus';
import { expectTheme, setThemeCookie, violations } from '@/tests/e2e/a11y-helpers';
import { signIn, uniqueAddress } from '@/tests/e2e/fixtures';

// The versus records pages against a server of their own, on an embedded database seeded before
// it starts: bots play real sets through the referee and the server's own storeMatch verifies and
// stores them (tests/support/seed-versus.ts), as the match host will. Ann and Ben play 21 ranked
// matches (enough to settle both ratings), then Ann plays Cat once (Cat stays provisional).
const PASSWORD = 'versus-records-pw-9';
const RIVALRY = 21;
const MINUTES_BACK = 200;
const plan: SeedPlan = {
  password: PASSWORD,
  users: ['ann', 'ben', 'cat'],
  matches: [
    ...Array.from({ length: RIVALRY }, (_, i) => ({
      id: `rivalry${i}`,
      // Two sets, each stored with the seats both ways round, so each player wins some.
      seats: (i % 3 === 0 ? ['ben', 'ann'] : ['ann', 'ben']) as [string, string],
      record: i % 2,
      ranked: true,
      minutesAgo: MINUTES_BACK - i * 5,
    })),
    { id: 'newcomer', seats: ['ann', 'cat'], record: 2, ranked: true, minutesAgo: 1 },
  ],
};

let server: AppServer;
let dir: string;

/**
 * The wins board counts this week's matches (weeks start Monday 00:00 UTC, lib/periods): the
 * seeded history is squeezed, order kept, into the part of this week that has passed, and a run
 * in a week's last minutes waits for the next one, so the test passes whatever day it runs.
 */
async function planInThisWeek(): Promise<SeedPlan> {
  const reset = () => nextReset('week', new Date())!.getTime();
  const left = reset() - Date.now();
  if (left < 3 * 60_000) await new Promise((r) => setTimeout(r, left + 1_000));
  const sinceStart = (Date.now() - (reset() - 7 * 24 * 3_600_000)) / 60_000;
  if (sinceStart < 1) await new Promise((r) => setTimeout(r, 60_000));
  const scale = Math.min(1, (Math.max(sinceStart, 1) - 0.5) / MINUTES_BACK);
  return { ...plan, matches: plan.matches.map((m) => ({ ...m, minutesAgo: m.minutesAgo * scale })) };
}

async function seed(databaseUrl: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'tests/support/seed-versus.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  child.stdin.end(JSON.stringify(await planInThisWeek()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`seeding failed (${code}): ${err}`);
  expect(JSON.parse(out).stored).toHaveLength(plan.matches.length);
}

test.beforeAll(async () => {
  // Seeding may first wait out the end of a week (planInThisWeek).
  test.setTimeout(420_000);
  dir = mkdtempSync(path.join(tmpdir(), 'linefall-versus-e2e-'));
  const databaseUrl = `pglite:${path.join(dir, 'pglite')}`;
  server = await createAppServer(databaseUrl);
  await seed(databaseUrl);
  await server.start();
});

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** An independent run of both seats' replays (in the test process) to `tick`: the hashes and piece marks the viewer must show. */
function expected(match: StoredMatch, game: number, tick: number) {
  const g = match.games[game]!;
  const players = g.replays.map((text) => {
    const r: Replay = decodeReplay(text);
    return new ReplayPlayer(r, CHECKPOINT_INTERVAL, versusReplaySpan(r, g.endTick));
  });
  const fields = new FieldsPlayer(players);
  fields.seek(tick);
  const moments = players.map((p, seat) => momentsOf(p, decodeReplay(g.replays[seat]!).garbage ?? []));
  return { hashes: players.map((p) => p.hash()), endTick: fields.endTick, pieceTicks: fields.pieceTicks, snaps: fields.snapshot(), moments };
}

/** The sandbox shows exactly a seat's field at a moment: its board and the piece in play. */
async function expectSandboxAt(page: Page, snap: ReturnType<typeof expected>['snaps'][number]) {
  const sandbox = page.getByTestId('sandbox');
  await expect(sandbox).toHaveAttribute('data-ready', 'true');
  await expect(sandbox).toHaveAttribute('data-board', snap.board.join('/'));
  const a = snap.active!;
  await expect(sandbox).toHaveAttribute('data-active', `${a.type}:${a.rotation}:${a.x}:${a.y}`);
  // Nothing falls before the player's first key: a second on, the piece is where it was (at the
  // moment before a top-out, gravity and lock delay had locked it in half that, on a busy machine
  // before this test could look).
  await expect(sandbox).toHaveAttribute('data-waiting', 'true');
  await page.waitForTimeout(1_000);
  expect(await sandbox.getAttribute('data-active')).toBe(`${a.type}:${a.rotation}:${a.x}:${a.y}`);
  expect(await sandbox.getAttribute('data-pieces')).toBe('0');
}

async function expectFields(page: Page, hashes: string[]) {
  for (const [i, hash] of hashes.entries()) await expect(page.getByTestId(`versus-field-${i}`)).toHaveAttribute('data-hash', hash);
}

test('versus board, a profile with rating chart and match history, and a match replayed to its stored end', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: server.url, extraHTTPHeaders: { 'x-forwarded-for': uniqueAddress() } });
  const page = await context.newPage();
  await signIn(page, 'cat', PASSWORD);
  await expect(page.getByTestId('nav-profile')).toHaveText('cat');

  // Boards: from the solo boards to the versus ones. Ann and Ben are established; Cat is not, and
  // her pinned row says why.
  await page.goto('/leaderboards');
  await page.getByRole('navigation', { name: 'Boards' }).getByRole('link', { name: 'Versus' }).click();
  await expect(page).toHaveURL(/\/leaderboards\/versus$/);
  const board = page.getByTestId('leaderboard');
  await expect(board.locator('tbody tr').first()).toContainText(/ann|ben/);
  await expect(board).toContainText('ann');
  await expect(board).toContainText('ben');
  await expect(page.getByTestId('pinned-row')).toContainText('cat');
  await expect(page.getByTestId('pinned-row')).toContainText('?');
  await expect(page.getByTestId('pinned-note')).toContainText('Provisional');
  await expect(page.getByTestId('my-rank')).toContainText('provisional');
  // Pages, as the solo board's JSON route: one row a page, ranks carried across.
  const first = await (await page.request.get('/api/versus/leaderboards/battle?limit=1')).json();
  expect(first.rows.map((r: { rank: number }) => r.rank)).toEqual([1]);
  expect(first.me).toMatchObject({ rank: null, provisional: true });
  const second = await (await page.request.get(`/api/versus/leaderboards/battle?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)).json();
  expect(second.rows.map((r: { rank: number }) => r.rank)).toEqual([2]);
  expect(second.nextCursor).toBeNull();
  // This week's wins: every ranked win of the seeding counts (its matches were stored minutes ago).
  await page.getByRole('navigation', { name: 'Board' }).getByRole('link', { name: 'Wins this week' }).click();
  await expect(page).toHaveURL(/board=wins/);
  const wins = await (await page.request.get('/api/versus/leaderboards/battle?board=wins')).json();
  expect(wins.rows.reduce((n: number, r: { wins: number }) => n + r.wins, 0)).toBe(plan.matches.length);
  await expect(page.getByTestId('leaderboard').locator('tbody tr').first()).toContainText(wins.rows[0].player.username);

  // Ann's profile: an established rating, a chart point per ranked match, the history newest first in pages.
  await page.goto('/u/ann');
  await expect(page.getByTestId('versus-rating-value-battle')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('rating-chart-battle')).toHaveAttribute('data-points', String(plan.matches.length));
  await expect(page.getByTestId('rating-chart-race30')).toHaveAttribute('data-points', '0');
  const rows = page.getByTestId('match-row');
  await expect(rows).toHaveCount(20);
  await expect(rows.first()).toHaveAttribute('data-match', 'newcomer');
  await expect(rows.first()).toContainText('cat');
  await expect(rows.first().getByTestId('rating-change')).toContainText(/[+−±]\d+/);
  await page.getByRole('link', { name: 'Older matches →' }).click();
  await expect(rows).toHaveCount(plan.matches.length - 20);
  await expect(rows.last()).toHaveAttribute('data-match', 'rivalry0');
  // Her versus stats: a point per match, the averages, and nothing in a mode she has not played.
  await expect(page.getByTestId('stats-trend-battle')).toHaveAttribute('data-matches', String(plan.matches.length));
  await expect(page.getByTestId('stats-averages-battle').locator('td[data-rate="pps"]').first()).toHaveText(/^\d+\.\d\d$/);
  await expect(page.getByTestId('stats-line-battle-vs')).toBeVisible();
  await expect(page.getByTestId('stats-trend-race30')).toHaveAttribute('data-matches', '0');
  await page.goto('/u/cat');
  await expect(page.getByTestId('versus-rating-value-battle')).toHaveText(/^\d+\?$/);

  // The newest match in the viewer: both fields play on their own, and end where verification stored them.
  await page.goto('/u/ann');
  await rows.first().getByRole('link', { name: 'Watch' }).click();
  await expect(page).toHaveURL(/\/versus\/matches\/newcomer$/);
  const match: StoredMatch = await (await page.request.get('/api/versus/matches/newcomer')).json();
  const viewer = page.getByTestId('match-viewer');
  const end = expected(match, 0, 0).endTick;
  await expect(viewer).toHaveAttribute('data-end', String(end));
  await expect.poll(async () => Number(await viewer.getAttribute('data-tick'))).toBeGreaterThan(30);
  await expect(page.getByTestId('match-ratings')).toContainText('cat');
  await page.getByRole('button', { name: 'Jump to end' }).click();
  await expect(viewer).toHaveAttribute('data-tick', String(end));
  await expectFields(page, match.games[0]!.hashes);
  const last = expected(match, 0, end);
  for (const i of [0, 1]) {
    await expect(page.getByTestId(`versus-field-${i}`)).toHaveAttribute('data-score', String(last.snaps[i]!.score));
    await expect(page.getByTestId(`versus-field-${i}`)).toHaveAttribute('data-lines', String(last.snaps[i]!.lines));
  }
  const log = page.getByTestId('attack-log');
  await expect(log).toHaveAttribute('data-count', (await log.getAttribute('data-total'))!);
  // The stats table: a row per game and seat and the set's, every one measured; at the end of a
  // game the viewer's rates are the table's for that game.
  const table = page.getByTestId('match-stats');
  await expect(table.getByTestId('match-stats-row')).toHaveCount(match.games.length * 2 + (match.games.length > 1 ? 2 : 0));
  await expect(page.getByTestId('match-stats-missing')).toHaveCount(0);
  for (const i of [0, 1]) {
    const row = table.locator(`[data-game="1"][data-seat="${i}"]`);
    for (const rate of ['apm', 'pps', 'vs']) {
      const shown = Number(await page.getByTestId(`replay-stats-${i}`).getAttribute(`data-${rate}`));
      await expect(row.locator(`td[data-rate="${rate}"]`)).toHaveText(shown.toFixed(rate === 'pps' ? 2 : 1));
    }
  }

  // Every game of the set, from the selector, to its stored end.
  for (const game of match.games.slice(1)) {
    await page.getByTestId('game-selector').getByRole('link', { name: new RegExp(`^Game ${game.index + 1}:`) }).click();
    await expect(page).toHaveURL(new RegExp(`game=${game.index + 1}$`));
    await page.getByRole('button', { name: 'Jump to end' }).click();
    await expect(viewer).toHaveAttribute('data-tick', String(expected(match, game.index, 0).endTick));
    await expectFields(page, game.hashes);
  }

  // `?t=` opens paused at that moment, on both fields; the seek bar moves both; a step by piece goes to the next piece of either.
  await page.goto('/versus/matches/newcomer?t=2');
  await expect(viewer).toHaveAttribute('data-tick', '120');
  // The controls act once the playback is made (after hydration): a seek before it was lost.
  await expect(viewer).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('seek-bar').fill('200');
  await expect(viewer).toHaveAttribute('data-tick', '200');
  await expect(viewer).toHaveAttribute('data-playing', 'false');
  await expectFields(page, expected(match, 0, 200).hashes);
  await page.goto('/versus/matches/newcomer?t=4.5');
  await expect(viewer).toHaveAttribute('data-playing', 'false');
  await expect(viewer).toHaveAttribute('data-tick', '270');
  await expect(viewer).toHaveAttribute('data-ready', 'true');
  const at = expected(match, 0, 270);
  await expectFields(page, at.hashes);
  await page.getByRole('button', { name: 'Next piece' }).click();
  const next = at.pieceTicks.find((t) => t > 270)!;
  await expect(viewer).toHaveAttribute('data-tick', String(next));
  await expectFields(page, expected(match, 0, next).hashes);
  await expect(page.getByTestId('share-link')).toHaveAttribute('href', `/versus/matches/newcomer?t=${Math.round((next * 100) / 60) / 100}`);
  await context.close();
});

test('the versus pages pass axe in light and dark, signed in', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: server.url, extraHTTPHeaders: { 'x-forwarded-for': uniqueAddress() } });
  const page = await context.newPage();
  await signIn(page, 'cat', PASSWORD);
  await expect(page.getByTestId('nav-profile')).toHaveText('cat');
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const where of ['/leaderboards/versus', '/leaderboards/versus?board=wins', '/u/ann', '/u/cat', '/versus/matches/newcomer?t=4.5', '/versus/matches/rivalry3?game=2']) {
      await setThemeCookie(context, server.url, theme);
      await page.goto(where);
      await expectTheme(page, theme);
      found.push(...(await violations(page, `${theme}, ${where}`, theme === 'dark' ? 'colours' : undefined)));
    }
  }
  await context.close();
  expect(found).toEqual([]);
});

test('either seat of a stored match plays on in the sandbox, from any moment and from the moments that mattered', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: server.url, extraHTTPHeaders: { 'x-forwarded-for': uniqueAddress() } });
  const page = await context.newPage();
  const match: StoredMatch = await (await page.request.get('/api/versus/matches/newcomer')).json();
  const viewer = page.getByTestId('match-viewer');

  // "Play from here" as the second seat, at the moment shown: that seat's own field, exactly.
  await page.goto('/versus/matches/newcomer?t=4.5');
  await expect(viewer).toHaveAttribute('data-tick', '270');
  await page.getByTestId('play-from-here-1').click();
  await expect(page).toHaveURL(/\/practice\?match=newcomer&game=1&seat=1&tick=270$/);
  await expectSandboxAt(page, expected(match, 0, 270).snaps[1]!);
  await expect(page.getByRole('link', { name: `${match.seats[1].player!.username}'s field in game 1` })).toHaveAttribute('href', '/versus/matches/newcomer?t=4.5');

  // The loser's moments: the largest attack they received (its rows queued, about to rise) and the
  // last piece before they topped out; each opens there, and the game plays on by keyboard.
  const game = match.games[0]!;
  const loser = game.winnerSeat === 0 ? 1 : 0;
  const moments = expected(match, 0, 0).moments[loser]!;
  expect(moments.map((m) => m.kind)).toContain('topOut');
  await page.goto('/versus/matches/newcomer');
  const list = page.getByTestId('practice-moments');
  for (const m of moments) {
    await expect(list.getByTestId(`moment-${m.kind}-${loser}`)).toBeVisible();
    await list.getByTestId(`moment-${m.kind}-${loser}`).getByTestId('practise-moment').click();
    await expect(page).toHaveURL(new RegExp(`/practice\\?match=newcomer&game=1&seat=${loser}&tick=${m.tick}$`));
    const at = expected(match, 0, m.tick).snaps[loser]!;
    await expectSandboxAt(page, at);
    if (m.kind === 'attack') expect(at.garbageQueued).toBeGreaterThanOrEqual(m.rows);
    await page.keyboard.press('Space');
    await expect(page.getByTestId('sandbox')).toHaveAttribute('data-pieces', '1');
    await expect(page.getByTestId('sandbox')).toHaveAttribute('data-waiting', 'false');
    await page.goBack();
  }
  await context.close();
});
