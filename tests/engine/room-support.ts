import { DEFAULT_ROOM_RULES, RoomGame, type InputEvent, type Key, type PieceType, type RoomAttack, type RoomRules, type RoomTick } from '@/lib/engine';
import { HANDLING } from '@/tests/engine/helpers';
import { VersusBot, type VersusBotOptions } from '@/tests/support/versus-bot';

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

/** One tick of a seat's stream: its inputs and, under manual targeting, a target change. */
export interface SeatTick {
  inputs: InputEvent[];
  target?: number;
}

/**
 * Bots play a room to its end (or `maxTicks`), each seat's ticks sent in lockstep; under manual
 * targeting each seat turns to another opponent every 150 ticks. Returns the streams each seat
 * sent, which sent again to a new room (in any batching) give the same match.
 */
export function playRoom(g: RoomGame, bots: readonly VersusBotOptions[], maxTicks = 20_000): SeatTick[][] {
  const players = bots.map((o) => new VersusBot(o));
  const streams: SeatTick[][] = bots.map(() => []);
  for (let t = 0; t < maxTicks && !g.outcome; t++)
    for (let s = 0; s < g.seats; s++) {
      if (g.isOut(s) || g.outcome) continue;
      const step: SeatTick = { inputs: players[s]!.inputs(g, s) };
      if (g.rules.targeting === 'manual' && t % 150 === 0) {
        const opponents = [...g.teams.keys()].filter((o) => g.teams[o] !== g.teams[s]);
        step.target = opponents[(t / 150 + s) % opponents.length]!;
      }
      streams[s]!.push(step);
      g.play(s, step.inputs, step.target);
    }
  return streams;
}
