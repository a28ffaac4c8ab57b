import { createGame, MAX_REPLAY_TICKS, replayConfig, type Game, type Handling, type LockRule, type Replay } from '@/lib/engine';
import type { Position } from '@/lib/fumen';
import { stepReplay, takeArrivedGarbage, type ReplayCursor } from '@/lib/client/replay-player';

/**
 * The replay's game at the start of `tick` (clamped to its end), by playing its recorded inputs
 * (and a versus seat's received garbage) through the engine: the state is then exactly what the
 * original game had there, hidden rows, hold, queue, queued garbage, the rest of the bag and the
 * generator included, with nothing to keep in sync. From there a versus seat plays on alone: no
 * more garbage arrives, but what had joined its queue (sent before the moment) still rises.
 */
export function gameAtTick(replay: Replay, tick: number): Game {
  const game = createGame(replayConfig(replay));
  const target = Math.min(Math.max(0, Math.floor(tick)), MAX_REPLAY_TICKS);
  const at: ReplayCursor = { tick: 0, next: 0, nextGarbage: 0 };
  while (at.tick < target && !game.over) stepReplay(game, replay, at);
  // Rows sent before the moment are queued at it (a room's viewer shows them so): they still rise.
  if (at.tick === target && !game.over) takeArrivedGarbage(game, replay, at);
  return game;
}

/**
 * A game from a position (fumen, editor, empty board). After the position's queue the pieces come
 * from 7-bags of `seed`; Marathon's rules (no time limit, 150 lines) leave the player all the room.
 * A fumen drill passes `lock: 'hardDrop'`: its pieces wait for the player's hard drop.
 */
export function gameFromPosition(position: Position, handling: Handling, seed: string, lock: LockRule = 'delay'): Game {
  return createGame({
    mode: 'marathon',
    seed,
    handling,
    lock,
    board: position.board,
    queue: position.queue,
    ...(position.active ? { active: position.active } : {}),
    ...(position.hold ? { hold: position.hold } : {}),
  });
}

/** A seed for a practice game's bags: unranked, so any source of variety will do. */
export function practiceSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `practice-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
