import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { SERVER_NODE_FLAGS } from '@/scripts/node-flags.mjs';

/**
 * A production Linefall server that a test owns: it can stop it, start it again on the same
 * database, or take the database away (SIGUSR2, fault injection), which Playwright's shared
 * webServer cannot. Uses the build `npm test` made beforehand.
 */
export type AppServer = {
  url: string;
  start(): Promise<void>;
  /** SIGTERM, then the exit: its code (0 once everything was handed over), or null if it was not running. */
  stop(): Promise<number | null>;
  /** Embedded database only: closes it under the running server, or gives it back. */
  toggleDatabase(): void;
  /** The server process's id while it runs (benchmarks read its CPU time and memory). */
  pid(): number | undefined;
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `options.dir`: the checkout whose build to serve (default: this one); benchmarks compare another
 * commit's build with this one in the same run.
 */
export async function createAppServer(databaseUrl: string, extraEnv: Record<string, string> = {}, options: { dir?: string } = {}): Promise<AppServer> {
  const cwd = options.dir ?? process.cwd();
  const port = Number(extraEnv.PORT ?? (await freePort()));
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: 'production' as const,
    NEXT_TELEMETRY_DISABLED: '1',
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: 'resilience-secret-resilience-secret-00',
    NEXTAUTH_URL: url,
    PORT: String(port),
    HOST: '127.0.0.1',
    TRUST_PROXY_HOPS: '1',
    LINEFALL_FAULT_INJECTION: '1',
    ...extraEnv,
  };
  // Not spawnSync: the database may be reached through a relay living in this very process.
  const migrate = spawn(process.execPath, ['scripts/migrate.mjs'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let migrateErrors = '';
  migrate.stderr.on('data', (d: Buffer) => (migrateErrors += d));
  const code = await new Promise<number | null>((resolve) => migrate.once('exit', resolve));
  if (code !== 0) throw new Error(`migration failed: ${migrateErrors}`);
  let child: ChildProcess | null = null;

  return {
    url,
    async start() {
      // APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server (benchmarks).
      const nodeArgs = (process.env.APP_NODE_ARGS ?? '').split(' ').filter(Boolean);
      const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, 'scripts/serve.mjs'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      proc.stdout?.on('data', (d: Buffer) => process.env.DEBUG_APP && process.stdout.write(`[app ${port}] ${d}`));
      proc.stderr?.on('data', (d: Buffer) => process.env.DEBUG_APP && process.stderr.write(`[app ${port}] ${d}`));
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
        const up = await fetch(`${url}/api/health`).then((r) => r.status < 500, () => false);
        if (up) return;
        if (Date.now() > deadline) throw new Error('server did not start within 60 s');
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async stop() {
      const proc = child;
      child = null;
      if (!proc || proc.exitCode !== null) return null;
      return new Promise<number | null>((resolve) => {
        proc.once('exit', (code) => resolve(code));
        proc.kill('SIGTERM');
      });
    },
    pid: () => child?.pid,
    toggleDatabase() {
      if (!child?.pid) throw new Error('server is not running');
      process.kill(child.pid, 'SIGUSR2');
    },
  };
}
