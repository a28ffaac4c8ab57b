import { describe, expect, it } from 'vitest';
import { formatLines } from '@/lib/ui/format';

describe('formatLines', () => {
  it('never shows more lines than the goal: a Sprint finished by a Tetris at 38 reads 40/40', () => {
    expect(formatLines(42, 40)).toBe('40/40');
    expect(formatLines(39, 40)).toBe('39/40');
  });

  it('is the plain count in a mode without a goal', () => {
    expect(formatLines(150, 0)).toBe('150');
  });
});
