import 'server-only';
import { decodePackedReplay, simulatePacked } from '@/lib/engine';
import { MAX_GAME_TICKS } from '@/lib/server/games/policy';
import { assessTiming } from '@/lib/server/games/plausibility';
import type { TimingFeatures } from '@/lib/server/games/timing-features';

/**
 * The timing features of a stored replay, measured again as verification measured them, for the
 * moderator looking at it (a held game's stored reason says which one flagged it).
 */
export function inspectTiming(encoded: string): TimingFeatures | null {
  try {
    const replay = decodePackedReplay(encoded);
    const lockTicks: number[] = [];
    const result = simulatePacked(replay, { maxTicks: MAX_GAME_TICKS, lockTicks });
    return assessTiming({ inputs: replay, lockTicks, ticks: result.ticks }).features;
  } catch {
    return null;
  }
}
