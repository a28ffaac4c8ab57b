// A backup taken in the middle of the load (npm run db:backup, as an operator would): restored
// into a fresh database, it must hold every game accepted before the backup began, and nothing
// half-written: each game it holds is the very row the site kept, with its ticket spent and
// every best pointing at a game it holds.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { restoreInto } from '@/lib/db/backup/load.js';
import { resolveDbTarget } from '@/lib/db/target.js';
import { queryPglite, queryPostgres, throwawayDatabase } from '@/tests/support/postgres';

export function runBackup(databaseUrl: string, file: string) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['scripts/db-backup.mjs', file], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

type Query = <T>(sql: string) => Promise<T[]>;

/** Problems found (none = the backup is what it must be), and what it held. */
export async function checkBackup(options: { kind: 'pglite' | 'postgres'; file: string; acceptedBefore: string[]; live: Query }) {
  let query: Query;
  let drop: () => Promise<void>;
  let url: string;
  if (options.kind === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'linefall-load-restore-'));
    const dataDir = path.join(dir, 'pglite');
    url = `pglite:${dataDir}`;
    query = (sql) => queryPglite(dataDir, sql);
    drop = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const db = await throwawayDatabase('linefall_load_restore');
    url = db.url;
    query = (sql) => queryPostgres(db.url, sql);
    drop = db.drop;
  }
  const problems: string[] = [];
  try {
    await restoreInto(resolveDbTarget(url), options.file);
    const rowsSql = `SELECT "id", md5(row_to_json(g)::text) AS "digest" FROM "Game" g`;
    const restored = new Map((await query<{ id: string; digest: string }>(rowsSql)).map((r) => [r.id, r.digest]));
    const live = new Map((await options.live<{ id: string; digest: string }>(rowsSql)).map((r) => [r.id, r.digest]));
    const missing = options.acceptedBefore.filter((id) => !restored.has(id));
    if (missing.length) problems.push(`${missing.length} games accepted before the backup began are not in it (${missing.slice(0, 3).join(', ')}…)`);
    const different = [...restored].filter(([id, digest]) => live.get(id) !== digest);
    if (different.length) problems.push(`${different.length} games in the backup differ from the site's rows`);
    const [torn] = await query<{ unspent: number; orphanBests: number }>(`
      SELECT (SELECT count(*)::int FROM "Game" g JOIN "GameTicket" t ON t."id" = g."ticketId" WHERE t."usedAt" IS NULL) AS "unspent",
             (SELECT count(*)::int FROM "PersonalBest" b WHERE NOT EXISTS (SELECT 1 FROM "Game" g WHERE g."id" = b."gameId")) AS "orphanBests"`);
    if (torn!.unspent || torn!.orphanBests) problems.push(`half-written in the backup: ${JSON.stringify(torn)}`);
    return { problems, games: restored.size, of: live.size };
  } finally {
    await drop();
  }
}
