import { describe, expect, it } from 'vitest';
import { TICK_MS } from '@/lib/client/clock';
import { GameRunner } from '@/lib/client/runner';
import { createDealtGame, DEFAULT_HANDLING, pieceSequence, simulateReplay, type PieceType } from '@/lib/engine';

const pieceQueue = (): PieceType[] => {
  const next = pieceSequence('runner-old-rules', 1);
  return Array.from({ length: 8 }, next);
};

const config = { mode: 'sprint' as const, seed: 'runner-test', handling: { ...DEFAULT_HANDLING }, nextCount: 5 };

describe('GameRunner', () => {
  it('feeds each key edge at the tick it happened in, and the replay reproduces the game', () => {
    const r = new GameRunner(config);
    r.start(0);
    r.frame(3 * TICK_MS);
    // Pressed during tick 4, before the frame that runs it.
    r.key('left', 'ArrowLeft', true, 4.5 * TICK_MS);
    r.key('left', 'ArrowLeft', false, 4.6 * TICK_MS);
    r.key('hardDrop', 'Space', true, 6.2 * TICK_MS);
    r.key('hardDrop', 'Space', false, 6.3 * TICK_MS);
    const events = r.frame(8 * TICK_MS);
    expect(events.some((e) => e.type === 'move' && e.dx === -1)).toBe(true);
    expect(events.some((e) => e.type === 'hardDrop')).toBe(true);
    const replay = r.game.replay();
    expect(replay.events).toEqual([
      { tick: 4, key: 'left', down: true },
      { tick: 4, key: 'left', down: false },
      { tick: 6, key: 'hardDrop', down: true },
      { tick: 6, key: 'hardDrop', down: false },
    ]);
    expect(simulateReplay(replay, { maxTicks: r.tick }).hash).toBe(r.game.hash());
  });

  it('plays rowDown under the current rules, and lets a game under older rules ignore it instead of throwing', () => {
    const r = new GameRunner(config);
    r.start(0);
    expect(r.key('rowDown', 'KeyD', true, 1.5 * TICK_MS)).toBe(true);
    expect(r.frame(3 * TICK_MS).filter((e) => e.type === 'move' && e.dy === -1)).toHaveLength(1);
    // A live server that announced rules 1 (a deploy mixing versions): the press changes nothing.
    const old = new GameRunner({ game: createDealtGame({ mode: 'sprint', handling: { ...DEFAULT_HANDLING }, nextCount: 5, rulesVersion: 1 }, pieceQueue()) });
    old.start(0);
    expect(old.key('rowDown', 'KeyD', true, 1.5 * TICK_MS)).toBe(false);
    expect(() => old.frame(3 * TICK_MS)).not.toThrow();
    expect(old.game.replay().events).toEqual([]);
  });

  it('loses no input between frames: a tap inside one long frame still happens', () => {
    const r = new GameRunner(config);
    r.start(0);
    r.key('rotateCW', 'KeyX', true, 1 * TICK_MS);
    r.key('rotateCW', 'KeyX', false, 1.2 * TICK_MS);
    const events = r.frame(5 * TICK_MS);
    expect(events.filter((e) => e.type === 'rotate')).toHaveLength(1);
  });

  it('releases held keys when paused and does not run while paused', () => {
    const r = new GameRunner(config);
    r.start(0);
    r.key('softDrop', 'ArrowDown', true, 0);
    r.frame(2 * TICK_MS);
    r.pause();
    expect(r.frame(1000)).toEqual([]);
    expect(r.tick).toBe(2);
    // The key-up made while paused never arrives: the release is already queued.
    expect(r.key('softDrop', 'ArrowDown', false, 1000)).toBe(false);
    r.resume(5000);
    r.frame(5000 + TICK_MS);
    expect(r.game.replay().events.at(-1)).toEqual({ tick: 2, key: 'softDrop', down: false });
  });

  it('ignores a second key-down of a held action (two bound keys)', () => {
    const r = new GameRunner(config);
    r.start(0);
    expect(r.key('hold', 'KeyC', true, 0)).toBe(true);
    expect(r.key('hold', 'ShiftLeft', true, 0)).toBe(false);
  });

  it('catches up at most the cap after a stall', () => {
    const r = new GameRunner(config, 10);
    r.start(0);
    r.frame(10_000);
    expect(r.tick).toBe(10);
  });
});
