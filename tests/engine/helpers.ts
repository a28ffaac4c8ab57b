import { createGame } from '@/lib/engine';
import type { DealtGame, Game, GameConfig, GameEvent, Handling, Key, PieceType, Replay } from '@/lib/engine';
import { K_CW, K_HARD, K_RIGHT, type Core } from '@/lib/engine/core';

export const HANDLING: Handling = { das: 10, arr: 2, sdf: 20, dasCut: false };

export function game(config: Partial<GameConfig> = {}): Game {
  return createGame({ mode: 'marathon', seed: 'test', handling: HANDLING, ...config });
}

export const down = (key: Key) => ({ key, down: true });
export const up = (key: Key) => ({ key, down: false });

/** Press on one tick, release on the next; returns both ticks' events. */
export function tap(g: Game, key: Key): GameEvent[] {
  return [...g.tick([down(key)]), ...g.tick([up(key)])];
}

export function idle(g: Game, ticks: number): GameEvent[] {
  const out: GameEvent[] = [];
  for (let i = 0; i < ticks; i++) out.push(...g.tick());
  return out;
}

export function ofType<T extends GameEvent['type']>(events: readonly GameEvent[], type: T): Array<Extract<GameEvent, { type: T }>> {
  return events.filter((e): e is Extract<GameEvent, { type: T }> => e.type === type);
}

/**
 * Stands the current piece (an I) upright, walks it to the right-hand column and hard drops it,
 * by raw inputs on a core (createCore(…, true)); returns what the drop emitted from then on.
 */
export function dropIRightWell(core: Core): GameEvent[] {
  core.out = null;
  core.input(K_CW, true);
  for (let i = 0; i < 4; i++) {
    core.input(K_RIGHT, true);
    core.input(K_RIGHT, false);
  }
  core.input(K_HARD, true);
  return core.out ?? [];
}

/** A lock event as the engine reports it, with only what tallies of attack and clears read set. */
export function lockEvent(clearedRows: number[], attack: number): GameEvent {
  return {
    type: 'lock', piece: 'I', rotation: '0', x: 3, y: 0, cells: [], linesCleared: clearedRows.length, clearedRows,
    spin: 'none', b2b: false, combo: 0, perfectClear: false, points: 0, attack, sent: attack,
  } as GameEvent;
}
export const riseEvent = (rows: number): GameEvent => ({ type: 'garbageRise', rows, queued: 0 });

/**
 * Plays a seeded game's replay into a dealt game as a live host deals it: pieces up to the preview,
 * hole columns two rows ahead of those risen (never more, checked at every tick), until it ends.
 */
export function playDealtTwoRowsAhead(game: DealtGame, replay: Replay, pieces: readonly PieceType[], holes: readonly number[], check: (ahead: number) => void): void {
  const byTick = new Map<number, Array<{ key: Key; down: boolean }>>();
  for (const e of replay.events) byTick.set(e.tick, [...(byTick.get(e.tick) ?? []), { key: e.key, down: e.down }]);
  for (let guard = 0; !game.over && guard < 100_000; guard++) {
    game.deal(game.dealt, pieces.slice(game.dealt, game.taken + 6));
    game.dealHoles(game.holesDealt, holes.slice(game.holesDealt, game.holesRisen + 2));
    check(game.holesDealt - game.holesRisen);
    game.tick(byTick.get(game.tickNo));
  }
}
