import type { GarbageEvent } from '@/lib/engine';
import type { ReplayPlayer } from '@/lib/client/replay-player';

/**
 * A moment of a game worth playing again, as the tick the practice sandbox opens at:
 * - `attack`: the largest attack the player received (one message, a whole lock's worth),
 *   opened on the tick after it joined the queue, so the rows are there, about to rise;
 * - `topOut`: the last piece before the player topped out, opened as it appeared.
 */
export type Moment = { kind: 'attack'; tick: number; rows: number } | { kind: 'topOut'; tick: number };

/** The moments of one field (a solo game, or one seat of a versus game), in the order they happened. */
export function momentsOf(field: Pick<ReplayPlayer, 'toppedOut' | 'lastMove'>, received: readonly GarbageEvent[]): Moment[] {
  const out: Moment[] = [];
  let largest: GarbageEvent | null = null;
  // The first of equal attacks: the one the player met unprepared.
  for (const g of received) if (!largest || g.size > largest.size) largest = g;
  if (largest) out.push({ kind: 'attack', tick: largest.tick + 1, rows: largest.size });
  if (field.toppedOut) out.push({ kind: 'topOut', tick: field.lastMove });
  return out.sort((a, b) => a.tick - b.tick);
}
