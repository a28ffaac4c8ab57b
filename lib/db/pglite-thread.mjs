// The embedded database's own thread (decision 0035): PGlite runs its WebAssembly PostgreSQL and
// decodes its wire protocol here, so neither holds the event loop that serves requests and live
// games. The server talks to it through lib/db/pglite-client.ts. Plain JavaScript: Node starts it
// as it is, with no TypeScript loader.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { messages, PGlite, types } from '@electric-sql/pglite';
import { closeTree, preparePgliteDir } from './private-dir.js';

/** @typedef {import('./pglite-client').Request} Request */
/** @typedef {import('./pglite-client').Reply} Reply */
/** @typedef {import('@electric-sql/pglite').Transaction} Transaction */

if (!parentPort) throw new Error('pglite-thread.mjs runs as a worker thread');
const port = parentPort;
/** @type {{ dataDir: string | null }} */
const { dataDir } = workerData;

// Row decoding as each caller would have had it in process (functions cannot cross threads, so
// each table lives here and a request names it).
/** `timestamp without time zone` holds UTC here (Prisma writes it so); PGlite would read it as local time. */
const utcTimestamp = (/** @type {string} */ text) => new Date(`${text.replace(' ', 'T')}Z`);
const same = (/** @type {string} */ text) => text;
const withoutZone = (/** @type {string} */ text) => text.split('+')[0];
const bytes = (/** @type {string} */ text) => Array.from(Buffer.from(text.slice(2), 'hex'));
// The array parser pglite-prisma-adapter itself uses (a dependency of its own, not of this project).
/** @type {(text: string, element: (text: string) => unknown) => unknown[]} */
const parseArray = createRequire(import.meta.resolve('pglite-prisma-adapter'))('postgres-array').parse;
/** @param {(text: string) => unknown} element */
const arrayOf = (element) => (/** @type {string} */ text) => parseArray(text, element);
const PARSERS = {
  /** As pglite-prisma-adapter 0.6.1 asks for (its `customParsers`): Prisma reads these as text, bytes as a number array. */
  prisma: {
    [types.INT8]: same,
    [types.NUMERIC]: same,
    [types.TIME]: same,
    [types.TIMETZ]: withoutZone,
    [types.DATE]: same,
    [1182]: arrayOf(same),
    [types.TIMESTAMP]: same,
    [1115]: arrayOf(same),
    [types.TIMESTAMPTZ]: withoutZone,
    [1116]: arrayOf(withoutZone),
    [types.MONEY]: (/** @type {string} */ text) => text.slice(1),
    [types.JSON]: same,
    [types.JSONB]: same,
    [types.BYTEA]: bytes,
    [1001]: arrayOf(bytes),
  },
  /** The hot statements' driver (RawSql in adapter.ts). */
  raw: { [types.TIMESTAMP]: utcTimestamp },
  /** PGlite's own decoding: migrations and backups. */
  plain: {},
};

/** Bytes arrive as Uint8Array (a Buffer does not survive the crossing); PGlite's bytea serializer wants Buffers, as in process. */
const toBuffers = (/** @type {unknown[]} */ params) =>
  params.map((p) =>
    ArrayBuffer.isView(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength)
    : Array.isArray(p) ? p.map((q) => (ArrayBuffer.isView(q) ? Buffer.from(q.buffer, q.byteOffset, q.byteLength) : q))
    : p,
  );

if (dataDir) preparePgliteDir(dataDir);
const db = dataDir ? new PGlite(dataDir) : new PGlite();

/** Open transactions by the id of the request that began them, and how each is ended. */
/** @type {Map<number, { tx: Transaction | null; end: (rollback: boolean) => void; done: Promise<unknown> }>} */
const transactions = new Map();

/** @param {unknown} error */
function describe(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const e = /** @type {Error & Record<string, unknown>} */ (error);
  // A DatabaseError's fields, so the other side can build one the Prisma adapter recognises.
  const fields = ['code', 'severity', 'detail', 'hint', 'position', 'where', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'];
  return {
    message: e.message,
    name: e.name,
    database: e instanceof messages.DatabaseError,
    ...Object.fromEntries(fields.filter((f) => typeof e[f] === 'string').map((f) => [f, e[f]])),
  };
}

/** @param {Reply} reply */
const send = (reply) => port.postMessage(reply);

/** @param {number | undefined} id */
function session(id) {
  if (id === undefined) return db;
  const open = transactions.get(id);
  if (!open?.tx) throw new Error('Transaction is closed');
  return open.tx;
}

/** @param {Request} request */
async function handle(request) {
  switch (request.op) {
    case 'query': {
      const result = await session(request.tx).query(request.sql, toBuffers(request.params), {
        rowMode: request.rowMode,
        parsers: PARSERS[request.parsers],
      });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec':
      await session(request.tx).exec(request.sql);
      return null;
    case 'begin':
      return begin(request.id);
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error('Transaction is closed');
      open.end(request.rollback);
      try {
        await open.done;
      } catch (error) {
        // A refused COMMIT ends the transaction; one still open after a failure holds the session
        // for good: the server's side must hear it as no database error, and give the handle up.
        if (db.isInTransaction()) throw new Error(`PGlite is closed: a transaction could not be ended (${describe(error).message})`);
        throw error;
      } finally {
        transactions.delete(request.tx);
      }
      return null;
    }
    case 'close': {
      // A transaction still open would hold the session, and the close behind it, for good.
      for (const open of transactions.values()) open.end(true);
      await Promise.allSettled([...transactions.values()].map((open) => open.done));
      transactions.clear();
      await db.close();
      return null;
    }
    default:
      throw new Error(`unknown request ${String(/** @type {never} */ (request))}`);
  }
}

/**
 * Begins a transaction and answers once inside it. PGlite holds its one session for the
 * transaction until it is ended: other statements wait, as they did in process.
 * @param {number} id
 */
function begin(id) {
  return new Promise((resolve, reject) => {
    /** @type {(rollback: boolean) => void} */
    let end = () => {};
    const ended = new Promise((r) => (end = r));
    const done = db.transaction(async (tx) => {
      const open = transactions.get(id);
      if (open) open.tx = tx;
      resolve(null);
      if (await ended) await tx.rollback();
    });
    transactions.set(id, { tx: null, end, done });
    // A BEGIN that failed never ran the callback: the caller hears why.
    done.catch((error) => {
      if (!transactions.get(id)?.tx) {
        transactions.delete(id);
        reject(error);
      }
    });
  });
}

port.on('message', (/** @type {Request} */ request) => {
  handle(request).then(
    (result) => send({ id: request.id, ok: true, result }),
    (error) => send({ id: request.id, ok: false, error: describe(error) }),
  );
});

try {
  await db.waitReady;
  if (dataDir) closeTree(dataDir);
  send({ id: 0, ok: true, result: null });
} catch (error) {
  send({ id: 0, ok: false, error: describe(error) });
}
