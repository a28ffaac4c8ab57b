import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from '@/lib/generated/prisma/client';
import { applyMigrations } from '@/lib/db/migrate.js';
import { PgliteThread, type PgliteSession, type PgliteTransaction } from '@/lib/db/pglite-client';
import { PgliteThreadAdapter } from '@/lib/db/pglite-prisma';
import type { DbTarget } from '@/lib/db/target.js';

export type Db = PrismaClient;

/**
 * A statement sent straight to the driver, past Prisma's query compiler: for the few statements
 * every submission or request makes. Prisma hands each raw statement and its parameters through
 * its compiler (WebAssembly) both ways, ~0.15 ms of CPU for a small one and most of a
 * millisecond for a submission's store, whose parameters carry the replay. Rows come back as
 * `$queryRaw` gives them for the types those statements use (text, integers, booleans, JSON, and
 * `timestamp` read as UTC); parameters as Prisma sends them (a Date as its UTC instant).
 */
export type RawSql = <T>(query: Prisma.Sql) => Promise<T[]>;

/** The embedded database itself, rows decoded as PGlite does: for a backup's snapshot and for tests. */
export type EmbeddedDb = PgliteSession & { transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T> };

/** An open database: the client, its driver for hot statements, whether it died under us, how to let it go, and the embedded engine (backups). */
export type DbHandle = { db: Db; sql: RawSql; broken: () => boolean; close: () => Promise<void>; pglite: EmbeddedDb | null };

const TIMESTAMP_OID = 1114;
/** `timestamp without time zone` holds UTC here (Prisma writes it so); the drivers would read it as local time. */
const utcTimestamp = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
const paramOf = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
const PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID && format !== 'binary' ? utcTimestamp : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Opens a Prisma client on the target. An in-memory PGlite starts empty every time, so it
 * is migrated here; persistent databases are migrated by `npm run db:migrate` (run by
 * `npm start`) so that a web request never waits on a schema change.
 */
/** Connections per instance to PostgreSQL. */
export const POOL_SIZE = 10;
/**
 * How long a query waits for a free connection before the API answers 503: a transaction waits as
 * long (Prisma's own default is 2 s), so a burst that holds every connection for a moment slows
 * sign-ups down instead of failing them.
 */
const POOL_WAIT_MS = 5_000;
/** The embedded database's one session: a transaction waits its turn behind a burst (decision 0035). */
const EMBEDDED_WAIT_MS = 30_000;

export async function openPrisma(target: DbTarget): Promise<DbHandle> {
  if (target.kind === 'postgres') {
    // A PostgreSQL pool heals itself: broken connections are dropped and new ones opened.
    // One pool for both: Prisma's statements and the raw ones share its connections.
    const pool = new pg.Pool({ connectionString: target.url, max: POOL_SIZE, connectionTimeoutMillis: POOL_WAIT_MS });
    // An idle connection that drops is an event on the pool: unheard, it would end the process.
    pool.on('error', (error) => console.warn(`[db] an idle connection failed: ${error.message}`));
    const db = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: POOL_WAIT_MS } });
    const sql: RawSql = async <T>(query: Prisma.Sql) =>
      (await pool.query({ text: query.text, values: query.values.map(paramOf), types: PG_TYPES })).rows as T[];
    const close = async () => {
      await db.$disconnect();
      await pool.end();
    };
    return { db, sql, broken: () => false, close, pglite: null };
  }
  // PGlite runs its WebAssembly PostgreSQL on a thread of its own (decision 0035), off the event loop.
  const pglite = await PgliteThread.open(target.dataDir);
  if (!target.dataDir) {
    await applyMigrations({
      exec: (sql) => pglite.exec(sql),
      query: async (sql, params) => ({ rows: (await pglite.query<Record<string, unknown>>(sql, params ?? [], 'plain')).rows }),
    });
  }
  // A transaction waits for the one session, which every other transaction holds in turn: the event
  // loop now runs meanwhile, so a pool's 5 s ran out under a burst of sign-ups (503s in the API
  // suite). In process the loop itself waited and none failed; a queue of one session waits as long.
  const db = new PrismaClient({ adapter: new PgliteThreadAdapter(pglite), transactionOptions: { maxWait: EMBEDDED_WAIT_MS } });
  const sql: RawSql = async <T>(query: Prisma.Sql) => (await pglite.query<T>(query.text, query.values, 'raw')).rows;
  const embedded: EmbeddedDb = {
    query: (text, params = []) => pglite.query(text, params, 'plain'),
    exec: (text) => pglite.exec(text),
    transaction: (fn) => pglite.transaction(fn, 'plain'),
  };
  // An embedded database that closed (or whose thread died) stays closed: the caller must open it again.
  return { db, sql, broken: () => pglite.closed, close: () => pglite.close(), pglite: embedded };
}
