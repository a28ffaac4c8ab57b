import { describe, expect, it } from 'vitest';
import { GAP, sideWidth, versusSizes } from '@/components/versus/fit-versus';

const aspect = 21 / 23;

describe('the versus play view\'s field sizes', () => {
  it('upright on a phone, the width is shared: both pictures and the gap fit the row, the player\'s twice the opponent\'s', () => {
    for (const width of [328, 380]) {
      const { own, opponent } = versusSizes('upright', { width, height: 520 });
      expect(own.width + GAP + opponent.width).toBeLessThanOrEqual(width);
      expect(own.width + GAP + opponent.width).toBeGreaterThan(width - 4);
      expect(opponent.height / own.height).toBeCloseTo(0.5, 1);
      expect(own.width / own.height).toBeCloseTo(aspect, 1);
    }
  });

  it('on its side, the fields fit between the pad\'s bands, the player\'s field as tall as the height allows', () => {
    const space = { width: sideWidth(839), height: 412 - 16 };
    const { own, opponent } = versusSizes('side', space);
    expect(own.width + GAP + opponent.width).toBeLessThanOrEqual(space.width);
    expect(own.height).toBeGreaterThanOrEqual(0.9 * space.height);
    // Readable: a cell of 5 px or more (the picture is 23 cells high).
    expect(opponent.height / 23).toBeGreaterThanOrEqual(5);
  });

  it('at a desk, the height decides and the opponent\'s field is 70% of the player\'s', () => {
    const { own, opponent } = versusSizes('desk', { width: 1120, height: 528 });
    expect(own.height).toBe(528);
    expect(opponent.height).toBe(Math.floor(528 * 0.7));
  });
});
