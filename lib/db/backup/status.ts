// What /api/health reports about backups. The service (instrumentation.ts) and the health route
// are separate bundles in one process, so the record lives on globalThis.

export type BackupStatus = {
  /** The newest backup this site took or found in BACKUP_DIR at start. */
  last: { at: string; bytes: number; seconds: number | null } | null;
  lastError: { at: string; message: string } | null;
  /** Scheduled backups only. */
  schedule: { everySeconds: number; keep: number; nextAt: string | null } | null;
};

const holder = globalThis as typeof globalThis & { __linefallBackup?: BackupStatus };

export function backupStatus(): BackupStatus {
  holder.__linefallBackup ??= { last: null, lastError: null, schedule: null };
  return holder.__linefallBackup;
}
