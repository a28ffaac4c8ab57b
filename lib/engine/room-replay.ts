import { MAX_REPLAY_TICKS } from './constants';
import { RoomGame, type RoomGameConfig, type RoomTick } from './referee';
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

/** Where a room's playback is: the global tick to feed next, and each seat's next input and target change. */
export interface RoomCursor {
  tick: number;
  next: number[];
  nextTarget: number[];
}

export const roomCursor = (seats: number): RoomCursor => ({ tick: 0, next: Array<number>(seats).fill(0), nextTarget: Array<number>(seats).fill(0) });

/**
 * Feeds global tick `at.tick` to the referee from the seats' replays: the leaves at that tick
 * first, then each seat still in its inputs and target change, in seat order. The one way a stored
 * room game is played again, by verification (replayRoom) and by the match viewer. Returns the
 * ticks the referee played (the last seat's feed plays the tick).
 */
export function feedRoomTick(game: RoomGame, replays: readonly Replay[], leaves: readonly RoomLeave[], at: RoomCursor): RoomTick[] {
  const t = at.tick;
  const played: RoomTick[] = [];
  for (const l of leaves) if (l.tick === t) played.push(...game.leave(l.seat));
  for (let s = 0; s < replays.length && !game.outcome; s++) {
    if (game.isOut(s)) continue;
    const r = replays[s]!;
    const inputs: InputEvent[] = [];
    while (at.next[s]! < r.events.length && r.events[at.next[s]!]!.tick === t) inputs.push(r.events[at.next[s]!++]!);
    const targets = r.room?.targets ?? [];
    const change = at.nextTarget[s]! < targets.length && targets[at.nextTarget[s]!]!.tick === t ? targets[at.nextTarget[s]!++]!.target : undefined;
    played.push(...game.play(s, inputs, change));
  }
  at.tick = t + 1;
  return played;
}

/**
 * Plays a room game again from its seats' replays (their inputs and target changes; the garbage
 * in them is what the referee must route again, never read): what verification and the match
 * viewer do. Throws RoomInputError for a target change the rules refuse.
 */
export function replayRoom(config: Omit<RoomGameConfig, 'handling'>, replays: readonly Replay[], leaves: readonly RoomLeave[] = [], maxTicks = MAX_REPLAY_TICKS): RoomRerun {
  const game = new RoomGame({ ...config, handling: replays.map((r) => r.handling) });
  const at = roomCursor(replays.length);
  while (at.tick < maxTicks && !game.outcome) feedRoomTick(game, replays, leaves, at);
  const unused = replays.map((r, s) => ({ events: r.events.length - at.next[s]!, targets: (r.room?.targets.length ?? 0) - at.nextTarget[s]! }));
  return { game, unused };
}
