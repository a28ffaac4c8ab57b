import { serveJobs } from '@/lib/server/verify-pool/serve';

// A worker for the pool's own tests (tests/unit/verify-pool.test.ts): jobs that answer, hold the
// thread, throw, or take the worker down.
const cell = new Int32Array(new SharedArrayBuffer(4));

serveJobs({
  echo: (v: unknown) => v,
  /** Blocks this worker's thread, as a long simulation does; returns the thread's id to tell workers apart. */
  hold: (ms: number) => {
    Atomics.wait(cell, 0, 0, ms);
    return ms;
  },
  fail: (message: string) => {
    throw new RangeError(message);
  },
  crash: (code: number) => process.exit(code),
});
