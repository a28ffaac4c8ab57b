// The server's side of the embedded database's thread (lib/db/pglite-thread.mjs, decision 0035):
// what the Prisma adapter, the hot statements, the migrator and backups call, each call a message.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { messages } from '@electric-sql/pglite';

/** How the thread decodes rows: as pglite-prisma-adapter asks, for the hot statements, or PGlite's own. */
export type Parsers = 'prisma' | 'raw' | 'plain';

export type Request =
  | { id: number; op: 'query'; sql: string; params: unknown[]; rowMode: 'array' | 'object'; parsers: Parsers; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; rollback: boolean }
  | { id: number; op: 'close' };

/** A request before it is numbered (Omit over each member of the union, not over their common keys). */
type Unnumbered = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

type WireError = { message: string; name?: string; database?: boolean } & Record<string, unknown>;
export type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: WireError };

export type Results<T> = { rows: T[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number };

/** A session: the whole database, or one transaction on it. */
export type PgliteSession = {
  query<T>(sql: string, params?: unknown[], options?: { rowMode?: 'array' | 'object' }): Promise<Results<T>>;
  exec(sql: string): Promise<unknown>;
};
export type PgliteTransaction = PgliteSession & { rollback(): Promise<void> };

/** What pglite-prisma-adapter 0.6.1 calls on its client, with Prisma's row decoding. */
export type PrismaPgliteView = PgliteSession & { transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T> };

/** The message PGlite itself throws once closed: lib/db/errors.ts reads it as "database away". */
const CLOSED = 'PGlite is closed';

/** The thread's module, from the checkout the server runs in (as the verification pool's are). */
export const pgliteThreadFile = (root = process.cwd()) => pathToFileURL(join(root, 'lib', 'db', 'pglite-thread.mjs'));

/** A PostgreSQL error as PGlite throws it, so the Prisma adapter turns it into Prisma's own (unique violations included). */
function toError(wire: WireError): Error {
  if (!wire.database) return Object.assign(new Error(wire.message), wire.name && wire.name !== 'Error' ? { name: wire.name } : {});
  const error = new messages.DatabaseError(wire.message, 0, 'error');
  for (const [key, value] of Object.entries(wire)) if (key !== 'message' && key !== 'name' && key !== 'database') Object.assign(error, { [key]: value });
  return error;
}

/**
 * PGlite on a thread of its own. Statements are sent as they come; the thread's PGlite runs them
 * one at a time, as in process. The thread keeps the process alive only while it owes answers.
 */
export class PgliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private isClosed = false;
  private readonly ready: Promise<void>;

  private constructor(dataDir: string | null) {
    this.worker = new Worker(pgliteThreadFile(), { workerData: { dataDir } });
    // Answering the opening (id 0) is the thread's first message.
    this.ready = new Promise((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject }));
    this.worker.on('message', (reply: Reply) => this.settle(reply));
    // A thread that dies (a crash, an out-of-memory kill) is a database that closed: callers are
    // answered, and the next request opens it again (lib/db/live.ts).
    this.worker.on('error', (error) => this.lost(`${CLOSED}: its thread failed: ${error.message}`));
    this.worker.on('exit', (code) => this.lost(`${CLOSED}: its thread exited (code ${code})`));
  }

  /** Starts the thread and waits for the database to open. */
  static async open(dataDir: string | null): Promise<PgliteThread> {
    const thread = new PgliteThread(dataDir);
    try {
      await thread.ready;
    } catch (error) {
      await thread.worker.terminate();
      throw error;
    }
    return thread;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(toError(reply.error));
  }

  private lost(message: string): void {
    this.isClosed = true;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiting) w.reject(new Error(message));
  }

  private call<T>(request: Unnumbered, whenClosed = true): Promise<T> {
    if (this.isClosed && whenClosed) return Promise.reject(new Error(CLOSED));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, id } as Request);
    });
  }

  /** Dates go over as their UTC instant, as Prisma and the `pg` driver send them. */
  query<T>(sql: string, params: readonly unknown[], parsers: Parsers, rowMode: 'array' | 'object' = 'object', tx?: number): Promise<Results<T>> {
    const values = params.map((v) => (v instanceof Date ? v.toISOString() : v));
    return this.call<Results<T>>({ op: 'query', sql, params: values, rowMode, parsers, tx });
  }

  exec(sql: string, tx?: number): Promise<unknown> {
    return this.call({ op: 'exec', sql, tx });
  }

  /** Runs `fn` in one transaction: committed when it returns, rolled back when it throws or calls `rollback`. */
  async transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>, parsers: Parsers): Promise<T> {
    // The thread knows the transaction by the id of the request that began it.
    const tx = this.nextId;
    await this.call<null>({ op: 'begin' });
    let rollback = false;
    const session: PgliteTransaction = {
      query: (sql, params = [], options) => this.query(sql, params, parsers, options?.rowMode, tx),
      exec: (sql) => this.exec(sql, tx),
      rollback: async () => void (rollback = true),
    };
    let result: T;
    try {
      result = await fn(session);
    } catch (error) {
      await this.call({ op: 'end', tx, rollback: true }).catch(() => {});
      throw error;
    }
    await this.call({ op: 'end', tx, rollback });
    return result;
  }

  /** What the Prisma adapter is given: PGlite's calls, rows decoded as it asks. */
  prismaView(): PrismaPgliteView {
    return {
      query: (sql, params = [], options) => this.query(sql, params, 'prisma', options?.rowMode),
      exec: (sql) => this.exec(sql),
      transaction: (fn) => this.transaction(fn, 'prisma'),
    };
  }

  /** Closes the database (queries still running are answered by the thread, or fail as closed) and ends the thread. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    try {
      await this.call({ op: 'close' }, false);
    } finally {
      await this.worker.terminate();
    }
  }
}
