import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createAppServer, type AppServer } from '@/tests/support/app-server';

// The ranked 2v2 board and profile against a server of their own, on an embedded database seeded
// before it starts (tests/support/seed-teams.ts): a settled player is on the board, a provisional
// one is not, and the profile shows the settled player's 2v2 rating.
let server: AppServer;
let dir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(path.join(tmpdir(), 'linefall-teams-e2e-'));
  const databaseUrl = `pglite:${path.join(dir, 'pglite')}`;
  server = await createAppServer(databaseUrl);
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'tests/support/seed-teams.ts'], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`seeding failed (${code}): ${err}`);
  await server.start();
});

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the ranked 2v2 board shows a settled player and not a provisional one; the profile shows the 2v2 rating', async ({ page }) => {
  await page.goto(`${server.url}/leaderboards/teams`);
  const rows = page.getByTestId('team-board-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('duo');
  await expect(rows.first()).toContainText('1712');
  await expect(page.getByRole('link', { name: '2v2' })).toBeVisible();
  await rows.first().getByRole('link', { name: 'duo' }).click();
  await expect(page.getByTestId('team-rating')).toContainText('Rating 1712');
  await expect(page.getByTestId('rating-chart-teams2')).toHaveAttribute('data-points', '0');
});
