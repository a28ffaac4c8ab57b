import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { newClient, playRanked, signUpAndIn } from '@/tests/api/client';
import { adminSocketDir, adminSocketPath } from '@/lib/db/backup/admin.js';
import { createAppServer } from '@/tests/support/app-server';
import { throwawayDatabase } from '@/tests/support/postgres';

// The operator's commands against a real site: scheduled backups reported on /api/health,
// `db:backup` of the running embedded site (taken by the site itself), and `db:move` to a
// new PostgreSQL database, on which a site then serves the same boards and replays.

function run(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [`scripts/${script}`, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

async function site(url: string) {
  const api = await newClient(url);
  const boards = await Promise.all(['marathon', 'sprint'].map(async (mode) => (await api.get(`/api/leaderboards/${mode}?period=all`)).json()));
  const ids: string[] = boards[0].rows.map((r: { gameId: string }) => r.gameId);
  const replays = await Promise.all(ids.map(async (id) => (await api.get(`/api/replays/${id}`)).json()));
  return { boards, replays };
}

test.skip(process.env.E2E_POSTGRES === '0', 'moving to PostgreSQL needs a PostgreSQL server (npm test says so loudly when it has none)');

test('scheduled backups, a backup of the running embedded site, and a move to PostgreSQL that serves the same boards', async () => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'linefall-backup-e2e-'));
  const dataUrl = `pglite:${path.join(dir, 'pglite')}`;
  const backups = path.join(dir, 'backups');
  const postgres = await throwawayDatabase('linefall_move');
  const embedded = await createAppServer(dataUrl, { BACKUP_DIR: backups, BACKUP_EVERY: '1h', BACKUP_KEEP: '2' });
  let moved: Awaited<ReturnType<typeof createAppServer>> | null = null;
  try {
    await embedded.start();
    // The database's files and the admin socket's directory are the site's account's alone.
    expect(statSync(path.join(dir, 'pglite')).mode & 0o077).toBe(0);
    expect(statSync(adminSocketDir(path.join(dir, 'pglite'))).mode & 0o777).toBe(0o700);
    expect(existsSync(adminSocketPath(path.join(dir, 'pglite')))).toBe(true);
    // The first scheduled backup is taken at start (the directory had none) and reported.
    await expect.poll(async () => (await (await fetch(`${embedded.url}/api/health`)).json()).backup.last?.bytes ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);
    const health = (await (await fetch(`${embedded.url}/api/health`)).json()).backup;
    expect(health.schedule).toMatchObject({ everySeconds: 3600, keep: 2 });
    expect(readdirSync(backups)).toEqual([expect.stringMatching(/^linefall-\d{8}T\d{6}Z\.ndjson\.gz$/)]);

    for (let player = 0; player < 2; player++) {
      const api = await newClient(embedded.url);
      await signUpAndIn(api);
      // Live, so the game ranks: the boards compared below must hold it (HTTP-ticket games are held as unpaced).
      await playRanked(api, 'marathon');
    }
    const before = await site(embedded.url);
    expect(before.boards[0].rows).toHaveLength(2);

    // While the site runs, only it may open the directory: the command asks it for the backup.
    const file = path.join(dir, 'manual.ndjson.gz');
    const backup = await run('db-backup.mjs', [file], { DATABASE_URL: dataUrl });
    expect(backup.out).toContain('taken by the running site');
    expect(backup.code).toBe(0);
    expect(statSync(file).mode & 0o077).toBe(0);
    const refused = await run('db-restore.mjs', [file, '--force'], { DATABASE_URL: dataUrl });
    expect(refused).toMatchObject({ code: 1, out: expect.stringContaining('a running site holds') });

    await embedded.stop();
    const move = await run('db-move.mjs', ['--to', postgres.url], { DATABASE_URL: dataUrl });
    expect(move.out).toContain(`DATABASE_URL=${postgres.url}`);
    expect(move.out).toContain('the source still matches the copy');
    expect(move.code).toBe(0);
    expect(existsSync(adminSocketPath(path.join(dir, 'pglite')))).toBe(false);

    moved = await createAppServer(postgres.url);
    await moved.start();
    expect(await site(moved.url)).toEqual(before);
  } finally {
    await embedded.stop();
    await moved?.stop();
    await postgres.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});
