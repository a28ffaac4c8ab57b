import { describe, expect, it } from 'vitest';
import { gatherer } from '@/lib/server/gather';

/** A run that records its batches and answers each input doubled, or fails on 'bad' / when told. */
function recorder(options: { failBatches?: boolean } = {}) {
  const batches: number[][] = [];
  let release: () => void = () => {};
  let gate: Promise<void> | null = null;
  const run = async (inputs: readonly number[]) => {
    batches.push([...inputs]);
    if (gate) await gate;
    if (inputs.includes(-1) || (options.failBatches && inputs.length > 1)) throw new Error(`refused ${inputs.join(',')}`);
    return inputs.map((i) => i * 2);
  };
  return {
    batches,
    run,
    hold: () => (gate = new Promise<void>((r) => (release = r))),
    release: () => {
      gate = null;
      release();
    },
  };
}

describe('gatherer (group commit)', () => {
  it('sends a lone call at once, and the calls made while it is in flight together in the next batch', async () => {
    const r = recorder();
    const gather = gatherer(r.run, { max: 100 });
    r.hold();
    const first = gather(1);
    const rest = [2, 3, 4].map(gather);
    await Promise.resolve();
    expect(r.batches).toEqual([[1]]);
    r.release();
    expect(await Promise.all([first, ...rest])).toEqual([2, 4, 6, 8]);
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('takes at most `max` inputs a batch, in the order they came', async () => {
    const r = recorder();
    const gather = gatherer(r.run, { max: 2 });
    r.hold();
    const all = [1, 2, 3, 4, 5].map(gather);
    await Promise.resolve();
    r.release();
    expect(await Promise.all(all)).toEqual([2, 4, 6, 8, 10]);
    expect(r.batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('fails only the input the run refuses: a failed batch is run again input by input', async () => {
    const r = recorder();
    const gather = gatherer(r.run, { max: 100 });
    r.hold();
    const first = gather(1);
    const rest = [2, -1, 3].map((i) => gather(i).then((v) => ({ ok: v }), (e: Error) => ({ error: e.message })));
    await Promise.resolve();
    r.release();
    expect(await first).toBe(2);
    expect(await Promise.all(rest)).toEqual([{ ok: 4 }, { error: 'refused -1' }, { ok: 6 }]);
    expect(r.batches).toEqual([[1], [2, -1, 3], [2], [-1], [3]]);
  });

  it('fails the whole batch without retries when the failure is not an input’s (the database is away)', async () => {
    const r = recorder({ failBatches: true });
    const gather = gatherer(r.run, { max: 100, alone: () => false });
    r.hold();
    const first = gather(1);
    const rest = [2, 3].map((i) => gather(i).catch((e: Error) => e.message));
    await Promise.resolve();
    r.release();
    expect(await first).toBe(2);
    expect(await Promise.all(rest)).toEqual(['refused 2,3', 'refused 2,3']);
    expect(r.batches).toEqual([[1], [2, 3]]);
  });

  it('refuses an answer count that does not match the batch, rather than answering the wrong calls', async () => {
    const gather = gatherer(async (inputs: readonly number[]) => (inputs.length > 1 ? [1] : [inputs[0]!]), { max: 100, alone: () => false });
    const all = [gather(1), gather(2).catch((e: Error) => e.message), gather(3).catch((e: Error) => e.message)];
    expect(await Promise.all(all)).toEqual([1, 'a batch of 2 got 1 answers', 'a batch of 2 got 1 answers']);
  });

  it('keeps working after a failed batch', async () => {
    const r = recorder();
    const gather = gatherer(r.run, { max: 100 });
    await expect(gather(-1)).rejects.toThrow('refused -1');
    expect(await gather(5)).toBe(10);
  });
});
