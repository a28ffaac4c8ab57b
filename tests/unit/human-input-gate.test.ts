import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HUMAN_INPUT, HumanInputGate } from '@/lib/input-limits';

/** The rule counted afresh for each input: events on its tick so far, key-downs in the window ending at it. */
function firstBreach(events: ReadonlyArray<{ tick: number; down: boolean }>): number {
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const before = events.slice(0, i + 1);
    if (before.filter((x) => x.tick === e.tick).length > HUMAN_INPUT.maxEventsPerTick) return i;
    if (e.down && before.filter((x) => x.down && x.tick > e.tick - HUMAN_INPUT.windowTicks).length > HUMAN_INPUT.maxKeyDownsPerWindow) return i;
  }
  return -1;
}

describe('HumanInputGate', () => {
  it('refuses exactly the first input a person could not have made, streamed one at a time', () => {
    const stream = fc.array(fc.record({ gap: fc.constantFrom(0, 0, 1, 1, 2, 3, 7, 40), down: fc.boolean() }), { maxLength: 400 }).map((xs) => {
      let tick = 0;
      return xs.map(({ gap, down }) => ({ tick: (tick += gap), down }));
    });
    fc.assert(
      fc.property(stream, (events) => {
        const gate = new HumanInputGate();
        const refused = events.findIndex((e) => gate.add(e.tick, e.down) !== null);
        expect(refused).toBe(firstBreach(events));
      }),
      { numRuns: 400 },
    );
  });

  it('costs the same whatever came before: a long honest stream, then one press too many', () => {
    const gate = new HumanInputGate();
    for (let t = 0; t < 100_000; t += 3) expect(gate.add(t, t % 2 === 0)).toBeNull();
    const start = 100_000 + HUMAN_INPUT.windowTicks;
    for (let i = 0; i < HUMAN_INPUT.maxKeyDownsPerWindow; i++) expect(gate.add(start + i, true)).toBeNull();
    expect(gate.add(start + HUMAN_INPUT.maxKeyDownsPerWindow, true)).toMatch(/key presses within one second/);
  });
});
