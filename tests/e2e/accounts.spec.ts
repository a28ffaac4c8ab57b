import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { createAppServer, type AppServer } from '@/tests/support/app-server';
import { startMailbox } from '@/tests/support/mailbox';
import { newClient, playRanked, playScriptLive, signUpAndIn } from '@/tests/api/client';
import { signIn, signUp, uniqueUsername } from '@/tests/e2e/fixtures';

// Accounts and moderation need mail and a moderator made by `npm run admin`, which the shared
// servers have neither of: these journeys get their own server (embedded database in a temporary
// directory, stopped while the admin command opens it) and a real SMTP server to read mail from.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 5;
const BASE = `http://127.0.0.1:${PORT}`;
let server: AppServer;
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
let dir: string;
const run = promisify(execFile);

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  mailbox = await startMailbox(PORT + 1);
  dir = mkdtempSync(path.join(tmpdir(), 'linefall-accounts-'));
  server = await createAppServer(`pglite:${path.join(dir, 'pglite')}`, { PORT: String(PORT), SMTP_URL: mailbox.url, LINEFALL_FAULT_INJECTION: '0' });
  await server.start();
});

test.afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const board = (page: Page) => page.goto('/leaderboards?mode=marathon');

test('a player changes the password, resets a forgotten one by mail, then deletes the account and leaves the board', async ({ page }) => {
  const username = uniqueUsername('acct');
  const email = `${username}@example.org`;
  await signUp(page, username, 'first-password-1');
  // A game on the board, played live through this browser's session (only live games rank).
  await playRanked(page.request, 'marathon');
  await board(page);
  await expect(page.getByTestId('leaderboard')).toContainText(username);

  // Change the password; this browser stays signed in, and the new one works.
  await page.goto('/account');
  const passwordForm = page.getByRole('form', { name: 'Change password' });
  await passwordForm.getByLabel('Current password').fill('first-password-1');
  await passwordForm.getByLabel('New password').fill('second-password-2');
  await passwordForm.getByRole('button', { name: 'Change password' }).click();
  await expect(passwordForm.getByRole('status')).toHaveText(/Password changed/);
  await page.reload();
  await expect(page.getByTestId('nav-profile')).toHaveText(username);

  // Add an email, confirmed through the link in the mail.
  const emailForm = page.getByRole('form', { name: 'Email' });
  await emailForm.getByLabel('Email').fill(email);
  await emailForm.getByRole('button', { name: 'Add email' }).click();
  await expect(emailForm.getByRole('status')).toHaveText(/Check your inbox/);
  await page.goto(await mailbox.linkTo(email, '/account/email?token='));
  await page.getByRole('button', { name: 'Confirm this address' }).click();
  await expect(page.getByRole('status')).toHaveText(`${email} is confirmed: password resets will go there.`);

  // Signed out, the old password fails and the new one works.
  await page.context().clearCookies();
  await signIn(page, username, 'first-password-1');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Wrong username or password.');
  await signIn(page, username, 'second-password-2');
  await expect(page.getByTestId('nav-profile')).toHaveText(username);

  // Forgotten: the answer is the same for an unknown address; the mailed link works once.
  await page.context().clearCookies();
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  const forgot = page.getByRole('form', { name: 'Reset by email' });
  await forgot.getByLabel('Email').fill('nobody-here@example.org');
  await forgot.getByRole('button', { name: 'Send reset link' }).click();
  const sameAnswer = 'If an account has that confirmed address, a link to reset its password is on its way. It works for 30 minutes.';
  await expect(forgot.getByRole('status')).toHaveText(sameAnswer);
  await forgot.getByLabel('Email').fill(email.toUpperCase());
  await forgot.getByRole('button', { name: 'Send reset link' }).click();
  await expect(forgot.getByRole('status')).toHaveText(sameAnswer);
  const link = await mailbox.linkTo(email, '/reset-password?token=');
  expect(mailbox.count('nobody-here@example.org')).toBe(0);
  await page.goto(link);
  await page.getByLabel('New password').fill('third-password-3');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password is changed');
  await page.goto(link);
  await page.getByLabel('New password').fill('fourth-password-4');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByTestId('form-error')).toHaveText(/expired or was already used/);
  await signIn(page, username, 'third-password-3');
  await expect(page.getByTestId('nav-profile')).toHaveText(username);

  // Download the data, then delete the account: signed out, and gone from the board.
  await page.goto('/account');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download my data' }).click();
  expect((await download).suggestedFilename()).toMatch(new RegExp(`^linefall-${username}-\\d{4}-\\d\\d-\\d\\d\\.json$`));
  const remove = page.getByRole('form', { name: 'Delete account' });
  await remove.getByLabel('Password').fill('third-password-3');
  await remove.getByLabel('Type “delete my account”').fill('delete my account');
  await remove.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Your account is deleted' })).toBeVisible();
  await board(page);
  await expect(page.getByTestId('leaderboard').or(page.getByText(/No games/i)).first()).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText(username);
  expect((await page.goto(`/u/${username}`))?.status()).toBe(404);
});

