import { describe, expect, it } from 'vitest';
import { MODE_NAMES } from '@/lib/engine';
import { pauseNote } from '@/lib/client/live/session';
import { PAUSE_BUDGETS, pauseVerdict } from '@/lib/live/pauses';

describe('pauses in a ranked live game, per mode', () => {
  it('none in Sprint and Ultra: the first costs the rank; Marathon has two of up to 30 s', () => {
    expect(pauseVerdict('sprint', 1)).toBe('paused');
    expect(pauseVerdict('ultra', 1)).toBe('paused');
    expect(pauseVerdict('marathon', 2, 30_000)).toBeNull();
    expect(pauseVerdict('marathon', 3)).toBe('pause_budget');
    expect(pauseVerdict('marathon', 1, 30_001)).toBe('pause_budget');
  });

  it('follows from the rules: none where time counts (20 TSD by time, Perfect Clears breaks ties by it)', () => {
    expect(pauseVerdict('tsd20', 1)).toBe('paused');
    expect(pauseVerdict('pc', 1)).toBe('paused');
  });

  it('the play page says what a pause costs before the first one', () => {
    expect(pauseNote({ mode: 'sprint', ranked: true, pausesLeft: null })).toBe('Pausing makes this game unranked');
    // Not begun (its countdown): a pause deals a new game instead (PlayController.redeals).
    expect(pauseNote({ mode: 'sprint', ranked: true, pausesLeft: null }, true)).toBe('Not begun yet: a pause deals a new game');
    expect(pauseNote({ mode: 'sprint', ranked: false, pausesLeft: 0 }, true)).toBeNull();
    expect(pauseNote({ mode: 'ultra', ranked: true, pausesLeft: 0 })).toBe('Pausing makes this game unranked');
    expect(pauseNote({ mode: 'marathon', ranked: true, pausesLeft: 2 })).toBe('2 pauses left, up to 30 s each');
    expect(pauseNote({ mode: 'marathon', ranked: true, pausesLeft: 1 })).toBe('1 pause left, up to 30 s each');
    // The last one used: the next costs the rank, and the badge says so.
    expect(pauseNote({ mode: 'marathon', ranked: true, pausesLeft: 0 })).toBe('Pausing makes this game unranked');
    // Unranked already (the badge says why), or no game yet: nothing.
    expect(pauseNote({ mode: 'sprint', ranked: false, pausesLeft: 0 })).toBeNull();
    expect(pauseNote({ mode: null, ranked: true, pausesLeft: null })).toBeNull();
  });

  it('has a budget for every solo mode, whole seconds each', () => {
    for (const mode of MODE_NAMES) expect(PAUSE_BUDGETS[mode].eachMs % 1000).toBe(0);
  });
});
