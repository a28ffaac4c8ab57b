import { describe, expect, it } from 'vitest';
import { batchCuts } from '@/lib/client/live/batch-cuts';
import { MAX_BATCH_EVENTS, MAX_BATCH_TICKS } from '@/lib/live/protocol';

/** Checks what the server checks: each batch within both bounds, every input before its batch's tick and at or after the one before. */
function valid(ticks: number[], from: number, upTo: number) {
  const cuts = batchCuts(ticks, from, upTo);
  let i = 0;
  let at = from;
  for (const c of cuts) {
    expect(c.count).toBeLessThanOrEqual(MAX_BATCH_EVENTS);
    expect(c.tick - at).toBeLessThanOrEqual(MAX_BATCH_TICKS);
    for (const t of ticks.slice(i, i + c.count)) expect(t >= at && t < c.tick).toBe(true);
    i += c.count;
    at = c.tick;
  }
  expect(i).toBe(ticks.length);
  expect(at).toBe(upTo);
  return cuts;
}

describe('cutting inputs into batches the server takes', () => {
  it('keeps one batch for ordinary play', () => {
    expect(valid([3, 4, 9], 0, 12)).toEqual([{ count: 3, tick: 12 }]);
  });

  it('cuts a long quiet stretch into batches of at most a minute', () => {
    const cuts = valid([10, 9_000], 0, 10_000);
    expect(cuts.length).toBeGreaterThanOrEqual(3);
  });

  it('cuts at the input limit without splitting one tick between batches', () => {
    const ticks = Array.from({ length: 600 }, (_, i) => Math.floor(i / 2));
    const cuts = valid(ticks, 0, 400);
    expect(cuts.length).toBe(3);
  });

  it('cuts an adopted catch-up of an hour with sparse inputs', () => {
    const ticks = Array.from({ length: 2_000 }, (_, i) => i * 108);
    valid(ticks, 0, 216_000);
  });
});
