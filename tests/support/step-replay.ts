/**
 * An independent replay of a replay: the public Game API stepped one tick at a time, with events,
 * as live play does (no fast-forwarding, no pre-converted input arrays). Tests compare
 * simulateReplay's fast path with it, and the fuzz oracle trusts a verdict only when both agree.
 */
import type { Replay } from '@/lib/engine';
import { straightRun } from '@/tests/support/replays';

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
  const lockTicks: number[] = [];
  const game = straightRun(replay, maxTicks, (events, tick) => {
    for (const e of events) if (e.type === 'lock') lockTicks.push(tick);
  });
  const s = game.snapshot();
  return {
    score: s.score,
    lines: s.lines,
    ticks: s.tick,
    ended: game.over,
    finished: s.finished,
    toppedOut: s.toppedOut,
    hash: game.hash(),
    unusedEvents: replay.events.length - game.replay().events.length,
    lockTicks,
  };
}
