import { parentPort } from 'node:worker_threads';
import type { JobTable } from '@/lib/server/verify-pool/pool';

/**
 * The worker side of pool.ts: one job at a time, answered by id. A job's own refusals are part of
 * its output; anything it throws is a bug, answered as an error message (an error does not cross
 * threads with its class).
 */
export function serveJobs(table: JobTable): void {
  const port = parentPort;
  if (!port) throw new Error('a job worker runs in a worker thread (pool.ts starts it)');
  port.on('message', (message: { id: number; name: string; input: never }) => {
    const { id, name, input } = message;
    try {
      const job = Object.hasOwn(table, name) ? table[name]! : null;
      if (!job) throw new Error(`no job named ${name}`);
      port.postMessage({ id, ok: true, output: job(input) });
    } catch (error) {
      port.postMessage({ id, ok: false, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
  });
  // Loaded: a job's deadline runs from here, not from the worker's start (pool.ts). Jobs posted
  // before now waited in the port.
  port.postMessage({ ready: true });
}
