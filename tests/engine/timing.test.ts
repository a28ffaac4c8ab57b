import { describe, expect, it } from 'vitest';
import type { Game, GameEvent, Handling } from '@/lib/engine';
import { down, game, idle, ofType, tap, up } from '@/tests/engine/helpers';

/** Tick number (from now) of each event of a type over n ticks. */
function when(g: Game, n: number, type: GameEvent['type'], first: Parameters<Game['tick']>[0] = []): number[] {
  const at: number[] = [];
  for (let t = 0; t < n; t++) for (const e of g.tick(t === 0 ? first : [])) if (e.type === type) at.push(t);
  return at;
}
const xs = (g: Game, n: number, first: Parameters<Game['tick']>[0]): number[] => {
  const out: number[] = [];
  for (let t = 0; t < n; t++) {
    g.tick(t === 0 ? first : []);
    out.push(g.snapshot().active!.x);
  }
  return out;
};
const handling = (h: Partial<Handling>): Handling => ({ das: 10, arr: 2, sdf: 20, dasCut: false, ...h });

describe('gravity and spawn', () => {
  it('spawns in rows 21–22 and drops one row at once; level 1 falls a row every 60 ticks', () => {
    const g = game({ queue: ['T'] });
    expect(g.snapshot().active).toEqual({ type: 'T', rotation: '0', x: 4, y: 19 });
    expect(when(g, 180, 'move')).toEqual([59, 119, 179]);
  });
});

describe('lock delay', () => {
  const floor = { type: 'T', rotation: '0', x: 4, y: 0 } as const;

  it('locks after 30 grounded ticks', () => {
    expect(when(game({ active: floor }), 40, 'lock')).toEqual([29]);
  });

  it('a successful move restarts it', () => {
    const g = game({ active: floor });
    idle(g, 20);
    expect(when(g, 40, 'lock', [down('left'), up('left')])).toEqual([29]);
  });

  it('locks at once after 15 resets', () => {
    const g = game({ active: floor });
    for (let i = 0; i < 7; i++) {
      tap(g, 'left');
      tap(g, 'right');
    }
    expect(g.snapshot().pieces).toBe(0);
    const events = g.tick([down('left')]);
    expect(ofType(events, 'move')).toHaveLength(1);
    expect(ofType(events, 'lock')).toHaveLength(1);
  });

  it('reaching a new lowest row gives the resets back', () => {
    const g = game({ board: ['XXXX......'], active: { type: 'O', rotation: '0', x: 2, y: 1 }, handling: handling({ sdf: 'instant' }) });
    for (let i = 0; i < 6; i++) {
      tap(g, 'left');
      tap(g, 'right');
    }
    // 13 resets used on the ledge; stepping off and dropping to the floor restores all 15.
    g.tick([down('right'), down('softDrop')]);
    expect(g.snapshot().active).toMatchObject({ x: 3, y: 1 });
    g.tick([up('right')]);
    g.tick([down('right')]);
    expect(g.snapshot().active).toMatchObject({ x: 4, y: 0 });
    g.tick([up('right'), up('softDrop')]);
    for (let i = 0; i < 7; i++) {
      tap(g, 'right');
      tap(g, 'left');
    }
    expect(g.snapshot().pieces).toBe(0);
  });
});

