import { keptApart, MATCHMAKING, windowOf } from '@/lib/server/versus/matchmaking';

/**
 * Ranked 2v2 matchmaking, as a pure decision over who is waiting and the time (ms, any clock),
 * in the 1v1 queue's terms (matchmaking.ts): oldest first, each waiting unit (a solo, or a pair
 * that queued together and is never split) builds a match of four players from the units whose
 * rating is within its window (±windowStart, widening by widenPerSecond up to windowMax; anyone
 * after anyoneAfterMs), and takes the one whose two teams' mean ratings are closest, then the one
 * nearest its own rating. Solos are matched into teams; a pair stays one team. Never one player
 * twice in a match. Never opponents the ranked rules keep apart (matchmaking.ts keptApart: one
 * address or device, or on an avoid list); teammates may be (friends at one home play together).
 * A team counts as teamRating of its players: the weaker no lower than TEAM_GAP below the stronger.
 */
export type TeamUnit = {
  id: string;
  /** Its players (one or two): never two units sharing one in a match. */
  who: readonly string[];
  /** Its players' teamRating as it stands now (a solo's own). */
  rating: number;
  since: number;
  /** Ranked: its players' address and device keys; no opponent may share one. */
  apart?: readonly string[];
  /** Ranked: players its players must not meet (pairing.ts rankedEntry). */
  avoid?: readonly string[];
};

/**
 * How far below a team's stronger player its weaker one counts (decision 0036): a strong account
 * with a weak partner (an alt, or a friend far below) is matched near its own level, not at the
 * mean, and rated at that same strength (team-rating.ts), so carrying a weak account to easy wins
 * gains little, and its opponents lose to it no more than to any team of that strength.
 */
export const TEAM_GAP = 200;

/** A team's matchmaking rating from its players': their mean, each counted at least the strongest − TEAM_GAP. */
export function teamRating(ratings: readonly number[]): number {
  const top = Math.max(...ratings);
  return ratings.reduce((s, r) => s + Math.max(r, top - TEAM_GAP), 0) / ratings.length;
}

/** Of the units in a window, only the nearest this many are tried: a match is 2^this subsets at most. */
export const TEAM_CANDIDATES = 7;

export type TeamMatch = [team0: TeamUnit[], team1: TeamUnit[]];

export function teamUp(waiting: readonly TeamUnit[], now: number, rules: typeof MATCHMAKING = MATCHMAKING): TeamMatch[] {
  const queue = [...waiting].sort((a, b) => a.since - b.since || (a.id < b.id ? -1 : 1));
  const taken = new Set<string>();
  const matches: TeamMatch[] = [];
  for (const a of queue) {
    if (taken.has(a.id)) continue;
    const window = windowOf(a.since, now, rules);
    const near = queue
      .filter((b) => b !== a && !taken.has(b.id) && disjoint([a], b) && Math.abs(a.rating - b.rating) <= window)
      .sort((x, y) => Math.abs(a.rating - x.rating) - Math.abs(a.rating - y.rating))
      .slice(0, TEAM_CANDIDATES);
    const best = bestMatch(a, near);
    if (!best) continue;
    for (const u of [...best[0], ...best[1]]) taken.add(u.id);
    matches.push(best);
  }
  return matches;
}

// A pair's rating is its teamRating already: counted once per player, it stays that.
const mean = (team: readonly TeamUnit[]) => teamRating(team.flatMap((u) => u.who.map(() => u.rating)));
const opponents = (match: TeamMatch) => match[0].every((x) => match[1].every((y) => !keptApart(x, y)));
const disjoint = (us: readonly TeamUnit[], b: TeamUnit) => us.every((u) => u.who.every((w) => !b.who.includes(w)));

/** The best four-player match with `a` from `near`: closest team means, then nearest to a. */
function bestMatch(a: TeamUnit, near: readonly TeamUnit[]): TeamMatch | null {
  let best: { match: TeamMatch; gap: number; spread: number } | null = null;
  const consider = (chosen: TeamUnit[]) => {
    for (const match of splits(a, chosen)) {
      if (!opponents(match)) continue;
      const gap = Math.abs(mean(match[0]) - mean(match[1]));
      const spread = chosen.reduce((s, u) => s + Math.abs(u.rating - a.rating), 0);
      if (!best || gap < best.gap || (gap === best.gap && spread < best.spread)) best = { match, gap, spread };
    }
  };
  // Every subset of the candidates with 4 players in all (with a), none of them shared.
  const walk = (from: number, chosen: TeamUnit[], count: number) => {
    if (count === 4) return consider(chosen);
    for (let i = from; i < near.length; i++) {
      const b = near[i]!;
      if (count + b.who.length > 4 || !disjoint([a, ...chosen], b)) continue;
      walk(i + 1, [...chosen, b], count + b.who.length);
    }
  };
  walk(0, [], a.who.length);
  return (best as { match: TeamMatch } | null)?.match ?? null;
}

/** The ways a and the units chosen with it make two teams of two, whole units on one side, a's team first. */
function splits(a: TeamUnit, chosen: readonly TeamUnit[]): TeamMatch[] {
  if (a.who.length === 2) return [[[a], [...chosen]]];
  // a is a solo: its partner is one of the solos chosen; the rest are the other team.
  return chosen.filter((b) => b.who.length === 1).map((partner) => [[a, partner], chosen.filter((b) => b !== partner)]);
}
