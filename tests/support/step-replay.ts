/**
 * An independent replay of a replay: the public Game API stepped one tick at a time, with events,
 * as live play does (no fast-forwarding, no pre-converted input arrays). Tests compare
 * simulateReplay's fast path with it, and the fuzz oracle trusts a verdict only when both agree.
 */
import { createGame, type InputEvent, type Replay } from '../../lib/engine/index';

export type Stepped = {
  score: number;
  lines: number;
  ticks: number;
  ended: boolean;
  finished: boolean;
  toppedOut: boolean;
  hash: string;
  unusedEvents: number;
  /** Tick of every lock event, in order. */
  lockTicks: number[];
};

export function stepReplay(replay: Replay, maxTicks: number): Stepped {
  const game = createGame({ mode: replay.mode, seed: replay.seed, handling: replay.handling, nextCount: replay.nextCount });
  const lockTicks: number[] = [];
  const events = replay.events;
  let i = 0;
  for (let tick = 0; !game.over && tick < maxTicks; tick++) {
    const inputs: InputEvent[] = [];
    while (i < events.length && events[i]!.tick === tick) {
      const { key, down } = events[i++]!;
      inputs.push({ key, down });
    }
    for (const e of game.tick(inputs)) if (e.type === 'lock') lockTicks.push(tick);
  }
  const s = game.snapshot();
  return {
    score: s.score,
    lines: s.lines,
    ticks: s.tick,
    ended: game.over,
    finished: s.finished,
    toppedOut: s.toppedOut,
    hash: game.hash(),
    unusedEvents: events.length - game.replay().events.length,
    lockTicks,
  };
}
