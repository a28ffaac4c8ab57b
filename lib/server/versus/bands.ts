import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { VERSUS_MODE_NAMES, type VersusMode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { memoize } from '@/lib/server/memo';
import { isProvisional, NEW_PLAYER_RATING, RATING_TIME, type Standing } from '@/lib/server/versus/rating';
import { establishedAt } from '@/lib/server/versus/rating-sql';
import { BAND_IDS, BANDS, bandOf, type BandEdges, type BandId } from '@/lib/versus/bands';

/** Who counts toward the percentiles, and how long a reading of them is kept (lib/versus/bands.ts has the table). */
export const BAND_RULES = {
  /** Active: established (not provisional) and a rated match within this many days. */
  activeDays: 14,
  /** A board page, a profile or the lobby asks per row or per player; the edges are read once per mode this often per process. */
  cacheMs: 60_000,
} as const satisfies Record<string, number>;

/**
 * The edges of every band of a mode at `now`, in one query: each band's edge is the lowest rating
 * whose count of active players at or above it fits the band's share, so players tied on a rating
 * share a band and a band never holds more than its share (too few players: an empty top band).
 *
 * Cost: reads every rating row of the mode (the (mode, rating desc, userId) index hands them over
 * in rating order, so the window needs no sort) with its player's row for the ban, and returns one
 * row per band. With bandEdges' cache that is one scan per mode per BAND_RULES.cacheMs per process.
 */
export async function readBandEdges(options: { mode: VersusMode; now: Date; db?: Prisma.TransactionClient }): Promise<BandEdges> {
  const { mode, now } = options;
  const since = new Date(now.getTime() - BAND_RULES.activeDays * RATING_TIME.dayMs);
  const cutoffs = Prisma.join(BAND_IDS.slice(1).map((band) => Prisma.sql`(${band}, ${BANDS[band].topPerMille}::int)`));
  // A season's rollover reads them inside its transaction (seasons.ts), under its locks.
  const db = options.db ?? (await getDb());
  const rows = await db.$queryRaw<Array<{ band: string; edge: number | null }>>`
    WITH active AS (
      SELECT r."rating" FROM "VersusRating" r JOIN "User" u ON u."id" = r."userId" AND u."bannedAt" IS NULL
      WHERE r."mode" = ${mode} AND r."ratedAt" >= ${since} AND ${establishedAt('r', now)}
    ), standing AS (
      SELECT "rating", count(*) OVER (ORDER BY "rating" DESC) AS "atOrAbove", count(*) OVER () AS "players" FROM active
    )
    SELECT c."band", min(s."rating") AS "edge"
    FROM (VALUES ${cutoffs}) AS c("band", "top")
    LEFT JOIN standing s ON s."atOrAbove" * 1000 <= c."top" * s."players"
    GROUP BY c."band"`;
  const edge = (band: BandId) => rows.find((r) => r.band === band)?.edge ?? Infinity;
  // One entry per band of BAND_IDS: the record is whole.
  return Object.fromEntries(BAND_IDS.map((band, i) => [band, i === 0 ? -Infinity : edge(band)])) as Record<BandId, number>;
}

const cached = memoize({ ttlMs: BAND_RULES.cacheMs, max: VERSUS_MODE_NAMES.length }, (key) => {
  const mode = VERSUS_MODE_NAMES.find((m) => m === key);
  return mode ? readBandEdges({ mode, now: new Date() }) : Promise.reject(new Error(`${key} is not a versus mode`));
});

/**
 * The edges as they stand, read at most once per BAND_RULES.cacheMs per mode in this process. A
 * caller with its own clock (a test, a replayed past) reads them afresh at that time.
 */
export function bandEdges(options: { mode: VersusMode; now?: Date }): Promise<BandEdges> {
  return options.now ? readBandEdges({ mode: options.mode, now: options.now }) : cached(options.mode);
}

/** The band a player is shown: none while provisional (placement instead, or the "?"). */
export function shownBand(standing: Standing & { rating: number }, edges: BandEdges): BandId | null {
  return isProvisional(standing) ? null : bandOf(standing.rating, edges);
}

/** A player in the quick-match queue: the rating, and the band it stands in even while provisional (null: the edges could not be read). */
export type QueueStanding = { rating: number; band: BandId | null };

/** What the lobby pairs a ranked player by; a player with no rating yet starts from a new player's. */
export async function queueStanding(options: { userId: string; mode: VersusMode; now?: Date }): Promise<QueueStanding> {
  const { userId, mode, now } = options;
  const [row, edges] = await Promise.all([
    (await getDb()).versusRating.findUnique({ where: { userId_mode: { userId, mode } }, select: { rating: true } }),
    // Pairing without bands (by rating, as unranked) beats no pairing when the edges cannot be read.
    bandEdges({ mode, now }).catch(() => null),
  ]);
  const rating = row?.rating ?? NEW_PLAYER_RATING.rating;
  return { rating, band: edges ? bandOf(rating, edges) : null };
}
