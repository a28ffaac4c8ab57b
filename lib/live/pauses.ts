import type { Mode } from '@/lib/engine';
import type { UnrankedReason } from '@/lib/live/protocol';

/**
 * The pauses a ranked live game may take, per mode, and how long each may last: the one home of
 * these figures, read by the server's host (lib/server/live/solo/game-host.ts) and by the play page,
 * which says them before the first pause. A paused game hides its field, but whoever holds the
 * dealt pieces can think through them meanwhile, so the modes that race the clock (Sprint, Ultra,
 * Dig) allow none: a pause is never refused, but the game goes on unranked (`paused`). Marathon, long
 * by nature, keeps a small budget; past it, unranked (`pause_budget`).
 */
export const PAUSE_BUDGETS = {
  sprint: { pauses: 0, eachMs: 0 },
  ultra: { pauses: 0, eachMs: 0 },
  marathon: { pauses: 2, eachMs: 30_000 },
  dig10: { pauses: 0, eachMs: 0 },
  dig18: { pauses: 0, eachMs: 0 },
  dig100: { pauses: 0, eachMs: 0 },
} as const satisfies Record<Mode, { pauses: number; eachMs: number }>;

/**
 * What the `nth` pause of a ranked game (1 for the first), having lasted `ms` so far, does to its
 * rank: nothing (null), or the reason it is lost.
 */
export function pauseVerdict(mode: Mode, nth: number, ms = 0): Extract<UnrankedReason, 'paused' | 'pause_budget'> | null {
  const budget = PAUSE_BUDGETS[mode];
  if (budget.pauses === 0) return 'paused';
  return nth > budget.pauses || ms > budget.eachMs ? 'pause_budget' : null;
}
