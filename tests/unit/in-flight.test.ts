import { describe, expect, it } from 'vitest';
import { InFlightLimit } from '@/lib/server/games/in-flight';
import { poolFailure } from '@/lib/server/verify-pool/pool';

/** A piece of work that ends when told, recording that it started. */
function held(log: string[], name: string) {
  let end!: () => void;
  const done = new Promise<void>((resolve) => (end = resolve));
  return { work: async () => (log.push(name), await done, name), end };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('submissions in flight', () => {
  it('lets `width` in at once and the rest in arrival order, each as soon as a place frees', async () => {
    const gate = new InFlightLimit({ width: 2, maxWaiting: 10, perClient: 10 });
    const log: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((n) => held(log, n));
    const runs = jobs.map((j, i) => gate.run(`client-${i}`, j.work));
    await settle();
    expect(log).toEqual(['a', 'b']);
    expect(gate.load).toEqual({ inside: 2, waiting: 2 });
    jobs[1]!.end();
    await settle();
    expect(log).toEqual(['a', 'b', 'c']);
    jobs[0]!.end();
    jobs[2]!.end();
    jobs[3]!.end();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c', 'd']);
    expect(gate.load).toEqual({ inside: 0, waiting: 0 });
  });

  it('answers busy at once past its queue or past a client\'s share, and a failed piece of work frees its place', async () => {
    const gate = new InFlightLimit({ width: 1, maxWaiting: 2, perClient: 2 });
    const log: string[] = [];
    const first = held(log, 'first');
    const running = gate.run('x', first.work);
    const queued = gate.run('x', async () => 'queued');
    // The client's share (2) is used: refused while the queue still has room for someone else.
    await expect(gate.run('x', async () => 'third')).rejects.toSatisfy((e) => poolFailure(e) === 'busy');
    const other = gate.run('y', async () => 'other');
    // The queue (2) is full: refused for a third client too.
    await expect(gate.run('z', async () => 'late')).rejects.toSatisfy((e) => poolFailure(e) === 'busy');
    first.end();
    expect([await running, await queued, await other]).toEqual(['first', 'queued', 'other']);
    await expect(gate.run('y', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run('y', async () => 'after')).toBe('after');
    expect(gate.load).toEqual({ inside: 0, waiting: 0 });
  });
});
