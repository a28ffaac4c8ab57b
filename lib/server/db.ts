import 'server-only';
import { openPrisma, type Db } from '@/lib/db/adapter';
import { resolveDbTarget } from '@/lib/db/target.js';
import { env } from './env';

export type { Db };

// One client per process. Kept on globalThis so that dev-mode hot reloads, which re-run
// this module, reuse it: PGlite allows only one open handle on a data directory.
const holder = globalThis as typeof globalThis & { __linefallDb?: Promise<Db> };

/** The process's Prisma client, opened on first use (never at import: `next build` imports this). */
export function getDb(): Promise<Db> {
  holder.__linefallDb ??= openPrisma(resolveDbTarget(env.DATABASE_URL));
  return holder.__linefallDb;
}
