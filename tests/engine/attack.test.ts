import { describe, expect, it } from 'vitest';
import { attackFor, COMBO_ATTACK, createGame, MAX_GARBAGE_SIZE, MAX_ATTACK, type Game } from '@/lib/engine';
import { SPIN_FULL, SPIN_MINI, SPIN_NONE } from '@/lib/engine/scoring';
import { HANDLING, ofType, tap } from '@/tests/engine/helpers';

describe('attack table (guideline / Jstris defaults)', () => {
  it.each([
    ['nothing', SPIN_NONE, 0, 0], ['single', SPIN_NONE, 1, 0], ['double', SPIN_NONE, 2, 1], ['triple', SPIN_NONE, 3, 2],
    ['tetris', SPIN_NONE, 4, 4], ['T-spin mini no lines', SPIN_MINI, 0, 0], ['T-spin mini single', SPIN_MINI, 1, 0],
    ['T-spin mini double', SPIN_MINI, 2, 1], ['T-spin no lines', SPIN_FULL, 0, 0], ['T-spin single', SPIN_FULL, 1, 2],
    ['T-spin double', SPIN_FULL, 2, 4], ['T-spin triple', SPIN_FULL, 3, 6],
  ])('%s', (_name, spin, lines, attack) => {
    expect(attackFor(spin, lines, false, 0, false)).toBe(attack);
  });

  it('back-to-back adds 1 to tetrises and line-clearing T-spins (mini included), nothing else', () => {
    expect(attackFor(SPIN_NONE, 4, true, 0, false)).toBe(5);
    expect(attackFor(SPIN_FULL, 2, true, 0, false)).toBe(5);
    expect(attackFor(SPIN_MINI, 1, true, 0, false)).toBe(1);
    expect(attackFor(SPIN_NONE, 3, true, 0, false)).toBe(2);
    expect(attackFor(SPIN_FULL, 0, true, 0, false)).toBe(0);
  });

  it('combo table 0,0,1,1,1,2,2,3,3,4,4,4,5, then 5, added to a clearing lock', () => {
    expect(COMBO_ATTACK).toEqual([0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5]);
    const singles = Array.from({ length: 16 }, (_, combo) => attackFor(SPIN_NONE, 1, false, combo, false));
    expect(singles).toEqual([0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5]);
    expect(attackFor(SPIN_NONE, 0, false, 5, false)).toBe(0);
  });

  it('a perfect clear adds 10 to the clear', () => {
    expect(attackFor(SPIN_NONE, 1, false, 0, true)).toBe(10);
    expect(attackFor(SPIN_NONE, 4, true, 2, true)).toBe(4 + 1 + 1 + 10);
  });

  it('one lock never sends more than one garbage event may carry', () => {
    expect(MAX_ATTACK).toBe(6 + 1 + 5 + 10);
    expect(MAX_ATTACK).toBeLessThanOrEqual(MAX_GARBAGE_SIZE);
  });
});

/** A vertical I dropped into the right-hand well. */
function iIntoWell(g: Game) {
  return [...tap(g, 'rotateCW'), ...tap(g, 'right'), ...tap(g, 'right'), ...tap(g, 'right'), ...tap(g, 'right'), ...tap(g, 'hardDrop')];
}

describe('lock events carry the attack in play', () => {
  const well = Array.from({ length: 12 }, () => 'XXXXXXXXX.');

  it('three tetrises in a row: 4, then back-to-back 5, then back-to-back and combo 6; all sent in versus', () => {
    const g = createGame({ mode: 'battle', seed: 's', handling: HANDLING, board: [...well, 'XXXX.XXXXX'], queue: ['I', 'I', 'I'] });
    const locks = [iIntoWell(g), iIntoWell(g), iIntoWell(g)].flatMap((events) => ofType(events, 'lock'));
    expect(locks.map((l) => [l.linesCleared, l.b2b, l.combo, l.attack, l.sent])).toEqual([
      [4, false, 0, 4, 4],
      [4, true, 1, 5, 5],
      [4, true, 2, 6, 6],
    ]);
  });

  it('the third tetris that empties the field is a perfect clear: 6 + 10', () => {
    const g = createGame({ mode: 'race30', seed: 's', handling: HANDLING, board: well, queue: ['I', 'I', 'I'] });
    const locks = [iIntoWell(g), iIntoWell(g), iIntoWell(g)].flatMap((events) => ofType(events, 'lock'));
    expect(locks.map((l) => [l.perfectClear, l.attack])).toEqual([[false, 4], [false, 5], [true, 16]]);
  });

  it('solo modes report the attack but send nothing', () => {
    const g = createGame({ mode: 'marathon', seed: 's', handling: HANDLING, board: well, queue: ['I'] });
    expect(ofType(iIntoWell(g), 'lock').map((l) => [l.attack, l.sent])).toEqual([[4, 0]]);
  });
});
