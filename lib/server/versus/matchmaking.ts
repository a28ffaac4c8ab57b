import { bandIndex, type BandId } from '@/lib/versus/bands';

/**
 * Quick-match pairing, as a pure decision over who is waiting and the time (ms, any clock): the
 * live lobby calls it whenever someone joins and once a second, so windows widen while people wait.
 *
 * By band, when every entry of the pool has one (ranked; lib/versus/bands.ts):
 * - Oldest first, each player takes the opponent in the nearest band, then the nearest rating,
 *   then whoever came first. It accepts bands `bandWindowAfterMs.length - 1` apart at most, one
 *   more after each of those waits; after `anyoneAfterMs` any band.
 * - Never more than `maxBandGap` bands apart while the other player has someone within
 *   `maxBandGap` bands of them waiting (the older one's own nearer players it prefers anyway):
 *   they are paired with those instead, now or as their windows widen. Not past `farAfterMs` of
 *   the older one's wait, so players who keep re-queueing cannot hold it off for good.
 * - The windows are the older player's: whoever waited longest chooses, as in the rating window.
 * By rating otherwise (unranked, or a band that could not be read):
 * - Fewer than `crowd` waiting: pair in arrival order (nobody waits for a better opponent when
 *   there is hardly anyone to choose from).
 * - Otherwise, oldest first, each player takes the opponent with the nearest rating within its
 *   window, which starts at ±`windowStart` and widens by `widenPerSecond` while it waits, up to
 *   `windowMax`; after `anyoneAfterMs` anyone will do. Ties go to whoever came first.
 * Always:
 * - Never two entries of the same player (two tabs), never one entry twice.
 * - Ranked: never two entries that share an `apart` key (the same address or device now), nor a
 *   player and someone on its `avoid` list (seen on its address or device lately, or met too
 *   often today: lib/server/versus/pairing.ts), whichever of the two holds the list.
 */
export const MATCHMAKING = {
  crowd: 4,
  windowStart: 100,
  widenPerSecond: 25,
  windowMax: 600,
  anyoneAfterMs: 30_000,
  /** The wait after which a player accepts bands i apart: the same band at once, the next after 5 s, two after 15 s. */
  bandWindowAfterMs: [0, 5_000, 15_000],
  maxBandGap: 2,
  farAfterMs: 60_000,
} as const satisfies Record<string, number | readonly number[]>;

export type Waiting = {
  /** The queue entry (one per connection). */
  id: string;
  /** The player (account or guest): never paired with themselves. */
  who: string;
  rating: number;
  /** The band its rating stands in (even while provisional: pairing needs only where the rating sits), when known. */
  band?: BandId;
  /** When it joined the queue, on the same clock as `now`. */
  since: number;
  /** Never paired with an entry sharing one of these (ranked: its address key, its device id). */
  apart?: readonly string[];
  /** Players (`who`) it must not be paired with. */
  avoid?: readonly string[];
};

/** Whether two entries may meet at all, whatever their ratings. */
export function compatible(a: Waiting, b: Waiting): boolean {
  return a !== b && a.who !== b.who && !keptApart(a, b);
}

/** Who the ranked rules look at: a 1v1 entry's player, or a 2v2 unit's one or two (team-matchmaking.ts). */
type Apartness = { who: string | readonly string[]; apart?: readonly string[] | undefined; avoid?: readonly string[] | undefined };

/** Whether the ranked rules keep two entries from meeting: a shared `apart` key, or one's player on the other's `avoid` list. */
export function keptApart(a: Apartness, b: Apartness): boolean {
  const avoids = (x: Apartness, y: Apartness) => !!x.avoid && (typeof y.who === 'string' ? x.avoid.includes(y.who) : y.who.some((w) => x.avoid!.includes(w)));
  return avoids(a, b) || avoids(b, a) || !!a.apart?.some((key) => b.apart?.includes(key));
}

