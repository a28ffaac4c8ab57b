import { describe, expect, it } from 'vitest';
import { GameConfigError } from '@/lib/engine';
import { down, game, idle, ofType, tap } from '@/tests/engine/helpers';

// A fumen drill's piece waits for the player: `lock: 'hardDrop'` (config only, never in a replay).
describe("lock: 'hardDrop'", () => {
  const floor = { type: 'T', rotation: '0', x: 4, y: 0 } as const;

  it('leaves a resting piece in place however long it waits', () => {
    const g = game({ active: floor, lock: 'hardDrop' });
    expect(ofType(idle(g, 600), 'lock')).toEqual([]);
    expect(g.snapshot().active).toEqual(floor);
  });

  it('still falls with gravity and stays on the floor', () => {
    const g = game({ queue: ['T'], lock: 'hardDrop' });
    idle(g, 60 * 25);
    expect(g.snapshot().active).toEqual(floor);
    expect(g.snapshot().pieces).toBe(0);
  });

  it('ignores the 15-reset limit', () => {
    const g = game({ active: floor, lock: 'hardDrop' });
    for (let i = 0; i < 20; i++) {
      tap(g, 'left');
      tap(g, 'right');
    }
    idle(g, 60);
    expect(g.snapshot().pieces).toBe(0);
  });

  it('locks on a hard drop, and the next piece waits too', () => {
    const g = game({ queue: ['T', 'O'], lock: 'hardDrop' });
    expect(ofType(g.tick([down('hardDrop')]), 'lock')).toHaveLength(1);
    idle(g, 60 * 25);
    expect(g.snapshot().pieces).toBe(1);
    expect(g.snapshot().active?.type).toBe('O');
  });

  it('clones with the rule', () => {
    const g = game({ active: floor, lock: 'hardDrop' }).clone();
    idle(g, 100);
    expect(g.snapshot().pieces).toBe(0);
  });

  it("leaves 'delay' (the default) exactly as before: same hash, and it still locks", () => {
    expect(game({ queue: ['T'], lock: 'delay' }).hash()).toBe(game({ queue: ['T'] }).hash());
    expect(game({ queue: ['T'], lock: 'hardDrop' }).hash()).not.toBe(game({ queue: ['T'] }).hash());
    expect(ofType(idle(game({ active: floor, lock: 'delay' }), 40), 'lock')).toHaveLength(1);
  });

  it('refuses an unknown lock rule', () => {
    expect(() => game({ lock: 'never' as never })).toThrow(GameConfigError);
  });
});
