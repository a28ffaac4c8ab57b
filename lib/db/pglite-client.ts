// The server's side of the embedded database's thread (lib/db/pglite-thread.mjs, decision 0035):
// what the Prisma adapter, the hot statements, the migrator and backups call, each call a message.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { messages } from '@electric-sql/pglite';
import { claimDir } from '@/lib/db/pglite-dirs';

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

/**
 * How long a close waits for the thread to roll back and close PGlite before ending it. Ending a
 * thread in the middle of a write leaves PGlite's directory to its recovery, so this is for a
 * thread that will never answer, not for a long statement: as long as a transaction may wait.
 */
const CLOSE_WAIT_MS = 30_000;

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
  /** Resolves once the thread has exited: only then may another PGlite open its directory. */
  readonly exited: Promise<unknown>;

  private constructor(dataDir: string | null) {
    this.worker = new Worker(pgliteThreadFile(), { workerData: { dataDir } });
    this.exited = new Promise((resolve) => this.worker.once('exit', resolve));
    // Answering the opening (id 0) is the thread's first message.
    this.ready = new Promise((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject }));
    this.worker.on('message', (reply: Reply) => this.settle(reply));
    // A thread that dies (a crash, an out-of-memory kill) is a database that closed: callers are
    // answered, and the next request opens it again (lib/db/live.ts).
    this.worker.on('error', (error) => this.lost(`${CLOSED}: its thread failed: ${error.message}`));
    this.worker.on('exit', (code) => this.lost(`${CLOSED}: its thread exited (code ${code})`));
  }

  /** Starts the thread and waits for the database to open; on a directory, once no other thread holds it. */
  static open(dataDir: string | null): Promise<PgliteThread> {
    return dataDir === null ? PgliteThread.start(null) : claimDir(dataDir, () => PgliteThread.start(dataDir));
  }

  private static async start(dataDir: string | null): Promise<PgliteThread> {
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
      await this.end(tx, true).catch(() => {});
      throw error;
    }
    await this.end(tx, rollback);
    return result;
  }

  /**
   * Ends a transaction. PostgreSQL refusing the COMMIT (a deferred constraint) ends it and frees
   * the session: the caller hears why. Any other failure leaves the session in a state nobody
   * knows, perhaps held for good: the handle is broken, so later calls fail as closed (and the
   * next request opens it again) instead of waiting behind it forever.
   */
  private async end(tx: number, rollback: boolean): Promise<void> {
    try {
      await this.call({ op: 'end', tx, rollback });
    } catch (error) {
      if (!(error instanceof messages.DatabaseError)) this.broke();
      throw error;
    }
  }

  private broke(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    // Its exit answers every caller still waiting "closed" (lost, above).
    void this.worker.terminate();
  }

  /** What the Prisma adapter is given: PGlite's calls, rows decoded as it asks. */
  prismaView(): PrismaPgliteView {
    return {
      query: (sql, params = [], options) => this.query(sql, params, 'prisma', options?.rowMode),
      exec: (sql) => this.exec(sql),
      transaction: (fn) => this.transaction(fn, 'prisma'),
    };
  }

  /**
   * Closes the database and ends the thread: open transactions are rolled back, queries still
   * running are answered by the thread or fail as closed. A thread that has not closed within
   * CLOSE_WAIT_MS is ended anyway. Answers once the thread has exited.
   */
  async close(): Promise<void> {
    if (this.isClosed) {
      await this.exited;
      return;
    }
    this.isClosed = true;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    try {
      await Promise.race([this.call({ op: 'close' }, false), waited]);
    } finally {
      clearTimeout(timer);
      await this.worker.terminate();
    }
  }
}
