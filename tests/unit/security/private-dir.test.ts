import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSql } from '@/lib/db/connect.js';
import { serveAdminSocket } from '@/lib/db/backup/service';

// The embedded database's files hold password hashes and tokens: nobody but the account running
// the site may read them, whatever umask the shell had (lib/db/private-dir.js).

let root: string;
let umask: number;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'linefall-private-'));
  chmodSync(root, 0o755); // a parent others may enter, as a home directory often is
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

/** Every path under `dir` (itself included) whose mode lets group or others in. */
function openToOthers(dir: string): string[] {
  const found = statSync(dir).mode & 0o077 ? [dir] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...openToOthers(full));
    else if (!entry.isSymbolicLink() && statSync(full).mode & 0o077) found.push(full);
  }
  return found;
}

describe('the embedded database’s directory', () => {
  it('is created 0700 and every file PGlite writes is private, under a umask of 022', async () => {
    const dataDir = path.join(root, 'data', 'pglite');
    const sql = await openSql({ kind: 'pglite', dataDir });
    await sql.exec('CREATE TABLE secrets (v text); INSERT INTO secrets VALUES (\'hash\');');
    await sql.close();
    expect(readdirSync(dataDir).length).toBeGreaterThan(5);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 60_000);

  it('open to others is refused at start, naming the path and the fix', async () => {
    const dataDir = path.join(root, 'pglite');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    await expect(openSql({ kind: 'pglite', dataDir })).rejects.toThrow(`${dataDir} is open to other accounts on this machine (mode 755)`);
    await expect(openSql({ kind: 'pglite', dataDir })).rejects.toThrow(`chmod -R go-rwx '${dataDir}'`);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('files an earlier version left readable are closed when it is opened', async () => {
    const dataDir = path.join(root, 'pglite');
    mkdirSync(path.join(dataDir, 'base'), { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
    chmodSync(path.join(dataDir, 'base'), 0o755);
    writeFileSync(path.join(dataDir, 'base', 'old-table'), 'x', { mode: 0o666 });
    chmodSync(path.join(dataDir, 'base', 'old-table'), 0o666);
    const sql = await openSql({ kind: 'pglite', dataDir }).catch(() => null); // not a database: opening may fail after the check
    await sql?.close();
    expect(openToOthers(dataDir)).toEqual([]);
    expect(statSync(path.join(dataDir, 'base', 'old-table')).mode & 0o777).toBe(0o600);
  }, 60_000);
});

describe('the backup admin socket', () => {
  it('listens inside a directory only this account may enter, even when the data directory’s parent is open', async () => {
    const dataDir = path.join(root, 'pglite');
    const server = await serveAdminSocket(undefined, dataDir);
    try {
      const sockets = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isSocket());
      expect(sockets).toHaveLength(1);
      const where = sockets[0]!.parentPath;
      expect(where).not.toBe(root);
      expect(statSync(where).mode & 0o777).toBe(0o700);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(existsSync(dataDir)).toBe(false);
  });
});
