import { MODE_NAMES, MODES, type Mode } from '@/lib/engine';
import type { UnrankedReason } from '@/lib/live/protocol';

/**
 * The pauses a ranked live game may take, per mode, and how long each may last: the one home of
 * these figures, read by the server's host (lib/server/live/solo/game-host.ts) and by the play page,
 * which says them before the first pause. A paused game hides its field, but whoever holds the
 * dealt pieces can think through them meanwhile, so a mode whose time counts (it ranks by time,
 * has a time limit, or breaks ties by time: Sprint, Ultra, 20 TSD, Perfect Clears, Dig) allows none: a
 * pause is never refused, but the game goes on unranked (`paused`). A mode that ranks by score
 * alone with no clock (Marathon, long by nature) keeps a small budget; past it, unranked
 * (`pause_budget`). Derived from the mode's rules, so a new mode needs no entry here.
 */
const NO_PAUSES = { pauses: 0, eachMs: 0 } as const;
const UNTIMED_PAUSES = { pauses: 2, eachMs: 30_000 } as const;

export const PAUSE_BUDGETS: Readonly<Record<Mode, { pauses: number; eachMs: number }>> = Object.fromEntries(
  MODE_NAMES.map((mode) => [mode, MODES[mode].rankBy === 'score' && MODES[mode].timeLimitTicks === 0 ? UNTIMED_PAUSES : NO_PAUSES]),
) as Record<Mode, { pauses: number; eachMs: number }>;

/**
 * What the `nth` pause of a ranked game (1 for the first), having lasted `ms` so far, does to its
 * rank: nothing (null), or the reason it is lost.
 */
export function pauseVerdict(mode: Mode, nth: number, ms = 0): Extract<UnrankedReason, 'paused' | 'pause_budget'> | null {
  const budget = PAUSE_BUDGETS[mode];
  if (budget.pauses === 0) return 'paused';
  return nth > budget.pauses || ms > budget.eachMs ? 'pause_budget' : null;
}
