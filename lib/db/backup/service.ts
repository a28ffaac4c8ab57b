// Started once per server process by instrumentation.ts: the admin socket that
// `npm run db:backup` talks to (embedded database only) and the backup schedule.
import { existsSync, unlinkSync } from 'node:fs';
import http from 'node:http';
import { parseEnv } from '@/lib/env.js';
import { resolveDbTarget } from '@/lib/db/target.js';
import { adminSocketDir, adminSocketPath, serverHolds } from '@/lib/db/backup/admin.js';
import { ownPrivateDir } from '@/lib/db/private-dir.js';
import { backupLive } from '@/lib/db/backup/live';
import { startBackupSchedule } from '@/lib/db/backup/schedule';

const holder = globalThis as typeof globalThis & { __linefallBackupService?: boolean };

/** Listens on the data directory's admin socket, inside a directory only this account may enter. */
export async function serveAdminSocket(databaseUrl: string | undefined, dataDir: string): Promise<http.Server> {
  ownPrivateDir(adminSocketDir(dataDir));
  const socket = adminSocketPath(dataDir);
  if (existsSync(socket)) {
    // Another live site on the same directory would be a bug of its own; a dead one leaves its socket.
    if (await serverHolds(dataDir)) throw new Error(`another server already holds ${dataDir}`);
    unlinkSync(socket);
  }
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url !== '/backup' && req.url !== '/ping')) {
      res.writeHead(404).end('unknown admin request');
      return;
    }
    if (req.url === '/ping') return void res.end('ok');
    res.writeHead(200, { 'content-type': 'application/gzip' });
    backupLive(databaseUrl, res).then(
      ({ bytes }) => console.log(`[backup] sent a backup of ${bytes} bytes over the admin socket`),
      (error: unknown) => {
        console.error(`[backup] failed: ${error instanceof Error ? error.message : String(error)}`);
        res.destroy(); // the client sees a cut response, never a file that looks whole
      },
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
  server.unref();
  process.on('exit', () => {
    try {
      unlinkSync(socket);
    } catch {}
  });
  return server;
}

export async function startBackupService() {
  if (holder.__linefallBackupService) return;
  holder.__linefallBackupService = true;
  const env = parseEnv(process.env);
  const target = resolveDbTarget(env.DATABASE_URL);
  try {
    if (target.kind === 'pglite' && target.dataDir) await serveAdminSocket(env.DATABASE_URL, target.dataDir);
    if (env.BACKUP_DIR) await startBackupSchedule({ databaseUrl: env.DATABASE_URL, dir: env.BACKUP_DIR, everyMs: env.BACKUP_EVERY, keep: env.BACKUP_KEEP });
  } catch (error) {
    console.error(`[backup] not started: ${error instanceof Error ? error.message : String(error)}`);
  }
}
