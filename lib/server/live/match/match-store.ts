import 'server-only';
import type { RatingChange } from '@/lib/live/versus';
import type { ServerMessage } from '@/lib/live/protocol';
import type { Timers } from '@/lib/server/live/match/match-timing';
import { placementOf } from '@/lib/server/versus/rating';
import type { SeatOwner, SeatRatings, StoreMatchResult } from '@/lib/server/versus/store';
import type { VersusMatchRecord } from '@/lib/server/versus/verify';
import { oneTurnEach } from '@/lib/server/turns';
import { isDbUnavailable } from '@/lib/db/errors';

/** Every match (and room set) ending in this process starts storing through this, one a turn (turns.ts). */
const storesInTurn = oneTurnEach();
/** Store attempts under way in this process (a retry's wait is not one): storesSettled. */
const underWay = new Set<Promise<unknown>>();

/**
 * Resolves once no store attempt is under way, those started meanwhile included (tests: emptying
 * the tables under a set still being written deadlocks on PostgreSQL, or leaves its rows to the
 * next test). A store waiting to be tried again is not waited for: its wait is on its host's clock.
 */
export async function storesSettled(): Promise<void> {
  while (underWay.size > 0) await Promise.allSettled([...underWay]);
}

/**
 * A match whose store throws is stored again, waiting twice as long each time up to maxWaitMs; once
 * `pendingAfter` tries failed (a blip is one) its seats are told it is not stored yet. It is tried on
 * while the database is away; a failure of another kind (a bug: it would fail again) `attempts` times.
 */
export const STORE_RETRY = { pendingAfter: 2, attempts: 8, firstWaitMs: 1_000, maxWaitMs: 30_000 } as const;

/** The one store path (lib/server/versus/store.ts); tests of the host alone pass their own. */
export type Store = (o: { matchId: string; record: VersusMatchRecord; seats: [SeatOwner, SeatOwner]; ranked: boolean }) => Promise<StoreMatchResult>;

/**
 * A decided match stored, in turn with the other matches ending now (encoding, verifying and
 * writing one takes milliseconds on this thread: players dropped together forfeit together), and
 * tried again after a throw (the database away or a transaction aborted: the match was not written)
 * with a growing wait on the host's timers, while the database is away for as long as this process
 * runs it: a finished match is not given up here for an outage (`late` once STORE_RETRY.pendingAfter tries failed; `again` before each
 * retry, false when it is no longer this process's to store, which then throws the last error).
 * A refusal is an answer and is not retried.
 */
export async function storeRetrying<R = StoreMatchResult>(o: { matchId: string; store: () => Promise<R>; timers: Timers; late?: () => void; again?: () => boolean }): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      const trying = storesInTurn(o.store);
      underWay.add(trying);
      try {
        return await trying;
      } finally {
        underWay.delete(trying);
      }
    } catch (error) {
      if (attempt === STORE_RETRY.pendingAfter) o.late?.();
      if ((attempt >= STORE_RETRY.attempts && !isDbUnavailable(error)) || (o.again && !o.again())) throw error;
      const waitMs = Math.min(STORE_RETRY.firstWaitMs * 2 ** (attempt - 1), STORE_RETRY.maxWaitMs);
      console.error(`[live] storing match ${o.matchId} failed (attempt ${attempt}); again in ${waitMs} ms:`, error);
      await new Promise<void>((resolve) => o.timers.set(resolve, waitMs));
      if (o.again && !o.again()) throw error;
    }
  }
}

type VoverBase = Omit<Extract<ServerMessage, { t: 'vover' }>, 'stored' | 'ratings' | 'noContest'>;

/** What both seats and the spectators hear once the match is stored or refused. */
export function voverOf(base: VoverBase, result: StoreMatchResult): ServerMessage {
  const ratings = result.ok && result.ratings ? result.ratings : null;
  return {
    ...base, stored: result.ok,
    ...(ratings ? { ratings: [ratingChange(ratings[0]), ratingChange(ratings[1])] } : {}),
    ...(result.ok && result.noContest ? { noContest: true } : {}),
  };
}

/** What vover tells a seat of its stored rating: the change, the band it moved from and to, and how far into placement it is. */
function ratingChange(r: SeatRatings): RatingChange {
  const placement = placementOf(r.matches.after);
  return {
    before: r.before.rating, after: r.after.rating, rdAfter: r.after.rd,
    ...(r.bands ? { bands: [r.bands.before, r.bands.after] } : {}),
    ...(placement ? { placement } : {}),
  };
}
