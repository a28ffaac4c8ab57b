import { describe, expect, it } from 'vitest';
import { oneTurnEach } from '@/lib/server/turns';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('tasks taken one a turn', () => {
  it('start in order, each on a later turn, without waiting for the one before to end', async () => {
    const inTurn = oneTurnEach();
    const log: string[] = [];
    const runs = [1, 2, 3].map((n) =>
      inTurn(async () => {
        log.push(`start ${n}`);
        await new Promise((r) => setTimeout(r, 20 - n * 5));
        log.push(`end ${n}`);
        if (n === 2) throw new Error('two failed');
        return n;
      }),
    );
    // None has started yet: each waits for a turn of the event loop.
    expect(log).toEqual([]);
    await expect(runs[1]).rejects.toThrow('two failed');
    expect(await runs[2]).toBe(3);
    expect(await runs[0]).toBe(1);
    // All three started before any ended (a store on PostgreSQL waits on the network, not on the
    // store before it); a failure stopped none.
    expect(log.slice(0, 3)).toEqual(['start 1', 'start 2', 'start 3']);
  });

  it('let the event loop go round between tasks that hold the thread', async () => {
    // A burst of tasks that each hold the thread: a timer due meanwhile fires between them, not
    // after all of them (as it would if they ran as one chain of microtasks).
    const inTurn = oneTurnEach();
    const log: string[] = [];
    setTimeout(() => log.push('timer'), 1);
    await Promise.all(Array.from({ length: 6 }, (_, i) => inTurn(async () => {
      busy(2);
      log.push(`task ${i}`);
    })));
    expect(log.indexOf('timer')).toBeGreaterThan(-1);
    expect(log.indexOf('timer')).toBeLessThan(log.length - 1);
  });
});