test('a player reports a game; a non-moderator reaches no moderation route; a moderator bans the cheater and the board changes', async ({ page, browser }) => {
  // The cheater plays one game onto the board and one the timing review holds.
  const cheatApi = await newClient(BASE);
  const cheat = await signUpAndIn(cheatApi, uniqueUsername('cheat'));
  const { ticket } = await playRanked(cheatApi, 'marathon');
  // Live too: over a plain HTTP ticket it would be held as unpaced, which no reviewer sees.
  // roboticShortGame's rhythm (every key held one tick, pressed every second tick), not cut to a seed.
  const robotic = Array.from({ length: 640 }, (_, i) => i).flatMap((i) => {
    const key = i < 40 ? ('rotateCW' as const) : ('hardDrop' as const);
    return [{ tick: i * 2, key, down: true }, { tick: i * 2 + 1, key, down: false }];
  });
  const held = await playScriptLive(cheatApi, 'ultra', robotic);
  expect(held.status(), await held.text()).toBe(202);

  // A witness reports it from the replay page.
  const witness = uniqueUsername('wit');
  await signUp(page, witness, 'witness-password-1');
  await page.goto(`/replays/${ticket.gameId}`);
  await page.getByRole('button', { name: 'Report' }).click();
  const report = page.getByRole('form', { name: 'Report this game' });
  await report.getByLabel(/Cheating/).check();
  await report.getByLabel('Note (optional)').fill('far too fast');
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(report.getByRole('status')).toHaveText('Thanks: a moderator will look at it.');

  // The witness is no moderator: the page is a 404, every moderation route a 403.
  expect((await page.goto('/moderation'))?.status()).toBe(404);
  expect((await page.request.get('/api/moderation/queue')).status()).toBe(403);
  expect((await page.request.post('/api/moderation/actions', { data: { action: 'ban', username: cheat, reason: 'x' } })).status()).toBe(403);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Moderation' })).toHaveCount(0);

  // The first moderator is made on the server's shell (the embedded database is the server's alone meanwhile).
  const moderator = uniqueUsername('mod');
  const modApi = await newClient(BASE);
  await signUpAndIn(modApi, moderator);
  await server.stop();
  await run('npx', ['tsx', '--conditions=react-server', 'scripts/admin.ts', 'grant', moderator, 'admin'], {
    env: { ...process.env, DATABASE_URL: `pglite:${path.join(dir, 'pglite')}`, NODE_ENV: 'production', AUTH_SECRET: 'resilience-secret-resilience-secret-00' },
  });
  await server.start();

  const mod = await browser.newPage({ baseURL: BASE });
  await signIn(mod, moderator, 'api-password-123');
  await mod.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Moderation' }).click();
  await expect(mod.getByTestId('report')).toContainText(`${witness} reported a game by ${cheat}`);
  await expect(mod.getByTestId('held-game')).toContainText('robotic_rhythm');
  await mod.getByTestId('held-game').getByRole('link', { name: 'Watch here' }).click();
  await expect(mod.getByTestId('timing-features')).toBeVisible();
  await expect(mod.locator('canvas').first()).toBeVisible();

  await board(page);
  await expect(page.getByTestId('leaderboard')).toContainText(cheat);
  const decision = mod.getByTestId('report').getByRole('form');
  await decision.getByLabel(/Reason/).fill('scripted inputs');
  await decision.getByRole('button', { name: 'Ban player' }).click();
  await expect(mod.getByTestId('report')).toHaveCount(0);
  await expect(mod.getByTestId('held-game')).toHaveCount(0);
  await expect(mod.getByTestId('audit-log')).toContainText(`${moderator}ban${cheat}—scripted inputs`);

  await board(page);
  await expect(page.getByRole('main')).not.toContainText(cheat);
  // The banned player is told why, and cannot start another game.
  const refused = await cheatApi.post('/api/games', { data: { mode: 'marathon' } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('scripted inputs');
  // Deleting the banned account does not free its name: the ban outlives it.
  expect((await cheatApi.delete('/api/account', { data: { password: 'api-password-123', confirm: 'delete my account' } })).status()).toBe(200);
  const again = await newClient(BASE);
  const comeback = await again.post('/api/account', { data: { username: cheat.toUpperCase(), password: 'api-password-123' } });
  expect(comeback.status()).toBe(409);
  expect(((await comeback.json()) as { error: { code: string } }).error.code).toBe('username_banned');
  await again.dispose();

  // The admin makes the witness a moderator on the site; the audit log says so, and the witness
  // now reaches the moderation page. The last admin cannot step down.
  const roles = mod.getByRole('form', { name: 'Change a player’s role' });
  await roles.getByLabel('Username').fill(witness);
  await roles.getByLabel('Role').selectOption('moderator');
  await roles.getByRole('button', { name: 'Set role' }).click();
  await expect(roles.getByRole('status')).toHaveText(`${witness} is now a moderator.`);
  await expect(mod.getByTestId('staff')).toContainText(`${witness} · moderator`);
  await expect(mod.getByTestId('audit-log')).toContainText(`${moderator}grant${witness}`);
  expect((await page.goto('/moderation'))?.status()).toBe(200);
  await roles.getByLabel('Username').fill(moderator);
  await roles.getByLabel('Role').selectOption('player');
  await roles.getByRole('button', { name: 'Set role' }).click();
  await expect(roles.getByRole('alert')).toContainText('last admin');
  await mod.close();
  await cheatApi.dispose();
  await modApi.dispose();
});

test('ranked versus is closed to a brand-new account, and the versus page says why', async ({ page }) => {
  // This server keeps the default RANKED_ACCOUNT_AGE (24h); the shared test servers open ranked to every account.
  await signUp(page, uniqueUsername('new'), 'brand-new-pw-1');
  await page.goto('/versus');
  const quick = page.getByRole('region', { name: 'Quick match' });
  await expect(quick.getByLabel(/Ranked/)).toBeChecked();
  await quick.getByRole('button', { name: 'Find a match' }).click();
  await expect(page.getByTestId('versus-error')).toContainText('Ranked versus opens to new accounts after 3 finished solo games (you have 0)');
  await expect(quick.getByRole('button', { name: 'Find a match' })).toBeVisible();
});
