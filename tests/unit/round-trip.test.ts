import { describe, expect, it } from 'vitest';
import { PACING } from '@/lib/server/live/pacing';
import { RoundTrip } from '@/lib/server/live/round-trip';

/** A RoundTrip on a clock of the test's, with the pings it sent. */
function meter() {
  const clock = { now: 0 };
  const pings: Buffer[] = [];
  const rt = new RoundTrip((payload) => pings.push(payload), () => clock.now);
  /** Probes now, then answers the ping `afterMs` later (`answer` false: never). */
  const sample = (afterMs: number, answer = true) => {
    clock.now += PACING.roundTripProbeEveryMs;
    rt.probe();
    clock.now += afterMs;
    if (answer) rt.pong(pings.at(-1)!);
  };
  return { clock, pings, rt, sample };
}

describe("a connection's round trip as the server measures it", () => {
  it('is unknown before the first pong, then the median of the recent samples', () => {
    const m = meter();
    expect(m.rt.ms).toBeNull();
    for (const ms of [30, 25, 200, 28, 27]) m.sample(ms);
    expect(m.rt.ms).toBe(28);
    // Only the last few count: a connection that became slow is measured slow.
    for (let i = 0; i < PACING.roundTripSamples; i++) m.sample(120);
    expect(m.rt.ms).toBe(120);
  });

  it('pings at most every PACING.roundTripProbeEveryMs, each with a fresh payload', () => {
    const m = meter();
    m.rt.probe();
    m.rt.pong(m.pings[0]!);
    m.clock.now += PACING.roundTripProbeEveryMs - 1;
    m.rt.probe();
    expect(m.pings).toHaveLength(1);
    m.clock.now += 1;
    m.rt.probe();
    expect(m.pings).toHaveLength(2);
    expect(m.pings[1]!.equals(m.pings[0]!)).toBe(false);
  });

  it('takes only the pong of the ping it awaits: a made-up, repeated or heartbeat pong measures nothing', () => {
    const m = meter();
    m.rt.probe();
    m.clock.now += 5;
    m.rt.pong(Buffer.alloc(8)); // sent before the ping's payload could be known
    m.rt.pong(Buffer.alloc(0)); // the hub's heartbeat ping carries none
    expect(m.rt.ms).toBeNull();
    m.clock.now += 40;
    m.rt.pong(m.pings[0]!);
    m.rt.pong(m.pings[0]!);
    expect(m.rt.ms).toBe(45);
  });

  it('never measures more than the cap, however long a client holds its pongs or leaves them unanswered', () => {
    const held = meter();
    for (let i = 0; i < PACING.roundTripSamples; i++) held.sample(4_000);
    expect(held.rt.ms).toBe(PACING.starveCreditMaxMs);

    const silent = meter();
    for (let i = 0; i < PACING.roundTripSamples + 1; i++) silent.sample(0, false);
    expect(silent.rt.ms).toBe(PACING.starveCreditMaxMs);
  });
});
