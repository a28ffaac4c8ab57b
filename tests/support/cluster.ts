import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startNginx } from '@/scripts/cluster/nginx.mjs';
import { createAppServer, type AppServer } from '@/tests/support/app-server';

/**
 * Several production instances on one PostgreSQL and one Redis, behind the reference nginx
 * (scripts/cluster/nginx.mjs): what `npm run cluster` starts, owned by a test or a benchmark.
 */
export type Cluster = {
  /** nginx: where clients go. */
  url: string;
  instances: AppServer[];
  /** Ends an instance the hard way (SIGKILL: no requests finished, no leases released). */
  kill(i: number): Promise<void>;
  stop(): Promise<void>;
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function createCluster(o: { databaseUrl: string; instances: number; env?: Record<string, string> }): Promise<Cluster> {
  const listen = `127.0.0.1:${await freePort()}`;
  const ports = await Promise.all(Array.from({ length: o.instances }, freePort));
  const instances: AppServer[] = [];
  for (const port of ports) {
    instances.push(await createAppServer(o.databaseUrl, {
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', LINEFALL_FAULT_INJECTION: '0',
      NEXTAUTH_URL: `http://${listen}`, ...o.env, PORT: String(port),
    }));
  }
  await Promise.all(instances.map((s) => s.start()));
  const prefix = mkdtempSync(path.join(tmpdir(), 'linefall-nginx-'));
  const nginx = await startNginx({ listen, upstreams: ports.map((p) => `127.0.0.1:${p}`), prefix });
  return {
    url: `http://${listen}`,
    instances,
    async kill(i) {
      const pid = instances[i]!.pid();
      if (pid) process.kill(pid, 'SIGKILL');
      await instances[i]!.stop();
    },
    async stop() {
      await nginx.stop();
      await Promise.all(instances.map((s) => s.stop()));
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
