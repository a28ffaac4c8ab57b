import { describe, expect, it } from 'vitest';
import { FINESSE_MOVES } from '@/lib/engine';
import { explainFault, formatFaults, MOVE_TEXTS } from '@/lib/ui/finesse';

describe('finesse text', () => {
  it('says every move in words of its own', () => {
    const texts = FINESSE_MOVES.map((m) => MOVE_TEXTS[m]);
    expect(new Set(texts).size).toBe(FINESSE_MOVES.length);
  });

  it('explains a fault with the count and a shortest way', () => {
    expect(explainFault({ inputs: 2, needed: 1, faults: 1, path: ['dasRight'] })).toBe('2 inputs, 1 needed: hold right');
    expect(explainFault({ inputs: 1, needed: 0, faults: 1, path: [] })).toBe('1 input, 0 needed: no input (drop it where it spawns)');
    expect(explainFault({ inputs: 4, needed: 2, faults: 2, path: ['cw', 'left'] })).toBe('4 inputs, 2 needed: rotate clockwise, tap left');
  });

  it('has nothing to explain for a clean piece or one not judged', () => {
    expect(explainFault({ inputs: 1, needed: 1, faults: 0, path: ['left'] })).toBeNull();
    expect(explainFault({ inputs: 5, needed: null, faults: 0, path: [] })).toBeNull();
  });

  it('shows a dash where no count was kept', () => {
    expect([formatFaults(null), formatFaults(0), formatFaults(3)]).toEqual(['—', '0', '3']);
  });
});
