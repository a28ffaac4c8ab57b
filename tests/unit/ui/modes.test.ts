import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, MODE_NAMES, MODES, RANKED_MODE_NAMES, VERSUS_MODE_NAMES } from '@/lib/engine';
import { clientMessageSchema } from '@/lib/live/protocol';
import { formatTime } from '@/lib/ui/format';
import { formatResult, isMode, MODE_INFO, MODE_ORDER, PLAY_ORDER, VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { modeSchema } from '@/lib/validations/games';

describe('MODE_INFO', () => {
  it('describes every engine mode once, and the pages list each once', () => {
    expect(Object.keys(MODE_INFO).sort()).toEqual([...MODE_NAMES].sort());
    expect([...PLAY_ORDER].sort()).toEqual([...MODE_NAMES].sort());
    // The board pages list only the modes that rank; Zen is played, never ranked.
    expect([...MODE_ORDER].sort()).toEqual([...RANKED_MODE_NAMES].sort());
    expect(MODE_ORDER).not.toContain('zen');
    expect(PLAY_ORDER).toContain('zen');
    for (const mode of MODE_NAMES) {
      expect(MODE_INFO[mode].label.length).toBeGreaterThan(0);
      expect(MODE_INFO[mode].title.length).toBeGreaterThan(0);
      expect(MODE_INFO[mode].blurb.length).toBeGreaterThan(0);
    }
  });

  it('formats a result by what the engine says the mode ranks by', () => {
    const game = { ticks: 3723, score: 123_456, clears: 7 };
    const reads = { time: [formatTime(game.ticks), 'Time'], score: ['123,456', 'Score'], clears: ['7 clears in 1:02.05', 'Clears'] } as const;
    for (const mode of MODE_NAMES) {
      const [expected, label] = reads[MODES[mode].rankBy];
      expect(formatResult(mode, game)).toBe(expected);
      expect(MODE_INFO[mode].result.label).toBe(label);
    }
    expect(formatResult('sprint', game)).toBe('1:02.05');
    expect(formatResult('pc', game)).toBe('7 clears in 1:02.05');
    // A game of a classic mode carries no count: read as none.
    expect(formatResult('pc', { ticks: 60, score: 0 })).toBe('0 clears in 0:01.00');
  });

  it('knows a mode name from anything else', () => {
    expect(MODE_NAMES.every(isMode)).toBe(true);
    expect(isMode('zen-garden')).toBe(false);
    expect(isMode('toString')).toBe(false);
  });

  it('takes no ticket, board or replay list for a mode that never ranks', () => {
    expect(modeSchema.safeParse('zen').success).toBe(false);
    for (const mode of RANKED_MODE_NAMES) expect(modeSchema.safeParse(mode).success).toBe(true);
    // Nor a live start: a modified client cannot open a ranked game of it.
    const start = (mode: string) => clientMessageSchema.safeParse({ t: 'start', mode, handling: DEFAULT_HANDLING, nextCount: 5 }).success;
    expect(start('zen')).toBe(false);
    for (const mode of RANKED_MODE_NAMES) expect(start(mode)).toBe(true);
  });

  it('keeps versus modes off the solo lists: no solo board, play page or ticket takes one', () => {
    for (const mode of VERSUS_MODE_NAMES) {
      expect(MODES[mode].kind).toBe('versus');
      expect(Object.keys(MODE_INFO)).not.toContain(mode);
      expect(MODE_ORDER as readonly string[]).not.toContain(mode);
      expect(isMode(mode)).toBe(false);
      expect(modeSchema.safeParse(mode).success).toBe(false);
      expect(VERSUS_MODE_INFO[mode].title.length).toBeGreaterThan(0);
    }
  });
});
