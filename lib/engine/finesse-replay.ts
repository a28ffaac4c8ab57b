import { createGame, replayConfig } from './game';
import type { FinesseTally } from './finesse';
import type { InputEvent, Replay } from './types';

/**
 * A replay's finesse (finesse.ts), played back with the same code as live play. Stops after the
 * tick of the last input: a piece that locks later had no input, so no fault. For a replay that
 * has been verified (or decoded): a malformed one throws as createGame and Game.tick do.
 */
export function finesseOfReplay(replay: Replay): FinesseTally {
  const game = createGame(replayConfig(replay));
  const tally = game.finesse();
  const { events } = replay;
  const garbage = replay.garbage ?? [];
  const last = events.length > 0 ? events[events.length - 1]!.tick : -1;
  const inputs: InputEvent[] = [];
  let i = 0;
  let g = 0;
  while (!game.over && game.tickNo <= last) {
    const t = game.tickNo;
    while (g < garbage.length && garbage[g]!.tick === t) game.receiveGarbage(garbage[g++]!.size);
    inputs.length = 0;
    while (i < events.length && events[i]!.tick === t) inputs.push(events[i++]!);
    game.tick(inputs);
  }
  return tally;
}
