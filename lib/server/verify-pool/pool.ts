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

/** A simulation needs a few megabytes; the engine and the loader a few tens. */
const WORKER_HEAP_MB = 256;
/** A worker loads the engine and its jobs through tsx in well under 2 s, a cold start on a busy machine included; far past that it is stuck. */
const WORKER_BOOT_MS = 30_000;

/** What the pool holds now, and what it refused and lost since it began. */
export type PoolLoad = { running: number; queued: number; workers: number; refused: number; lost: number };

type Reply = { id: number; ok: true; output: unknown } | { id: number; ok: false; message: string } | { ready: true };

type Job = {
  id: number; name: string; input: unknown; client: string | null;
  resolve: (v: unknown) => void; reject: (e: Error) => void;
};

/** `ready`: the worker has loaded its jobs (serve.ts says so); a fresh worker's boot is not its first job's time. */
type Slot = { worker: Worker; job: Job | null; deadline: NodeJS.Timeout | null; ready: boolean };

export type PoolOptions = {
  /** The worker's first module (boot.mjs): plain JavaScript that installs the TypeScript loader. */
  boot: URL;
  /** The worker module boot.mjs loads: it calls serveJobs (serve.ts) with its job table. */
  entry: URL;
  /** Workers at most; each takes one job at a time. */
  size: number;
  /** Clients' jobs waiting for a worker at most; one more is refused with PoolBusyError. */
  maxQueue: number;
  /** One client's jobs running and waiting at most: no client fills the queue for the others. */
  perClient: number;
  /** A job still running after this long is a stuck worker: it is ended and the job fails as crashed. */
  jobTimeoutMs: number;
};

export type RunOptions = {
  /**
   * The server's own job (a finished match, a stream to store): never refused as busy, and served
   * before every client's job. Bounded by the games the server hosts, not by what clients send.
   */
  own?: boolean;
  /** Who sent a client's job (a player, an address): counted against `perClient`. */
  client?: string;
};

/**
 * A fixed set of worker threads running jobs from one table, so a long simulation never holds
 * the event loop that serves requests and live games. Workers start on first use (or `warm`) and
 * are replaced when one dies; they never keep the process alive on their own.
 */
export class WorkerPool<T extends JobTable> {
  private readonly slots: Slot[] = [];
  /** The server's own jobs, served first. */
  private readonly ownQueue: Job[] = [];
  private readonly queue: Job[] = [];
  /** Jobs running or waiting per client. */
  private readonly perClient = new Map<string, number>();
  private nextId = 1;
  private closed = false;
  /** Since the pool began: clients' jobs refused as busy, and workers lost (crashed, killed, past a deadline). */
  private refused = 0;
  private lost = 0;

  constructor(private readonly o: PoolOptions) {
    if (!(o.size >= 1) || !(o.maxQueue >= 0) || !(o.perClient >= 1))
      throw new Error(`a pool needs a worker, a queue of zero or more and a job per client at least (size ${o.size}, queue ${o.maxQueue}, per client ${o.perClient})`);
  }

  /** Jobs running and waiting now, and the refusals and lost workers so far: for monitoring (`GET /api/health`), tests and logs. */
  get load(): PoolLoad {
    return { running: this.slots.filter((s) => s.job).length, queued: this.queue.length + this.ownQueue.length, workers: this.slots.length, refused: this.refused, lost: this.lost };
  }

