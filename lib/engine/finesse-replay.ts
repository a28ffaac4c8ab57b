import { GameConfigError } from './errors';
import { FinesseTracker, type FinesseTally } from './finesse';
import { replayConfig } from './game';
import { keyId } from './keys';
import { createCore } from './setup';
import type { Replay } from './types';

/**
 * A replay's finesse (finesse.ts): the inputs applied one by one as Game applies them, with the
 * quiet ticks between them fast-forwarded as simulateReplay does (no piece locks in them), so a
 * long game costs about what its verification does. Stops after the tick of the last input: a
 * piece that locks later had no input, so no fault. For a replay already decoded or verified: a
 * key its rules version does not play throws GameConfigError, as Game.tick does.
 */
export function finesseOfReplay(replay: Replay): FinesseTally {
  const { core: c } = createCore(replayConfig(replay), true);
  const tally = new FinesseTracker(c);
  const { events } = replay;
  const garbage = replay.garbage ?? [];
  const n = events.length;
  const last = n > 0 ? events[n - 1]!.tick : -1;
  let i = 0;
  let g = 0;
  while (!c.ended && c.tickNo <= last) {
    const tick = c.tickNo;
    while (g < garbage.length && garbage[g]!.tick === tick) c.receive(garbage[g++]!.size);
    while (i < n && events[i]!.tick === tick && !c.ended) {
      const { key, down } = events[i++]!;
      const id = keyId(key);
      if (id < 0 || id >= c.keyCount) throw new GameConfigError(`key '${String(key)}' is not played under rules version ${c.rulesVersion}`);
      tally.press(c, id, down);
      c.input(id, down);
      tally.after(c, tick);
    }
    tally.step(c);
    c.step();
    tally.after(c, tick);
    c.out = null;
    let next = i < n ? events[i]!.tick : last + 1;
    if (g < garbage.length && garbage[g]!.tick < next) next = garbage[g]!.tick;
    c.skipQuiet(next);
  }
  return tally;
}
