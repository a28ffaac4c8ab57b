import { describe, expect, it } from 'vitest';
import { roomSizes } from '@/components/rooms/fit-room';

// The room's play view: the own field as large as the space allows, the other 1–15 fields in a
// grid that fits beside it (desk) or under it (a phone, upright), never past the space.
const cellHeight = (width: number, cols: number) => ((width - (cols - 1) * 6) / cols) * (23 / 21) + 30;

describe('roomSizes', () => {
  it('upright on a 360 px phone: own field on top, every other seat under it within 40% of the height', () => {
    for (let others = 1; others <= 15; others++) {
      const space = { width: 344, height: 560 };
      const { own, cols, gridWidth } = roomSizes('upright', space, others, false);
      const rows = Math.ceil(others / cols);
      const grid = rows * cellHeight(gridWidth, cols) + (rows - 1) * 6;
      expect(gridWidth).toBeLessThanOrEqual(space.width);
      expect(own.width).toBeLessThanOrEqual(space.width);
      expect(own.height + 6 + grid, `${others} others`).toBeLessThanOrEqual(space.height + 1);
      expect(own.height, `${others} others`).toBeGreaterThan(250);
    }
  });

  it('at a desk: the own field at full height beside a grid that fits the rest of the width and the height', () => {
    for (let others = 1; others <= 15; others++) {
      const space = { width: 1120, height: 600 };
      const { own, cols, gridWidth } = roomSizes('desk', space, others, false);
      expect(own.width + 6 + gridWidth).toBeLessThanOrEqual(space.width);
      const rows = Math.ceil(others / cols);
      expect(own.height).toBeGreaterThan(400);
      expect(rows * cellHeight(gridWidth, cols) + (rows - 1) * 6, `${others} others`).toBeLessThanOrEqual(space.height);
    }
  });

  it('watching: no own field, every seat in the grid', () => {
    expect(roomSizes('desk', { width: 1120, height: 600 }, 16, true)).toMatchObject({ own: { width: 0, height: 0 } });
  });
});
