import { createGame } from '@/lib/engine';
import type { Game, GameConfig, GameEvent, Handling, Key } from '@/lib/engine';

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
