import { describe, expect, it } from 'vitest';
import { createGame, DEFAULT_HANDLING, type GameEvent } from '@/lib/engine';
import { soundsFor } from '@/components/game/sound';

const lock = (patch: Partial<Extract<GameEvent, { type: 'lock' }>>): GameEvent => ({
  type: 'lock', piece: 'T', rotation: '0', x: 4, y: 0, cells: [], linesCleared: 0, clearedRows: [], spin: 'none', b2b: false, combo: -1, perfectClear: false, points: 0, attack: 0, sent: 0, ...patch,
});

describe('sound effects from engine events', () => {
  it('a real game’s taps, rotations and hard drop sound; gravity does not', () => {
    const game = createGame({ mode: 'marathon', seed: 'sound', handling: DEFAULT_HANDLING });
    const events = [
      ...game.tick([{ key: 'left', down: true }]),
      ...game.tick([{ key: 'left', down: false }, { key: 'rotateCW', down: true }]),
      ...game.tick([{ key: 'rotateCW', down: false }, { key: 'hardDrop', down: true }]),
    ];
    expect(soundsFor(events).map(([e]) => e)).toEqual(['move', 'rotate', 'hardDrop', 'lock']);
    expect(soundsFor([{ type: 'move', dx: 0, dy: -1, source: 'gravity' }])).toEqual([]);
  });

  it('a back-to-back T-spin double in a combo sounds each of its parts, line clears by their size', () => {
    const effects = soundsFor([lock({ spin: 'full', linesCleared: 2, b2b: true, combo: 2 })]);
    expect(effects.map(([e]) => e)).toEqual(['lock', 'tspin', 'clear', 'b2b', 'combo']);
    const tetris = soundsFor([lock({ linesCleared: 4, perfectClear: true })]);
    expect(tetris.find(([e]) => e === 'clear')![1]).toHaveLength(4);
    expect(tetris.map(([e]) => e)).toContain('perfectClear');
  });

  it('level up, game over and a finished game each sound', () => {
    const effects = soundsFor([{ type: 'levelUp', level: 2 }, { type: 'gameOver', reason: 'blockOut' }, { type: 'finished', reason: 'goal' }]);
    expect(effects.map(([e]) => e)).toEqual(['levelUp', 'gameOver', 'gameOver']);
  });
});