describe('DAS / ARR', () => {
  it('das 10, arr 2: tap now, repeats from tick 10 every 2 ticks, to the wall', () => {
    expect(xs(game({ queue: ['T'] }), 16, [down('right')])).toEqual([5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 7, 7, 8, 8]);
  });

  it('arr 0 goes to the wall on the tick DAS charges', () => {
    const g = game({ queue: ['T'], handling: handling({ arr: 0 }) });
    const moves: number[] = [];
    for (let t = 0; t < 12; t++) for (const e of g.tick(t === 0 ? [down('left')] : [])) if (e.type === 'move' && e.dy === 0) moves.push(t * 100 + e.dx);
    expect(moves).toEqual([0 - 1, 1000 - 2]);
    expect(g.snapshot().active!.x).toBe(1);
  });

  it('both held: last pressed wins; releasing it hands back to the other, which charges again', () => {
    const g = game({ queue: ['T'], handling: handling({ arr: 1 }) });
    g.tick([down('right')]); // t0 x5
    idle(g, 2); // t1–2
    g.tick([down('left')]); // t3 x4
    idle(g, 2);
    expect(g.snapshot().active!.x).toBe(4);
    const r = xs(g, 14, [up('left')]); // t6: right takes over, DAS restarts, no tap
    expect(r).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 6, 7, 8]);
  });

  it('DAS carries into the next piece unless dasCut', () => {
    for (const [dasCut, expected] of [[false, 8], [true, 4]] as const) {
      const g = game({ queue: ['T', 'T'], handling: handling({ arr: 0, dasCut }) });
      g.tick([down('right')]);
      idle(g, 12);
      g.tick([down('hardDrop'), up('hardDrop')]);
      expect([dasCut, g.snapshot().active!.x]).toEqual([dasCut, expected]);
      if (dasCut) {
        idle(g, 9);
        expect(g.snapshot().active!.x).toBe(4);
        g.tick();
        expect(g.snapshot().active!.x).toBe(8);
      }
    }
  });
});

describe('soft drop', () => {
  it('sdf 20 at level 1 falls a row every 3 ticks and scores each row', () => {
    const g = game({ queue: ['T'] });
    expect(when(g, 9, 'softDrop', [down('softDrop')])).toEqual([2, 5, 8]);
    expect(g.snapshot()).toMatchObject({ score: 3, active: { y: 16 } });
  });

  it("'instant' drops to the floor without locking", () => {
    const g = game({ queue: ['T'], handling: handling({ sdf: 'instant' }) });
    g.tick([down('softDrop')]);
    expect(g.snapshot()).toMatchObject({ active: { y: 0 }, pieces: 0 });
    expect(when(g, 40, 'lock')).toEqual([28]);
  });
});

describe('hold', () => {
  it('empty hold takes the next piece; then swaps; once per piece', () => {
    const g = game({ queue: ['T', 'I', 'O', 'S'] });
    const [h1] = ofType(tap(g, 'hold'), 'hold');
    expect(h1).toEqual({ type: 'hold', piece: 'T', swappedFor: null });
    expect(g.snapshot()).toMatchObject({ hold: 'T', holdUsed: true, active: { type: 'I', x: 4, y: 19 } });
    expect(ofType(tap(g, 'hold'), 'hold')).toHaveLength(0);
    g.tick([down('hardDrop'), up('hardDrop')]);
    expect(g.snapshot()).toMatchObject({ holdUsed: false, active: { type: 'O' } });
    const [h2] = ofType(tap(g, 'hold'), 'hold');
    expect(h2).toEqual({ type: 'hold', piece: 'O', swappedFor: 'T' });
    expect(g.snapshot()).toMatchObject({ hold: 'O', active: { type: 'T', rotation: '0', x: 4, y: 19 }, next: ['S', expect.anything(), expect.anything(), expect.anything(), expect.anything()] });
  });
});

describe('top out', () => {
  it('block out: the next piece overlaps at spawn', () => {
    const g = game({ board: Array<string>(18).fill('....X.....'), active: { type: 'I', rotation: 'R', x: 3, y: 25 } });
    const events = g.tick([down('hardDrop')]);
    expect(ofType(events, 'lock')[0]).toMatchObject({ y: 20 });
    expect(ofType(events, 'gameOver')).toEqual([{ type: 'gameOver', reason: 'blockOut' }]);
    expect(g.snapshot()).toMatchObject({ over: true, toppedOut: true, finished: false, reason: 'blockOut' });
    expect(g.tick([down('left')])).toEqual([]);
  });

  it('lock out: a piece locks wholly above the visible field', () => {
    const g = game({ board: Array<string>(20).fill('....XX....'), queue: ['O'] });
    expect(g.snapshot().active).toMatchObject({ y: 20 });
    const events = g.tick([down('hardDrop')]);
    expect(ofType(events, 'gameOver')).toEqual([{ type: 'gameOver', reason: 'lockOut' }]);
    expect(g.snapshot()).toMatchObject({ toppedOut: true, reason: 'lockOut', pieces: 1 });
  });
});
