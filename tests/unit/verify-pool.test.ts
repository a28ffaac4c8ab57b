import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeReplay, encodeReplay, finesseOfReplay, simulateReplay } from '@/lib/engine';
import { verifySubmission } from '@/lib/server/games/verify';
import { verifyPoolFiles } from '@/lib/server/verify-pool';
import type { Jobs } from '@/lib/server/verify-pool/jobs';
import { poolFailure, PoolBusyError, WorkerCrashedError, WorkerPool } from '@/lib/server/verify-pool/pool';
import { route } from '@/lib/server/route';
import { playGame } from '@/tests/support/bot';

type TestJobs = {
  echo: (v: unknown) => unknown;
  hold: (ms: number) => number;
  fail: (message: string) => never;
  crash: (code: number) => never;
};

const { boot } = verifyPoolFiles();
const entry = pathToFileURL(join(process.cwd(), 'tests', 'support', 'pool-worker.ts'));
const pools: WorkerPool<never>[] = [];
function testPool(size: number, maxQueue: number, more: { perClient?: number; jobTimeoutMs?: number } = {}): WorkerPool<TestJobs> {
  const pool = new WorkerPool<TestJobs>({ boot, entry, size, maxQueue, perClient: more.perClient ?? 100, jobTimeoutMs: more.jobTimeoutMs ?? 30_000 });
  pools.push(pool as never);
  return pool;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('the verification pool', () => {
  it('runs a job in a worker while the event loop stays free', async () => {
    const pool = testPool(1, 4);
    expect(await pool.run('echo', { a: [1, 2], at: new Date(5) })).toEqual({ a: [1, 2], at: new Date(5) });
    // The worker holds its thread 300 ms; this thread's timers keep firing meanwhile.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await pool.run('hold', 300);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
  });

  it('refuses a job past a full queue as busy, and still takes the server\'s own', async () => {
    const pool = testPool(1, 2);
    const running = [pool.run('hold', 200), pool.run('hold', 1), pool.run('hold', 1)];
    const refused = pool.run('echo', 'one too many');
    await expect(refused).rejects.toThrow(/already running or waiting/);
    expect(poolFailure(await refused.catch((e: unknown) => e))).toBe('busy');
    expect(pool.load).toEqual({ running: 1, queued: 2, workers: 1, refused: 1, lost: 0 });
    const own = pool.run('echo', 'own', { own: true });
    expect(await Promise.all([...running, own])).toEqual([200, 1, 1, 'own']);
    // Room again once the queue drained.
    expect(await pool.run('echo', 'later')).toBe('later');
  });

  it('holds one client to its share, whatever room the queue has', async () => {
    const pool = testPool(1, 10, { perClient: 2 });
    const mine = [pool.run('hold', 100, { client: 'player-a' }), pool.run('echo', 1, { client: 'player-a' })];
    await expect(pool.run('echo', 2, { client: 'player-a' })).rejects.toThrow(/already has 2 games being verified/);
    expect(pool.load.refused).toBe(1);
    // Another player, and the server's own jobs, still get in.
    const theirs = pool.run('echo', 3, { client: 'player-b' });
    expect(await Promise.all([...mine, theirs, pool.run('echo', 4, { own: true })])).toEqual([100, 1, 3, 4]);
    // Finished jobs give the share back.
    expect(await pool.run('echo', 5, { client: 'player-a' })).toBe(5);
  });

  it('serves the server\'s own jobs before clients\' that waited longer', async () => {
    const pool = testPool(1, 10);
    const done: string[] = [];
    const running = pool.run('hold', 150);
    const client = pool.run('echo', 'client').then((v) => done.push(v as string));
    const own = pool.run('echo', 'own', { own: true }).then((v) => done.push(v as string));
    await Promise.all([running, client, own]);
    expect(done).toEqual(['own', 'client']);
  });

  it('ends a job that outlives its deadline as a lost worker, and goes on with a fresh one', async () => {
    const pool = testPool(1, 4, { jobTimeoutMs: 300 });
    await expect(pool.run('hold', 5_000)).rejects.toThrow(/ran longer than 300 ms/);
    expect(await pool.run('echo', 'next')).toBe('next');
    expect(pool.load).toMatchObject({ lost: 1, refused: 0 });
  });

  it('answers a crashed worker\'s job with WorkerCrashedError and runs what waited on a fresh worker', async () => {
    const pool = testPool(1, 4);
    const crashed = pool.run('crash', 7);
    const waiting = pool.run('echo', 'after the crash');
    const error = await crashed.catch((e: unknown) => e);
    expect(poolFailure(error)).toBe('crashed');
    expect((error as Error).message).toMatch(/exited \(code 7\)/);
    expect(await waiting).toBe('after the crash');
    expect(pool.load).toMatchObject({ workers: 1, lost: 1 });
  });

  it('passes a job\'s own error back by message, and the worker goes on', async () => {
    const pool = testPool(1, 4);
    await expect(pool.run('fail', 'bad input')).rejects.toThrow('RangeError: bad input');
    await expect(pool.run('nope' as 'echo', 1)).rejects.toThrow(/no job named nope/);
    expect(await pool.run('echo', 2)).toBe(2);
  });

  it('uses as many workers as it has, no more', async () => {
    const pool = testPool(2, 4);
    pool.warm();
    expect(pool.load).toEqual({ running: 0, queued: 0, workers: 2, refused: 0, lost: 0 });
    const jobs = [pool.run('hold', 100), pool.run('hold', 100), pool.run('hold', 100)];
    expect(pool.load).toEqual({ running: 2, queued: 1, workers: 2, refused: 0, lost: 0 });
    await Promise.all(jobs);
  });

  it('refuses what waits when it closes', async () => {
    const pool = testPool(1, 4);
    const refused = [expect(pool.run('hold', 100)).rejects.toThrow(/closed/), expect(pool.run('echo', 1)).rejects.toThrow(/closed/)];
    await pool.close();
    await Promise.all(refused);
    await expect(pool.run('echo', 1)).rejects.toThrow(/closed/);
  });
});

describe('a route whose verification cannot run now', () => {
  it('answers 503 busy with Retry-After, for a full queue and for a lost worker alike', async () => {
    for (const error of [new PoolBusyError('full'), new WorkerCrashedError('gone')]) {
      const res = await route(async () => {
        throw error;
      })();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('busy');
    }
  });
});

describe('the app\'s verification jobs in a worker', () => {
  it('decide a solo submission as verifySubmission does on this thread, and replay a stream', async () => {
    const pool = new WorkerPool<Jobs>({ ...verifyPoolFiles(), size: 1, maxQueue: 4, perClient: 4, jobTimeoutMs: 30_000 });
    pools.push(pool as never);
    const { replay, result } = playGame({ mode: 'sprint', seed: 'pool-job-seed', pace: 20 });
    const encoded = encodeReplay(replay);
    const issuedAt = new Date(0);
    const now = new Date(result.ticks * 20 + 60_000);
    const ticket = { seed: replay.seed, mode: replay.mode, rulesVersion: replay.rulesVersion, issuedAt };
    const submission = { replay: encoded, claimed: { score: result.score, lines: result.lines, ticks: result.ticks } };
    const here = verifySubmission(ticket, submission, now);
    const there = await pool.run('solo', { ticket, submission, now });
    expect(here.ok).toBe(true);
    // The worker also counts the verified game's finesse faults, for the same store statement.
    const finesseFaults = finesseOfReplay(replay).faults;
    expect(there).toEqual(here.ok ? { ok: true, mode: here.replay.mode, rulesVersion: here.replay.rulesVersion, result: here.result, flag: here.flag, finesseFaults } : here);
    const forged = { ...submission, claimed: { ...submission.claimed, score: submission.claimed.score + 1 } };
    expect(await pool.run('solo', { ticket, submission: forged, now })).toEqual(verifySubmission(ticket, forged, now));
    expect(await pool.run('stream', encoded)).toEqual({ ok: true, result: simulateReplay(decodeReplay(encoded)) });
    expect(await pool.run('stream', 'not a replay')).toMatchObject({ ok: false, message: expect.stringMatching(/ReplayDecodeError/) });
  });
});