  /** Runs a job on the next free worker; refuses a client's job with PoolBusyError when the queue or its share is full. */
  run<K extends keyof T & string>(name: K, input: Parameters<T[K]>[0], opts: RunOptions = {}): Promise<Awaited<ReturnType<T[K]>>> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    const client = opts.own ? null : (opts.client ?? null);
    if (client !== null && (this.perClient.get(client) ?? 0) >= this.o.perClient)
      return this.busy(`this player already has ${this.o.perClient} games being verified`);
    const idle = this.slots.find((s) => !s.job);
    const canGrow = this.slots.length < this.o.size;
    if (!idle && !canGrow && !opts.own && this.queue.length >= this.o.maxQueue)
      return this.busy(`${this.o.size + this.o.maxQueue} verifications are already running or waiting`);
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, name, input, client, resolve: resolve as (v: unknown) => void, reject };
      if (client !== null) this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
      if (idle) this.give(idle, job);
      else if (canGrow) this.give(this.spawn(), job);
      else (opts.own ? this.ownQueue : this.queue).push(job);
    });
  }

  private busy(why: string): Promise<never> {
    this.refused++;
    return Promise.reject(new PoolBusyError(why));
  }

  /** Starts every worker now, so the first jobs do not wait for a worker to load its modules. */
  warm(): void {
    while (!this.closed && this.slots.length < this.o.size) this.spawn();
  }

  /** Ends every worker; jobs still waiting or running are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of [...this.ownQueue.splice(0), ...this.queue.splice(0)]) this.finish(job, new Error('the worker pool closed'));
    await Promise.all(this.slots.splice(0).map((s) => {
      if (s.job) this.finish(s.job, new Error('the worker pool closed'));
      this.clear(s);
      return s.worker.terminate();
    }));
  }

  private spawn(): Slot {
    // The worker gets the server's own module conditions ('server-only' modules load there as here).
    // A heap cap: a job that balloons kills its worker (a lost worker, answered 503), not the server.
    const worker = new Worker(this.o.boot, {
      workerData: { entry: this.o.entry.href },
      execArgv: ['--conditions=react-server'],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.unref();
    const slot: Slot = { worker, job: null, deadline: null, ready: false };
    this.slots.push(slot);
    // A worker that never finishes loading would hold its job with no deadline: it gets one of its own.
    const booting = setTimeout(() => !slot.ready && this.lose(slot, `a verification worker did not start within ${WORKER_BOOT_MS} ms`), WORKER_BOOT_MS);
    booting.unref();
    worker.once('exit', () => clearTimeout(booting));
    worker.on('message', (reply: Reply) => this.settle(slot, reply));
    // 'error' comes before 'exit' when the worker throws; 'exit' alone when it is killed or exits.
    worker.on('error', (error) => this.lose(slot, `the verification worker crashed: ${error.message}`));
    worker.on('messageerror', (error) => this.lose(slot, `a verification worker's answer could not be read: ${error.message}`));
    worker.on('exit', (code) => this.lose(slot, `the verification worker exited (code ${code})`));
    return slot;
  }

  private give(slot: Slot, job: Job): void {
    slot.job = job;
    if (slot.ready) this.startDeadline(slot, job);
    slot.worker.postMessage({ id: job.id, name: job.name, input: job.input });
  }

  private startDeadline(slot: Slot, job: Job): void {
    slot.deadline = setTimeout(() => this.lose(slot, `a verification job (${job.name}) ran longer than ${this.o.jobTimeoutMs} ms`), this.o.jobTimeoutMs);
    slot.deadline.unref();
  }

  private settle(slot: Slot, reply: Reply): void {
    if ('ready' in reply) {
      slot.ready = true;
      if (slot.job && !slot.deadline) this.startDeadline(slot, slot.job);
      return;
    }
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    this.clear(slot);
    this.finish(job, reply.ok ? null : new Error(reply.message), reply.ok ? reply.output : undefined);
    this.next(slot);
  }

  private lose(slot: Slot, why: string): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    this.lost++;
    console.error(`[verify] ${why}`);
    const job = slot.job;
    this.clear(slot);
    if (job) this.finish(job, new WorkerCrashedError(why));
    void slot.worker.terminate();
    // Whatever waits goes to a fresh worker.
    if (!this.closed && this.ownQueue.length + this.queue.length > 0) this.next(this.spawn());
  }

  private clear(slot: Slot): void {
    if (slot.deadline) clearTimeout(slot.deadline);
    slot.deadline = null;
    slot.job = null;
  }

  private finish(job: Job, error: Error | null, output?: unknown): void {
    if (job.client !== null) {
      const left = (this.perClient.get(job.client) ?? 1) - 1;
      if (left > 0) this.perClient.set(job.client, left);
      else this.perClient.delete(job.client);
    }
    if (error) job.reject(error);
    else job.resolve(output);
  }

  private next(slot: Slot): void {
    const job = this.ownQueue.shift() ?? this.queue.shift();
    if (job) this.give(slot, job);
  }
}
