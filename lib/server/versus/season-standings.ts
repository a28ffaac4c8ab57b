import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { getDb } from '@/lib/server/db';
import type { Rating } from '@/lib/server/versus/rating';
import { BAND_IDS, bandIndex, type BandId } from '@/lib/versus/bands';

type Tx = Prisma.TransactionClient;

/**
 * A rated match in a player's season, in the match's transaction: the standing is created with
 * the first one, then carries the rating after the latest (its final rating until the season is
 * closed), the best rating of the season, and the season's own match and win counts.
 */
export async function recordSeasonMatch(tx: Tx, o: { userId: string; mode: string; season: number; after: Rating; won: boolean }): Promise<void> {
  const wins = o.won ? 1 : 0;
  await tx.$executeRaw`
    INSERT INTO "VersusSeasonStanding" ("userId", "mode", "season", "finalRating", "peakRating", "matches", "wins")
    VALUES (${o.userId}, ${o.mode}, ${o.season}, ${o.after.rating}, ${o.after.rating}, 1, ${wins})
    ON CONFLICT ("userId", "mode", "season") DO UPDATE SET
      "finalRating" = EXCLUDED."finalRating",
      "peakRating" = GREATEST("VersusSeasonStanding"."peakRating", EXCLUDED."peakRating"),
      "matches" = "VersusSeasonStanding"."matches" + 1,
      "wins" = "VersusSeasonStanding"."wins" + EXCLUDED."wins"`;
}

/**
 * The band a player was shown after a rated match becomes the season's peak if it is higher. Run
 * after the match's commit, as the band is (store.ts `withBands`); it only ever raises the peak,
 * so running it late or twice does no harm. A closed season's peak stays as it was closed.
 */
export async function raisePeakBand(o: { userId: string; mode: string; season: number; band: BandId }): Promise<void> {
  const order = Prisma.sql`array_position(ARRAY[${Prisma.join(BAND_IDS)}]::text[], "peakBand")`;
  await (await getDb()).$executeRaw`
    UPDATE "VersusSeasonStanding" SET "peakBand" = ${o.band}
    WHERE "userId" = ${o.userId} AND "mode" = ${o.mode} AND "season" = ${o.season} AND "closedAt" IS NULL
      AND ("peakBand" IS NULL OR ${order} < ${bandIndex(o.band) + 1})`;
}
