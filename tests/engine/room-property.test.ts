import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROOM_RULES, RoomGame, TARGETINGS, type RoomRules } from '@/lib/engine';
import { MAX_AHEAD_TICKS } from '@/lib/engine/referee';
import { HANDLING } from '@/tests/engine/helpers';
import { playRoom, type SeatTick } from '@/tests/engine/room-support';

// The referee plays in lockstep, so a match is a function of the seats' streams alone: sent in
// any batching, in any order of arrival, the same streams give the same replays and outcome.
const config = (seats: number, rules: RoomRules) => ({ mode: 'battle' as const, seed: 'prop', rules, handling: Array.from({ length: seats }, () => HANDLING) });

function summary(g: RoomGame) {
  return { outcome: g.outcome, placements: g.placements(), replays: Array.from({ length: g.seats }, (_, s) => g.replay(s)), tick: g.tick };
}

/**
 * Sends the streams in chunks: the schedule names (seat, ticks) pairs, cycled until all is sent;
 * a seat as far ahead as the referee holds waits for the others.
 */
function batched(seats: number, rules: RoomRules, streams: SeatTick[][], schedule: [number, number][]) {
  const g = new RoomGame(config(seats, rules));
  const sent = streams.map(() => 0);
  let i = 0;
  while (sent.some((n, s) => n < streams[s]!.length)) {
    const [pick, size] = schedule[i++ % schedule.length]!;
    // The next seat with something left and room to run ahead, from the one the schedule names.
    let s = pick % seats;
    while (sent[s]! >= streams[s]!.length || g.waiting(s) >= MAX_AHEAD_TICKS) s = (s + 1) % seats;
    for (let k = 0; k < size && sent[s]! < streams[s]!.length && g.waiting(s) < MAX_AHEAD_TICKS; k++) {
      const step = streams[s]![sent[s]!++]!;
      g.play(s, step.inputs, step.target);
    }
  }
  return summary(g);
}

describe('a room match is deterministic under any batching of the seats\' streams', () => {
  const cases: [string, number, Partial<RoomRules>][] = [
    ...TARGETINGS.map((targeting): [string, number, Partial<RoomRules>] => [`${targeting}, 4 seats FFA`, 4, { targeting, messiness: 40 }]),
    ['even, 2v2', 4, { teams: [0, 1, 1, 0] }],
    ['random, 3v3', 6, { targeting: 'random', teams: [0, 1, 2, 0, 1, 2].map((t) => t % 2) }],
    ['manual, 2v2v2', 6, { targeting: 'manual', teams: [0, 1, 2, 0, 1, 2] }],
  ];
  it.each(cases)('%s', (_, seats, partial) => {
    const rules = { ...DEFAULT_ROOM_RULES, ...partial };
    const reference = new RoomGame(config(seats, rules));
    const streams = playRoom(reference, Array.from({ length: seats }, (_, s) => ({ seed: `p/${s}`, mistakes: 0.05 + 0.05 * s })), 2500);
    const expected = summary(reference);
    expect(expected.replays.reduce((n, r) => n + r.garbage!.length, 0)).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(15), fc.integer({ min: 1, max: 900 })), { minLength: 1, maxLength: 12 }), (schedule) => {
        expect(batched(seats, rules, streams, schedule)).toEqual(expected);
      }),
      { numRuns: 8 },
    );
  });
});
