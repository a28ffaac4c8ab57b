// Scheduled backups (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP): one file per interval, timed from
// the newest file already in the directory, so restarts neither skip a backup nor pile them up.
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { backupFileName, FILE_PATTERN } from '@/lib/db/backup/format.js';
import { backupLive } from '@/lib/db/backup/live';
import { backupStatus } from '@/lib/db/backup/status';

type Options = { databaseUrl: string | undefined; dir: string; everyMs: number; keep: number };

// After a failure, try again sooner than a whole interval (a full disk freed, a database back).
const RETRY_MS = 10 * 60_000;

async function backupsIn(dir: string) {
  const names = (await readdir(dir)).filter((n) => FILE_PATTERN.test(n)).sort();
  return names.map((name) => path.join(dir, name));
}

/** One backup into the directory (named for `now`), then the oldest beyond `keep` removed. */
export async function runScheduledBackup({ databaseUrl, dir, keep }: Options, now = new Date()): Promise<string> {
  const file = path.join(dir, backupFileName(now));
  const partial = `${file}.partial`;
  try {
    await backupLive(databaseUrl, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  const all = await backupsIn(dir);
  for (const old of all.slice(0, Math.max(0, all.length - keep))) await rm(old, { force: true });
  return file;
}

export async function startBackupSchedule(options: Options) {
  const { dir, everyMs, keep } = options;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const name of await readdir(dir)) if (name.endsWith('.partial')) await rm(path.join(dir, name), { force: true });
  const status = backupStatus();
  const newest = (await backupsIn(dir)).at(-1);
  let firstIn = 0;
  if (newest) {
    const info = await stat(newest);
    status.last = { at: info.mtime.toISOString(), bytes: info.size, seconds: null };
    firstIn = Math.max(0, info.mtimeMs + everyMs - Date.now());
  }
  status.schedule = { everySeconds: everyMs / 1000, keep, nextAt: null };

  const plan = (ms: number) => {
    status.schedule!.nextAt = new Date(Date.now() + ms).toISOString();
    setTimeout(run, ms).unref();
  };
  const run = async () => {
    try {
      const file = await runScheduledBackup(options);
      console.log(`[backup] ${file} (${status.last?.bytes ?? 0} bytes in ${status.last?.seconds ?? 0} s)`);
      plan(everyMs);
    } catch (error) {
      console.error(`[backup] failed: ${error instanceof Error ? error.message : String(error)}`);
      plan(Math.min(everyMs, RETRY_MS));
    }
  };
  plan(firstIn);
}
