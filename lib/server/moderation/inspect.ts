import 'server-only';
import { decodeReplay, simulateReplay } from '@/lib/engine';
import { MAX_GAME_TICKS } from '@/lib/server/games/policy';
import { assessTiming } from '@/lib/server/games/plausibility';
import type { TimingFeatures } from '@/lib/server/games/timing-features';

/**
 * The timing features of a stored replay, measured again as verification measured them, for the
 * moderator looking at it (a held game's stored reason says which one flagged it).
 */
export function inspectTiming(encoded: string): TimingFeatures | null {
  try {
    const replay = decodeReplay(encoded);
    const lockTicks: number[] = [];
    const result = simulateReplay(replay, { maxTicks: MAX_GAME_TICKS, lockTicks });
    return assessTiming({ events: replay.events, lockTicks, ticks: result.ticks }).features;
  } catch {
    return null;
  }
}
