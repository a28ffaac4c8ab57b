import { describe, expect, it } from 'vitest';
import type { ReplayEvent } from '@/lib/engine';
import { checkLog, InputDigest, laterCheckpoint, type AckCheckpoint } from '@/lib/server/live/solo/ack-digest';

const log: ReplayEvent[] = [
  { tick: 3, key: 'left', down: true },
  { tick: 5, key: 'left', down: false },
  { tick: 9, key: 'hardDrop', down: true },
  { tick: 10, key: 'hardDrop', down: false },
];

function checkpointOf(events: readonly ReplayEvent[], tick: number): AckCheckpoint {
  const d = new InputDigest();
  d.add(events.filter((e) => e.tick < tick));
  return { tick, inputs: d.inputs, digest: d.digest() };
}

describe('the acknowledged-input checkpoint', () => {
  it('is the same however the inputs were batched', () => {
    const one = new InputDigest();
    one.add(log);
    const two = new InputDigest();
    two.add(log.slice(0, 1));
    expect(two.digest()).not.toBe(one.digest());
    two.add(log.slice(1));
    expect(two.digest()).toBe(one.digest());
    // Checkpoints are stored with tickets: the digest of a log may never change.
    expect(one.digest()).toBe('qD7Yyg1JDM2ssOb9vapCXw21YV1QqPRfdOIiawLlpVE');
  });

  it('waits until the log reaches its tick, then says whether the log begins with it', () => {
    const c = checkpointOf(log, 9);
    expect(checkLog(log.slice(0, 2), 8, false, c)).toBe('pending');
    expect(checkLog(log, 11, false, c)).toBe('continues');
    expect(checkLog(log.slice(0, 2), 9, false, c)).toBe('continues');
  });

  it('finds a moved, dropped or added input before its tick, and a game that ended short of it', () => {
    const c = checkpointOf(log, 9);
    expect(checkLog([{ ...log[0]!, tick: 4 }, ...log.slice(1)], 11, false, c)).toBe('differs');
    expect(checkLog(log.slice(1), 11, false, c)).toBe('differs');
    expect(checkLog([...log.slice(0, 2), { tick: 8, key: 'rotateCW', down: true }, ...log.slice(2)], 11, false, c)).toBe('differs');
    expect(checkLog(log.slice(0, 2), 7, true, c)).toBe('differs');
  });

  it('prefers the later of the ticket and a handover', () => {
    const early = checkpointOf(log, 5);
    const late = checkpointOf(log, 9);
    expect(laterCheckpoint(early, late)).toBe(late);
    expect(laterCheckpoint(late, early)).toBe(late);
    expect(laterCheckpoint(null, early)).toBe(early);
    expect(laterCheckpoint(undefined, null)).toBeNull();
  });
});