/** The rating difference a player who joined at `since` accepts at `now`. */
export function windowOf(since: number, now: number, rules: typeof MATCHMAKING = MATCHMAKING): number {
  const waited = Math.max(0, now - since);
  if (waited >= rules.anyoneAfterMs) return Infinity;
  return Math.min(rules.windowMax, rules.windowStart + (rules.widenPerSecond * waited) / 1000);
}

/** How many bands apart a player who joined at `since` accepts an opponent at `now`. */
export function bandWindowOf(since: number, now: number, rules: typeof MATCHMAKING = MATCHMAKING): number {
  const waited = Math.max(0, now - since);
  if (waited >= rules.anyoneAfterMs) return Infinity;
  return rules.bandWindowAfterMs.findLastIndex((after) => waited >= after);
}

/** The pairs to start now, oldest waiter first in each pair; everyone else keeps waiting. */
export function pairUp(waiting: readonly Waiting[], now: number, rules: typeof MATCHMAKING = MATCHMAKING): Array<[Waiting, Waiting]> {
  const queue = [...waiting].sort((a, b) => a.since - b.since || (a.id < b.id ? -1 : 1));
  const taken = new Set<string>();
  const pairs: Array<[Waiting, Waiting]> = [];
  const open = (a: Waiting) => queue.filter((b) => !taken.has(b.id) && compatible(a, b));
  const banded = queue.every((e) => e.band !== undefined);
  // Whether x has someone within maxBandGap bands waiting, once per entry and pass: asked per
  // candidate it made a pass cubic in the pool. Read before later pairs of the pass are taken, so
  // it errs towards waiting; the next pass (a second later, or the next join) reads afresh.
  const nearby = new Map<string, boolean>();
  const hasNear = (x: Waiting) => {
    let near = nearby.get(x.id);
    if (near === undefined) nearby.set(x.id, (near = open(x).some((y) => bandGap(x, y) <= rules.maxBandGap)));
    return near;
  };
  for (const a of queue) {
    if (taken.has(a.id)) continue;
    const pick = banded ? byBand(a, open(a), hasNear, now, rules) : byRating(a, open(a), now, rules, queue.length >= rules.crowd);
    if (!pick) continue;
    taken.add(a.id);
    taken.add(pick.id);
    pairs.push([a, pick]);
  }
  return pairs;
}

const bandGap = (x: Waiting, y: Waiting) => Math.abs(bandIndex(x.band!) - bandIndex(y.band!));

function byRating(a: Waiting, open: readonly Waiting[], now: number, rules: typeof MATCHMAKING, crowded: boolean): Waiting | null {
  const window = crowded ? windowOf(a.since, now, rules) : Infinity;
  let pick: Waiting | null = null;
  for (const b of open) {
    const gap = Math.abs(a.rating - b.rating);
    if (gap > window) continue;
    if (!crowded) return b; // arrival order: the first one that is not the same player
    if (!pick || gap < Math.abs(a.rating - pick.rating)) pick = b;
  }
  return pick;
}

/**
 * The nearest band first, then the nearest rating. A candidate past maxBandGap is taken only when
 * it has nobody nearer waiting (a's own nearer candidates win on the band anyway), or once a has
 * waited farAfterMs.
 */
function byBand(a: Waiting, open: readonly Waiting[], hasNear: (x: Waiting) => boolean, now: number, rules: typeof MATCHMAKING): Waiting | null {
  const window = bandWindowOf(a.since, now, rules);
  const patient = now - a.since >= rules.farAfterMs;
  let pick: Waiting | null = null;
  for (const b of open) {
    const gap = bandGap(a, b);
    if (gap > window || (gap > rules.maxBandGap && !patient && hasNear(b))) continue;
    if (!pick || gap < bandGap(a, pick) || (gap === bandGap(a, pick) && Math.abs(a.rating - b.rating) < Math.abs(a.rating - pick.rating))) pick = b;
  }
  return pick;
}
