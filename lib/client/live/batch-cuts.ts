import { MAX_BATCH_EVENTS, MAX_BATCH_TICKS } from '@/lib/live/protocol';

export type BatchCut = { count: number; tick: number };

/**
 * Where to cut a run of inputs (their ticks, in order, all ≥ `from` and < `upTo`) into batches
 * the server takes: each at most MAX_BATCH_EVENTS inputs and MAX_BATCH_TICKS ticks past the one
 * before, the last one running the clock to `upTo`. One tick's inputs are never split: the
 * batch after could not carry an input from before its first tick.
 */
export function batchCuts(ticks: readonly number[], from: number, upTo: number): BatchCut[] {
  const out: BatchCut[] = [];
  for (let i = 0, at = from; ; ) {
    const limit = at + MAX_BATCH_TICKS;
    if (upTo <= limit && ticks.length - i <= MAX_BATCH_EVENTS) {
      out.push({ count: ticks.length - i, tick: upTo });
      return out;
    }
    let j = i;
    while (j < ticks.length && j - i < MAX_BATCH_EVENTS && ticks[j]! < limit) j++;
    let k = j;
    while (k > i && k < ticks.length && ticks[k] === ticks[k - 1]) k--;
    if (k > i) j = k;
    const tick = j < ticks.length && ticks[j]! < limit ? ticks[j]! : limit;
    out.push({ count: j - i, tick });
    i = j;
    at = tick;
  }
}
