import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAppServer, type AppServer } from '@/tests/support/app-server';
import { queryPglite, queryPostgres, throwawayDatabase } from '@/tests/support/postgres';
import { startTcpProxy, type TcpProxy } from '@/tests/support/tcp-proxy';

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
        try {
          return await queryPglite<T>(path.join(dir, 'pglite'), sql);
        } finally {
          await server.start();
        }
      },
      async dispose() {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = await throwawayDatabase('linefall_resilience');
  const direct = new URL(database.url);
  const proxy: TcpProxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const viaProxy = new URL(direct);
  viaProxy.port = String(proxy.port);
  const server = await createAppServer(viaProxy.toString());
  await server.start();
  return {
    server,
    takeDatabaseAway: () => proxy.cut(),
    giveDatabaseBack: () => proxy.restore(),
    inspect: <T>(sql: string) => queryPostgres<T>(database.url, sql),
    async dispose() {
      await server.stop();
      await proxy.close();
      await database.drop();
    },
  };
}
