import { describe, expect, it } from 'vitest';
import { MODE_NAMES, MODES } from '@/lib/engine';
import { formatTime } from '@/lib/ui/format';
import { formatResult, isMode, MODE_INFO, MODE_ORDER } from '@/lib/ui/modes';

describe('MODE_INFO', () => {
  it('describes every engine mode once, and the pages list each once', () => {
    expect(Object.keys(MODE_INFO).sort()).toEqual([...MODE_NAMES].sort());
    expect([...MODE_ORDER].sort()).toEqual([...MODE_NAMES].sort());
    for (const mode of MODE_NAMES) {
      expect(MODE_INFO[mode].label.length).toBeGreaterThan(0);
      expect(MODE_INFO[mode].title.length).toBeGreaterThan(0);
      expect(MODE_INFO[mode].blurb.length).toBeGreaterThan(0);
    }
  });

  it('formats a result by what the engine says the mode ranks by', () => {
    const game = { ticks: 3723, score: 123_456 };
    for (const mode of MODE_NAMES) {
      const expected = MODES[mode].rankBy === 'time' ? formatTime(game.ticks) : '123,456';
      expect(formatResult(mode, game)).toBe(expected);
      expect(MODE_INFO[mode].result.label).toBe(MODES[mode].rankBy === 'time' ? 'Time' : 'Score');
    }
    expect(formatResult('sprint', game)).toBe('1:02.05');
  });

  it('knows a mode name from anything else', () => {
    expect(MODE_NAMES.every(isMode)).toBe(true);
    expect(isMode('zen')).toBe(false);
    expect(isMode('toString')).toBe(false);
  });
});
