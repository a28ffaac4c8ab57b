import { MAX_REPLAY_TICKS } from './constants';
import { RoomGame, type RoomGameConfig } from './referee';
import type { InputEvent, Replay } from './types';

/** A seat that left the room at a tick (before playing it): the host's record, not in any replay. */
export interface RoomLeave {
  seat: number;
  tick: number;
}

export interface RoomRerun {
  game: RoomGame;
  /** Per seat: input events and target changes its replay held that the referee never played (after its end). */
  unused: { events: number; targets: number }[];
}

/**
 * Plays a room game again from its seats' replays (their inputs and target changes; the garbage
 * in them is what the referee must route again, never read): what verification and the match
 * viewer do. Throws RoomInputError for a target change the rules refuse.
 */
export function replayRoom(config: Omit<RoomGameConfig, 'handling'>, replays: readonly Replay[], leaves: readonly RoomLeave[] = [], maxTicks = MAX_REPLAY_TICKS): RoomRerun {
  const game = new RoomGame({ ...config, handling: replays.map((r) => r.handling) });
  const next = replays.map(() => 0);
  const nextTarget = replays.map(() => 0);
  for (let t = 0; t < maxTicks && !game.outcome; t++) {
    for (const l of leaves) if (l.tick === t) game.leave(l.seat);
    for (let s = 0; s < replays.length && !game.outcome; s++) {
      if (game.isOut(s)) continue;
      const r = replays[s]!;
      const inputs: InputEvent[] = [];
      while (next[s]! < r.events.length && r.events[next[s]!]!.tick === t) inputs.push(r.events[next[s]!++]!);
      const targets = r.room?.targets ?? [];
      const change = nextTarget[s]! < targets.length && targets[nextTarget[s]!]!.tick === t ? targets[nextTarget[s]!++]!.target : undefined;
      game.play(s, inputs, change);
    }
  }
  const unused = replays.map((r, s) => ({ events: r.events.length - next[s]!, targets: (r.room?.targets.length ?? 0) - nextTarget[s]! }));
  return { game, unused };
}
