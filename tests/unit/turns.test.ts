import { describe, expect, it } from 'vitest';
import { oneTurnEach } from '@/lib/server/turns';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('tasks taken one a turn', () => {
  it('run in order, one at a time, each after the last has settled, a failure stopping none', async () => {
    const inTurn = oneTurnEach();
    const log: string[] = [];
    const runs = [1, 2, 3].map((n) =>
      inTurn(async () => {
        log.push(`start ${n}`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`end ${n}`);
        if (n === 2) throw new Error('two failed');
        return n;
      }),
    );
    await expect(runs[1]).rejects.toThrow('two failed');
    expect(await runs[2]).toBe(3);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
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
