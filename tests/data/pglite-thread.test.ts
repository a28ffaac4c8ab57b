import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '@electric-sql/pglite';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDbUnavailable } from '@/lib/db/errors';
import { PgliteThread } from '@/lib/db/pglite-client';

// The embedded database on its own thread (decision 0035) must answer as PGlite did in process:
// rows decoded as each caller asked, PostgreSQL's errors as PGlite's own (the Prisma adapter tells
// a unique violation by them), transactions that hold the one session, and a thread that closes or
// dies answering every caller "closed". Its own in-memory database: the PostgreSQL run has no thread.
const pglite = (process.env.DATABASE_URL ?? '').startsWith('pglite');

describe.skipIf(!pglite)('the embedded database on its own thread', () => {
  let thread: PgliteThread;
  beforeAll(async () => {
    thread = await PgliteThread.open(null);
    await thread.exec(`CREATE TABLE t (id int PRIMARY KEY, at timestamp, body bytea, doc jsonb, big bigint, names text[])`);
  });
  afterAll(() => thread.close());

  it('decodes rows as the hot statements, Prisma and PGlite itself each expect', async () => {
    const at = new Date('2026-11-26T23:30:00.123Z');
    await thread.query('INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)', [1, at, Buffer.from([1, 2, 255]), { a: 1 }, 9007199254740993n, ['x', 'y']], 'raw');
    const sql = 'SELECT at, body, doc, big, names FROM t WHERE id = 1';
    expect((await thread.query(sql, [], 'raw')).rows).toEqual([{ at, body: new Uint8Array([1, 2, 255]), doc: { a: 1 }, big: 9007199254740993n, names: ['x', 'y'] }]);
    const prisma = await thread.query(sql, [], 'prisma', 'array');
    expect(prisma.rows).toEqual([['2026-11-26 23:30:00.123', [1, 2, 255], '{"a": 1}', '9007199254740993', ['x', 'y']]]);
    expect(prisma.fields.map((f) => f.name)).toEqual(['at', 'body', 'doc', 'big', 'names']);
    expect((await thread.query<{ at: unknown }>('SELECT at FROM t', [], 'plain')).rows[0]?.at).toBeInstanceOf(Date);
  });

  it("throws PostgreSQL's errors as PGlite does, code and all", async () => {
    const error = await thread.query('INSERT INTO t (id) VALUES (1)', [], 'raw').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(messages.DatabaseError);
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey' });
  });

  it('commits a transaction that returns, rolls back one that throws or asks to, and holds the session meanwhile', async () => {
    await thread.transaction(async (tx) => tx.query('INSERT INTO t (id) VALUES (2)'), 'raw');
    const failed = thread.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (3)');
      throw new Error('changed my mind');
    }, 'raw');
    await expect(failed).rejects.toThrow('changed my mind');
    await thread.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (4)');
      await tx.rollback();
    }, 'raw');
    let outside: Promise<unknown> | undefined;
    await thread.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (5)');
      // Sent while the transaction is open: it runs after the commit, as in process.
      outside = thread.query('SELECT count(*)::int AS n FROM t WHERE id = 5', [], 'raw');
      await new Promise((r) => setTimeout(r, 50));
      await tx.query('DELETE FROM t WHERE id = 5');
    }, 'raw');
    expect(await outside).toMatchObject({ rows: [{ n: 0 }] });
    expect((await thread.query('SELECT id FROM t ORDER BY id', [], 'raw')).rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('answers "closed" to every caller once its thread dies, and to every call after', async () => {
    const doomed = await PgliteThread.open(null);
    const running = Array.from({ length: 5 }, () => doomed.query('SELECT count(*) FROM generate_series(1, 300000)', [], 'raw').catch((e: unknown) => e));
    await (doomed as unknown as { worker: Worker }).worker.terminate();
    for (const outcome of [...(await Promise.all(running)), await doomed.query('SELECT 1', [], 'raw').catch((e: unknown) => e)]) {
      expect(isDbUnavailable(outcome)).toBe(true);
    }
    expect(doomed.closed).toBe(true);
  });

  it('closes under running statements: each is answered, and later ones are refused as closed', async () => {
    const closing = await PgliteThread.open(null);
    const running = Array.from({ length: 5 }, () => closing.query<{ n: number }>('SELECT 1 AS n', [], 'raw').then((r) => r.rows[0]?.n, (e: unknown) => e));
    await closing.close();
    for (const outcome of await Promise.all(running)) expect(outcome === 1 || isDbUnavailable(outcome)).toBe(true);
    expect(isDbUnavailable(await closing.query('SELECT 1', [], 'raw').catch((e: unknown) => e))).toBe(true);
    expect(closing.closed).toBe(true);
  });

  it('gives itself up when a transaction cannot be ended: later calls fail as closed instead of waiting behind it', async () => {
    const stuck = await PgliteThread.open(null);
    // The thread is asked to end a transaction it does not know: the real one stays open and
    // holds the one session, as a failed ROLLBACK would leave it.
    const worker = (stuck as unknown as { worker: Worker }).worker;
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (m: { op?: string }) => post(m.op === 'end' ? { ...m, tx: -1 } : m);
    await expect(stuck.transaction(async (tx) => tx.query('SELECT 1'), 'raw')).rejects.toThrow('Transaction is closed');
    expect(isDbUnavailable(await stuck.query('SELECT 1', [], 'raw').catch((e: unknown) => e))).toBe(true);
    expect(stuck.closed).toBe(true);
    await stuck.close();
  });

  it('closes with a transaction open: rolls it back, and opens the directory again only once the old thread has exited', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linefall-close-'));
    try {
      const first = await PgliteThread.open(dir);
      await first.exec('CREATE TABLE kept (id int PRIMARY KEY); INSERT INTO kept VALUES (1)');
      let exitedAt = 0;
      (first as unknown as { worker: Worker }).worker.once('exit', () => (exitedAt = performance.now()));
      let inside: () => void = () => {};
      const entered = new Promise<void>((r) => (inside = r));
      let release: () => void = () => {};
      const released = new Promise<void>((r) => (release = r));
      // A transaction still open when the database closes, its caller busy elsewhere until after the close.
      const held = first.transaction(async (tx) => {
        await tx.query('INSERT INTO kept VALUES (2)');
        inside();
        await released;
        await tx.query('INSERT INTO kept VALUES (3)');
      }, 'raw').catch((e: unknown) => e);
      await entered;
      const closed = first.close();
      const second = await PgliteThread.open(dir);
      const openedAt = performance.now();
      expect(exitedAt).toBeGreaterThan(0);
      expect(exitedAt).toBeLessThanOrEqual(openedAt);
      await closed;
      release();
      expect(isDbUnavailable(await held)).toBe(true);
      expect((await second.query('SELECT id FROM kept ORDER BY id', [], 'raw')).rows).toEqual([{ id: 1 }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to open a directory a live thread of this process holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linefall-twice-'));
    try {
      const first = await PgliteThread.open(dir);
      await expect(PgliteThread.open(dir)).rejects.toThrow(/already open/);
      await first.close();
      await (await PgliteThread.open(dir)).close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
