import { Worker } from 'node:worker_threads';

/** The queue is full: the caller answers 503 with Retry-After, and the client's queue tries again. */
export class PoolBusyError extends Error {
  override name = 'PoolBusyError';
}

/** The worker running the job died (a crash, an out-of-memory kill): the job's outcome is unknown. */
export class WorkerCrashedError extends Error {
  override name = 'WorkerCrashedError';
}

/**
 * Which of the two a thrown error is, by name: Next may load this module once per bundle, and the
 * pool one bundle made is the process's, so its errors need not be this copy's classes.
 */
export function poolFailure(error: unknown): 'busy' | 'crashed' | null {
  if (!(error instanceof Error)) return null;
  return error.name === 'PoolBusyError' ? 'busy' : error.name === 'WorkerCrashedError' ? 'crashed' : null;
}

/** A job table: each job a function of one structured-cloneable input to one cloneable output. */
export type JobTable = Record<string, (input: never) => unknown>;

type Reply = { id: number; ok: true; output: unknown } | { id: number; ok: false; message: string };

type Job = { id: number; name: string; input: unknown; resolve: (v: unknown) => void; reject: (e: Error) => void };

type Slot = { worker: Worker; job: Job | null };

export type PoolOptions = {
  /** The worker's first module (boot.mjs): plain JavaScript that installs the TypeScript loader. */
  boot: URL;
  /** The worker module boot.mjs loads: it calls serveJobs (serve.ts) with its job table. */
  entry: URL;
  /** Workers at most; each takes one job at a time. */
  size: number;
  /** Jobs waiting for a worker at most; one more is refused with PoolBusyError. */
  maxQueue: number;
};

/**
 * A fixed set of worker threads running jobs from one table, so a long simulation never holds
 * the event loop that serves requests and live games. Workers start on first use and are replaced
 * when one dies; they never keep the process alive on their own.
 */
export class WorkerPool<T extends JobTable> {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly o: PoolOptions) {
    if (!(o.size >= 1) || !(o.maxQueue >= 0)) throw new Error(`a pool needs at least one worker and a queue of zero or more (size ${o.size}, queue ${o.maxQueue})`);
  }

  /** Jobs running and waiting: what a health check or a bench reads. */
  get load(): { running: number; queued: number; workers: number } {
    return { running: this.slots.filter((s) => s.job).length, queued: this.queue.length, workers: this.slots.length };
  }

  /**
   * Runs a job on the next free worker. `wait`: never refused as busy (the server's own work, which
   * is bounded by the games it hosts; the queue bound is for what clients send).
   */
  run<K extends keyof T & string>(name: K, input: Parameters<T[K]>[0], opts: { wait?: boolean } = {}): Promise<Awaited<ReturnType<T[K]>>> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    const idle = this.slots.find((s) => !s.job);
    const canGrow = this.slots.length < this.o.size;
    if (!idle && !canGrow && !opts.wait && this.queue.length >= this.o.maxQueue) {
      return Promise.reject(new PoolBusyError(`${this.o.size + this.o.maxQueue} verifications are already running or waiting`));
    }
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, name, input, resolve: resolve as (v: unknown) => void, reject };
      if (idle) this.give(idle, job);
      else if (canGrow) this.give(this.spawn(), job);
      else this.queue.push(job);
    });
  }

  /** Starts every worker now, so the first jobs do not wait for a worker to load its modules. */
  warm(): void {
    while (!this.closed && this.slots.length < this.o.size) this.spawn();
  }

  /** Ends every worker; jobs still waiting or running are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the worker pool closed'));
    await Promise.all(this.slots.splice(0).map((s) => {
      s.job?.reject(new Error('the worker pool closed'));
      return s.worker.terminate();
    }));
  }

  private spawn(): Slot {
    // The worker gets the server's own module conditions ('server-only' modules load there as here).
    const worker = new Worker(this.o.boot, { workerData: { entry: this.o.entry.href }, execArgv: ['--conditions=react-server'] });
    worker.unref();
    const slot: Slot = { worker, job: null };
    this.slots.push(slot);
    worker.on('message', (reply: Reply) => this.settle(slot, reply));
    // 'error' comes before 'exit' when the worker throws; 'exit' alone when it is killed or exits.
    worker.on('error', (error) => this.lose(slot, `the verification worker crashed: ${error.message}`));
    worker.on('exit', (code) => this.lose(slot, `the verification worker exited (code ${code})`));
    return slot;
  }

  private give(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.postMessage({ id: job.id, name: job.name, input: job.input });
  }

  private settle(slot: Slot, reply: Reply): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    slot.job = null;
    if (reply.ok) job.resolve(reply.output);
    else job.reject(new Error(reply.message));
    this.next(slot);
  }

  private lose(slot: Slot, why: string): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    slot.job?.reject(new WorkerCrashedError(why));
    slot.job = null;
    void slot.worker.terminate();
    // Whatever waits goes to a fresh worker.
    if (!this.closed && this.queue.length > 0) this.next(this.spawn());
  }

  private next(slot: Slot): void {
    const job = this.queue.shift();
    if (job) this.give(slot, job);
  }
}
