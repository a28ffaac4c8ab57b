import { constants, setPriority } from 'node:os';
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
  lowerPriority();
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

/**
 * Verification is batch work: this thread yields its core to everything that answers people (the
 * event loop's requests and live games, the database, the proxy). On Linux the nice value is a
 * thread's own, so this lowers the worker and not the server; where a thread cannot be reniced
 * it runs as it did. Starved by a machine that is busy all the time, a job still gets a share (a
 * worst-case replay's ~80 ms in a few seconds, far inside the pool's jobTimeoutMs), and a full
 * queue answers 503 busy as before.
 */
function lowerPriority(): void {
  try {
    setPriority(constants.priority.PRIORITY_LOW);
  } catch {
    // Not permitted or not supported here: the worker runs at the server's priority.
  }
}
