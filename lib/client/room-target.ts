/**
 * Manual targeting in a room, as pure decisions (tested without a DOM): which key cycles the
 * target, and which seat comes next.
 */
import type { Action } from '@/lib/validations/settings';

/**
 * Cycles to the next opponent under manual targeting. T is bound to no action in any preset
 * (settings.ts); a player who binds it to one keeps that action, and taps a field to aim instead.
 */
export const TARGET_KEY = 'KeyT';

export function isTargetKey(code: string, keymap: ReadonlyMap<string, Action>): boolean {
  return code === TARGET_KEY && !keymap.has(code);
}

/** Whether `me` may aim at `seat`: another seat, of another team, still in. */
export function canAim(me: number, seat: number, teams: readonly number[], out: readonly boolean[]): boolean {
  return seat !== me && seat >= 0 && seat < teams.length && teams[seat] !== teams[me] && !out[seat];
}

/** The next seat after `from` (cyclically) that `me` may aim at, or null when none is left. */
export function nextTarget(from: number, me: number, teams: readonly number[], out: readonly boolean[]): number | null {
  const n = teams.length;
  for (let i = 1; i <= n; i++) {
    const s = (((from + i) % n) + n) % n;
    if (canAim(me, s, teams, out)) return s;
  }
  return null;
}
