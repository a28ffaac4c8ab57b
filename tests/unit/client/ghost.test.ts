import { describe, expect, it } from 'vitest';
import { finalSplit, GhostRace, standing, standingText } from '@/lib/client/ghost';
import { encodeReplay, simulateReplay } from '@/lib/engine';
import { botGame } from '@/tests/support/replays';

const best = botGame('sprint', 'ghost-test');

describe('GhostRace', () => {
  it('is at each tick where the best game was, and ends as it did', () => {
    const race = new GhostRace(encodeReplay(best.replay));
    const half = Math.floor(best.result.ticks / 2);
    const mid = race.at(half);
    const straight = simulateReplay({ ...best.replay, events: best.replay.events.filter((e) => e.tick < half) }, { maxTicks: half });
    expect(mid).toMatchObject({ tick: half, lines: straight.lines, score: straight.score, over: false });
    expect(race.at(best.result.ticks + 600)).toMatchObject({ lines: best.result.lines, score: best.result.score, over: true, tick: best.result.ticks });
  });
});

describe('standing and split', () => {
  it('compares lines in Sprint and points in Ultra at the same moment', () => {
    expect(standing('sprint', { lines: 12, score: 0 }, { lines: 14, score: 900 })).toBe(-2);
    expect(standingText('sprint', -2)).toBe('Behind by 2 lines');
    expect(standingText('sprint', 1)).toBe('Ahead by 1 line');
    expect(standing('ultra', { lines: 0, score: 2400 }, { lines: 9, score: 1200 })).toBe(1200);
    expect(standingText('ultra', 1200)).toBe('Ahead by 1,200 points');
    expect(standingText('ultra', 0)).toBe('Level with your best');
  });

  it('gives the split at the end, and none for a Sprint that topped out', () => {
    expect(finalSplit('sprint', { tick: 1200, score: 0, finished: true }, { ticks: 1290, score: 0 })).toBe('1.50 s faster than your best');
    expect(finalSplit('sprint', { tick: 1300, score: 0, finished: true }, { ticks: 1290, score: 0 })).toBe('0.17 s slower than your best');
    expect(finalSplit('sprint', { tick: 900, score: 0, finished: false }, { ticks: 1290, score: 0 })).toBeNull();
    expect(finalSplit('ultra', { tick: 7200, score: 5000, finished: true }, { ticks: 7200, score: 5600 })).toBe('600 points under your best');
  });

  it('says a Survival time is longer or shorter than the best: more time survived is better, and a top out ranks', () => {
    expect(finalSplit('survival', { tick: 6000, score: 0, finished: false }, { ticks: 5910, score: 0 })).toBe('1.50 s longer than your best');
    expect(finalSplit('survival', { tick: 5900, score: 0, finished: false }, { ticks: 5910, score: 0 })).toBe('0.17 s shorter than your best');
    expect(standingText('survival', 2)).toBe('Ahead by 2 lines');
  });

  it('races Perfect Clears in clears, and splits on the count, then the time', () => {
    expect(standing('pc', { lines: 8, score: 0, clears: 2 }, { lines: 20, score: 0, clears: 3 })).toBe(-1);
    expect(standingText('pc', -1)).toBe('Behind by 1 clear');
    expect(finalSplit('pc', { tick: 900, score: 0, clears: 4, finished: false }, { ticks: 600, score: 0, clears: 3 })).toBe('1 clear more than your best');
    expect(finalSplit('pc', { tick: 600, score: 0, clears: 3, finished: false }, { ticks: 660, score: 0, clears: 3 })).toBe('1.00 s faster than your best');
    // 20 TSD races lines toward its end as Sprint does: two a T-spin double.
    expect(standingText('tsd20', 2)).toBe('Ahead by 2 lines');
  });
});
