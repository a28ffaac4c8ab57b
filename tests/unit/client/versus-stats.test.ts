import { describe, expect, it } from 'vitest';
import { garbageRowsOf, liveStats, NO_TALLY, tallyFrame, VersusStatsFeed } from '@/lib/client/versus-stats';
import { lockEvent as lock, riseEvent as rise } from '@/tests/engine/helpers';

/** A field of 20 rows, top first: `garbage` rows at the bottom hold garbage (X), the rest are empty. */
const board = (garbage: number, above: string[] = []) => [
  ...Array.from({ length: 20 - garbage - above.length }, () => '..........'),
  ...above,
  ...Array.from({ length: garbage }, () => 'XXXX.XXXXX'),
];

describe('live versus stats (APM, PPS, VS as TETR.IO counts them)', () => {
  it('are zero before the game has run a tick', () => {
    expect(liveStats(NO_TALLY, 0, 0)).toEqual({ apm: 0, pps: 0, vs: 0 });
  });

  it('APM is attack per minute, PPS pieces per second, VS (attack + garbage cleared) per second × 100', () => {
    const t = { ...NO_TALLY, attack: 30, garbageCleared: 6 };
    // 120 s at 60 ticks a second, 60 pieces.
    expect(liveStats(t, 60, 7200)).toEqual({ apm: 15, pps: 0.5, vs: 30 });
  });

  it('counts attack from every lock, cancelled or not', () => {
    const t = tallyFrame(NO_TALLY, [lock([], 0), lock([0, 1], 1), lock([0, 1, 2, 3], 4)], board(0));
    expect(t.attack).toBe(5);
  });

  it('reads where garbage rows are from the field (bottom row is 0)', () => {
    expect(garbageRowsOf(board(2))).toEqual([0, 1]);
    expect(garbageRowsOf(board(0, ['TTT.......']))).toEqual([]);
    expect(garbageRowsOf(board(1, ['XXXXXXXXX.', '..........']))).toEqual([0, 2]);
  });

  it('counts a cleared row as garbage cleared only when it was a garbage row, following rises and clears in the frame', () => {
    // Two garbage rows under the stack; a line cleared above them is not garbage.
    let t = tallyFrame(NO_TALLY, [], board(2));
    t = tallyFrame(t, [lock([2], 0)], board(2));
    expect(t.garbageCleared).toBe(0);
    // Two more rise, then one lock clears the lowest two (garbage) and row 5 (not): rows above move down.
    t = tallyFrame(t, [rise(2), lock([0, 1, 5], 1)], board(2));
    expect(t.garbageCleared).toBe(2);
  });

  it('keeps following rows within one frame: a clear then a rise then a clear', () => {
    const t = tallyFrame({ ...NO_TALLY, garbageRows: [0, 3] }, [lock([1], 0), rise(1), lock([0, 1, 3], 0)], board(0));
    // After clearing row 1: garbage at 0 and 2; after the rise: 0, 1, 3; the second lock clears all three.
    expect(t.garbageCleared).toBe(3);
    // The next frame starts from the field as drawn.
    expect(t.garbageRows).toEqual([]);
  });
});

describe('the stats feed of a versus page', () => {
  const field = (tick: number, pieces: number) => ({ tick, pieces, board: board(0) });

  it('hands out both fields\' numbers at most every 250 ms, and starts again with each game of the set', () => {
    const shown: Array<[number, number]> = [];
    const feed = new VersusStatsFeed((s) => shown.push([s[0].pps, s[1].pps]));
    feed.frame(0, field(60, 2), [lock([], 2)], field(60, 1), [], 0);
    feed.frame(0, field(120, 4), [], field(120, 3), [], 100);
    feed.frame(0, field(180, 6), [], field(180, 3), [], 260);
    expect(shown).toEqual([[2, 1], [2, 1]]);
    // The next game: its first frame is shown at once, from zero.
    feed.frame(1, field(0, 0), [], null, [], 300);
    expect(shown.at(-1)).toEqual([0, 0]);
  });
});
