import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createAppServer, type AppServer } from '../support/app-server';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

export type Kind = 'pglite' | 'postgres';

/**
 * A server on its own database that a test can take away and give back: PostgreSQL through a
 * TCP relay that is cut (connections dropped mid-query, new ones refused), the embedded
 * database by closing it inside the server (fault injection), as if it had crashed.
 */
export type Rig = {
  server: AppServer;
  takeDatabaseAway(): Promise<void>;
  giveDatabaseBack(): Promise<void>;
  /** Runs a query on the database directly (stops the server first for the embedded one). */
  inspect<T>(sql: string): Promise<T[]>;
  dispose(): Promise<void>;
};

const ADMIN = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function createRig(kind: Kind): Promise<Rig> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'linefall-resilience-'));
    const server = await createAppServer(`pglite:${path.join(dir, 'pglite')}`);
    await server.start();
    return {
      server,
      takeDatabaseAway: async () => server.toggleDatabase(),
      giveDatabaseBack: async () => server.toggleDatabase(),
      async inspect<T>(sql: string) {
        await server.stop();
        const db = new PGlite(path.join(dir, 'pglite'));
        try {
          return (await db.query<T>(sql)).rows;
        } finally {
          await db.close();
          await server.start();
        }
      },
      async dispose() {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `linefall_resilience_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const direct = new URL(ADMIN);
  direct.pathname = `/${name}`;
  const proxy: TcpProxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const viaProxy = new URL(direct);
  viaProxy.port = String(proxy.port);
  const server = await createAppServer(viaProxy.toString());
  await server.start();
  return {
    server,
    takeDatabaseAway: () => proxy.cut(),
    giveDatabaseBack: () => proxy.restore(),
    async inspect<T>(sql: string) {
      const client = new pg.Client({ connectionString: direct.toString() });
      await client.connect();
      try {
        return (await client.query(sql)).rows as T[];
      } finally {
        await client.end();
      }
    },
    async dispose() {
      await server.stop();
      await proxy.close();
      const again = new pg.Client({ connectionString: ADMIN });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await again.end();
    },
  };
}
