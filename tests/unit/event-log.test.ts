import { describe, expect, it } from 'vitest';
import { KEYS, MAX_REPLAY_TICKS, type ReplayEvent } from '@/lib/engine';
import { toWireEvent } from '@/lib/live/protocol';
import { EventLog } from '@/lib/server/live/event-log';

// Every key, both ways, at ticks from 0 to the last a replay may reach: more than the first
// capacity, so the log grows several times on the way.
const events: ReplayEvent[] = Array.from({ length: 1_500 }, (_, i) => ({
  tick: i === 1_499 ? MAX_REPLAY_TICKS - 1 : i * 7,
  key: KEYS[i % KEYS.length]!,
  down: i % 3 === 0,
}));

describe('a live host’s packed input log', () => {
  it('gives back exactly the inputs it was given, as events and on the wire', () => {
    const log = new EventLog();
    log.pushEvents(events.slice(0, 700));
    log.pushWire(events.map(toWireEvent), 700, 1_500);
    expect(log.length).toBe(1_500);
    expect(log.events()).toEqual(events);
    expect(log.wire()).toEqual(events.map(toWireEvent));
  });

  it('reads a range: from a point on, or up to one', () => {
    const log = new EventLog();
    log.pushEvents(events);
    expect(log.wire(1_200)).toEqual(events.slice(1_200).map(toWireEvent));
    expect(log.events(3, 9)).toEqual(events.slice(3, 9));
    // Past the end reads what there is, as slice does.
    expect(log.events(1_490, 2_000)).toEqual(events.slice(1_490));
    expect(new EventLog().wire()).toEqual([]);
  });
});
