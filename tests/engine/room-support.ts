import { DEFAULT_ROOM_RULES, RoomGame, type InputEvent, type Key, type PieceType, type RoomAttack, type RoomRules, type RoomTick } from '@/lib/engine';
import { HANDLING } from '@/tests/engine/helpers';

/** A seat's script: per tick, its inputs (a tap is a press tick and a release tick). */
export type Script = InputEvent[][];

export const taps = (...keys: Key[]): Script => keys.flatMap((key) => [[{ key, down: true }], [{ key, down: false }]]);
export const wait = (ticks: number): Script => Array.from({ length: ticks }, () => []);
/** An I piece from spawn into the right-hand well: a Tetris on a board of well() rows. */
export const iIntoWell = (): Script => taps('rotateCW', 'right', 'right', 'right', 'right', 'hardDrop');
export const well = (rows: number) => Array.from({ length: rows }, () => 'XXXXXXXXX.');

export function room(seats: number, rules: Partial<RoomRules> = {}, start?: ConstructorParameters<typeof RoomGame>[0]['start']): RoomGame {
  return new RoomGame({
    mode: 'battle', seed: 'room', rules: { ...DEFAULT_ROOM_RULES, ...rules }, handling: Array.from({ length: seats }, () => HANDLING), ...(start ? { start } : {}),
  });
}

/** Every seat a well and I pieces first: each Tetris is one attack. */
export const wells = (seats: number, rows = 12) => Array.from({ length: seats }, () => ({ board: well(rows), queue: ['I', 'I', 'I'] as PieceType[] }));

/**
 * Plays the scripts in lockstep, tick by tick, every seat still in (idle once its script ends),
 * for `ticks` ticks or until the game is decided. Returns every routed attack and tick.
 */
export function drive(g: RoomGame, scripts: Script[], ticks: number): { attacks: RoomAttack[]; ticks: RoomTick[] } {
  const out: RoomTick[] = [];
  for (let t = 0; t < ticks && !g.outcome; t++)
    for (let s = 0; s < g.seats; s++) if (!g.isOut(s)) out.push(...g.play(s, scripts[s]?.[t] ?? []));
  return { attacks: out.flatMap((r) => r.attacks), ticks: out };
}
