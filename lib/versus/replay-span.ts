import type { Replay } from '@/lib/engine';

/**
 * How many ticks one seat's replay of a versus game is played for: through the deciding tick and
 * every recorded input and garbage event, plus the tick that event is on. The winner's game never
 * ended on its own, so it must be cut somewhere; verification (lib/server/versus/verify.ts) and
 * the match viewer cut it here, so the viewer lands on the very state whose hash was stored.
 */
export function versusReplaySpan(replay: Pick<Replay, 'events' | 'garbage'>, endTick: number): number {
  return Math.max(endTick, replay.events.at(-1)?.tick ?? 0, replay.garbage?.at(-1)?.tick ?? 0) + 1;
}
