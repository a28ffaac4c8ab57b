import { describe, expect, it } from 'vitest';
import { cheeseOf, HOLES_AHEAD, MAX_REPLAY_TICKS, MODES } from '@/lib/engine';
import { riseTick } from '@/lib/engine/survival';
import { MAX_HOLE_COLUMNS, serverMessageSchema } from '@/lib/live/protocol';

/**
 * A resumed live game gets every hole column dealt since its start (game-host.ts resumed()), so the
 * browser can play its log again from tick 0. Survival deals one per row the clock raises: past a
 * few minutes that was more than the protocol's 256, and a reconnect failed to parse.
 */
describe('the hole columns a resumed Survival game carries', () => {
  it('fit the protocol for as many rows as the clock raises in the longest game', () => {
    const rise = cheeseOf(MODES.survival)!.rise!;
    let rows = 0;
    while (riseTick(rise, rows) <= MAX_REPLAY_TICKS) rows++;
    expect(rows).toBeGreaterThan(256);
    const holes = Array.from({ length: rows + HOLES_AHEAD }, (_, i) => i % 10);
    const resumed = { t: 'resumed', gameId: 'g', lastSeq: 3, tick: MAX_REPLAY_TICKS, from: 0, pieces: [], holes };
    expect(serverMessageSchema.safeParse(resumed).success).toBe(true);
    const over = Array.from({ length: MAX_HOLE_COLUMNS + 1 }, () => 0);
    expect(serverMessageSchema.safeParse({ ...resumed, holes: over }).success).toBe(false);
  });
});
