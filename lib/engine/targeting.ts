import type { KeyStream } from './keystream';
import type { Targeting } from './types';

/**
 * Who an attack goes to, as the room's targeting rule says (decision 0031). The referee asks once
 * per attack, after every seat has played the tick, in seat order, so the answer depends only on
 * the match seed and the seats' streams. Each rule picks among `opponents` (living seats of other
 * teams, in seat order, never empty).
 */
export interface TargetView {
  seats: number;
  /** The sender's last target (or its manual choice); the sender itself before any. */
  aim: readonly number[];
  /** Per seat: stack height + queued rows (how close it is to topping out). */
  danger: (seat: number) => number;
  /** The keyed stream random targeting draws from (one word per attack). */
  draws: KeyStream;
}

export function chooseTarget(rule: Targeting, from: number, opponents: readonly number[], v: TargetView): number {
  switch (rule) {
    case 'even':
      return after(v.aim[from]!, opponents, v.seats);
    case 'random':
      return opponents[v.draws.next() % opponents.length]!;
    case 'kos':
      return mostInDanger(opponents, v.danger);
    case 'attackers': {
      // Those aiming at the sender now; nobody aiming at it: as even.
      const attackers = opponents.filter((s) => v.aim[s] === from);
      return after(v.aim[from]!, attackers.length > 0 ? attackers : opponents, v.seats);
    }
    case 'manual': {
      // The chosen seat while it is a living opponent; otherwise the next one after it.
      const aim = v.aim[from]!;
      return opponents.includes(aim) ? aim : after(aim, opponents, v.seats);
    }
    default:
      return rule satisfies never;
  }
}

/** The first of `candidates` after seat `last` in seat order, wrapping around. */
export function after(last: number, candidates: readonly number[], seats: number): number {
  let best = candidates[0]!;
  let bestGap = seats + 1;
  for (const c of candidates) {
    const gap = (c - last + seats) % seats || seats;
    if (gap < bestGap) {
      bestGap = gap;
      best = c;
    }
  }
  return best;
}

/** The highest danger; the lowest seat on a tie. */
function mostInDanger(opponents: readonly number[], danger: (seat: number) => number): number {
  let best = opponents[0]!;
  let most = danger(best);
  for (const s of opponents) {
    const d = danger(s);
    if (d > most) {
      most = d;
      best = s;
    }
  }
  return best;
}
