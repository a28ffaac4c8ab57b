import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { VERSUS_MODE_NAMES } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { readBandEdges } from '@/lib/server/versus/bands';
import { RATING_SETTINGS } from '@/lib/server/versus/rating';
import { establishedAt } from '@/lib/server/versus/rating-sql';
import { BAND_IDS, type BandEdges } from '@/lib/versus/bands';
import { seasonAt, seasonByNumber, type Season } from '@/lib/versus/seasons';

type Tx = Prisma.TransactionClient;

/** A close rewrites every rating row: the time its transaction may take (a match's own has a few seconds). */
export const SEASON_CLOSE_TIMEOUT_MS = 60_000;

/**
 * What a season's end does to every rating (docs/decisions/0024-seasons.md): half the distance
 * to the mean is kept, so the order stands but the gaps close; the deviation is raised to at least
 * `minRd` (above PROVISIONAL_RD, so everyone plays their way back onto the board and moves fast
 * while doing so); volatility is kept. All-time `matches` and `wins` stay, so placement (0022)
 * is played once per mode, never once per season.
 */
export const SEASON_RESET = {
  mean: RATING_SETTINGS.rating,
  keep: 0.5,
  minRd: 150,
} as const satisfies Record<string, number>;

/** The band a rating stood in against `edges`, in SQL: the highest band whose (finite) edge it reaches. */
function bandSql(rating: Prisma.Sql, edges: BandEdges): Prisma.Sql {
  const reachable = BAND_IDS.slice(1).filter((b) => Number.isFinite(edges[b])).toReversed();
  if (reachable.length === 0) return Prisma.sql`${BAND_IDS[0]}::text`;
  return Prisma.sql`(CASE ${Prisma.join(reachable.map((b) => Prisma.sql`WHEN ${rating} >= ${edges[b]}::float8 THEN ${b}::text`), ' ')} ELSE ${BAND_IDS[0]}::text END)`;
}

/**
 * Closes one ended season, once: the guard row is inserted first, so a second run (another
 * instance, the cleanup after a match did it) waits on the key, finds it taken and does nothing.
 * Under the guard, every rating row still in the season (or older: a row an instance running
 * older code created) is locked; each standing of the season gets its final rating and its band
 * against the edges as they stood at the season's end; then the rows are soft-reset and moved on.
 */
async function closeSeason(tx: Tx, season: Season, now: Date): Promise<boolean> {
  const won = await tx.$queryRaw<{ season: number }[]>`
    INSERT INTO "VersusSeasonRollover" ("season", "rolledAt") VALUES (${season.number}, ${now})
    ON CONFLICT ("season") DO NOTHING RETURNING "season"`;
  if (won.length === 0) return false;
  // The whole table, not its rows one by one: row locks taken in scan order could meet a match's,
  // taken in user order, and deadlock at the season's turn. This mode waits for the stores under
  // way and holds new ones back until the close commits.
  await tx.$executeRaw`LOCK TABLE "VersusRating" IN SHARE ROW EXCLUSIVE MODE`;
  for (const mode of VERSUS_MODE_NAMES) {
    const edges = await readBandEdges({ mode, now: season.end, db: tx });
    await tx.$executeRaw`
      UPDATE "VersusSeasonStanding" s SET "finalRating" = r."rating", "closedAt" = ${now},
        "finalBand" = CASE WHEN ${establishedAt('r', season.end)} THEN ${bandSql(Prisma.sql`r."rating"`, edges)} ELSE NULL END
      FROM "VersusRating" r
      WHERE s."mode" = ${mode} AND s."season" = ${season.number} AND r."userId" = s."userId" AND r."mode" = s."mode" AND r."season" <= ${season.number}`;
  }
  await tx.$executeRaw`
    UPDATE "VersusRating" SET
      "rating" = round((${SEASON_RESET.mean}::float8 + ("rating" - ${SEASON_RESET.mean}::float8) * ${SEASON_RESET.keep}::float8)::numeric, 9)::float8,
      "rd" = GREATEST("rd", ${SEASON_RESET.minRd}::float8),
      "season" = ${season.number + 1}
    WHERE "season" <= ${season.number}`;
  return true;
}

/**
 * Closes every season that has ended by `now` and is not closed yet, oldest first. Cheap when
 * there is nothing to do (one read of the guard table's last row), so the match path runs it in
 * its own transaction before rating anyone, and the periodic cleanup runs it for a quiet site.
 * Returns the seasons this call closed.
 */
export async function rollOverSeasons(options: { now?: Date; tx?: Tx } = {}): Promise<number[]> {
  const now = options.now ?? new Date();
  const current = seasonAt(now).number;
  const run = async (tx: Tx) => {
    const [last] = await tx.$queryRaw<{ season: number | null }[]>`SELECT max("season") AS "season" FROM "VersusSeasonRollover"`;
    const closed: number[] = [];
    for (let n = (last?.season ?? 0) + 1; n < current; n++) if (await closeSeason(tx, seasonByNumber(n), now)) closed.push(n);
    return closed;
  };
  return options.tx ? run(options.tx) : (await getDb()).$transaction(run, { timeout: SEASON_CLOSE_TIMEOUT_MS });
}

/** A new rating row's season, and the season a rated match at `now` on a row in `rowSeason` counts to. */
export function seasonOfMatch(rowSeason: number, now: Date): number {
  return Math.max(rowSeason, seasonAt(now).number);
}
