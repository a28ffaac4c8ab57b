import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { GLICKO2_SCALE, PLACEMENT_MATCHES, PROVISIONAL_RD, RATING_SETTINGS, RATING_TIME } from '@/lib/server/versus/rating';

/** The "VersusRating" aliases the board's queries use (never text from a request). */
type Alias = 'r' | 'ahead';

/**
 * `ratingAt(row, row.ratedAt, now).rd` in SQL, for filters that must agree with what the profile
 * shows. The same float8 (IEEE double) operations in the same order as rating.ts, every constant
 * passed from there; the idle days are counted in numeric, exactly, from whole milliseconds (both
 * sides store and send milliseconds). A change to `ratingAt` is a change here, and
 * tests/data/rating-time.test.ts compares the two on many rows.
 */
function rdAt(alias: Alias, now: Date): Prisma.Sql {
  const r = Prisma.raw(`"${alias}"`);
  const scale = Prisma.sql`${GLICKO2_SCALE}::float8`;
  const days = Prisma.sql`floor((${now.getTime()}::numeric - extract(epoch FROM ${r}."ratedAt") * 1000) / ${RATING_TIME.dayMs}::numeric)`;
  const n = Prisma.sql`GREATEST(0, ${days} - ${RATING_TIME.idleGraceDays}::numeric)::float8`;
  const phi = Prisma.sql`(${r}."rd" / ${scale})`;
  return Prisma.sql`(CASE WHEN ${n} = 0 OR ${r}."rd" >= ${RATING_SETTINGS.rd}::float8 THEN ${r}."rd"
    ELSE LEAST(${RATING_SETTINGS.rd}::float8, sqrt(${phi} * ${phi} + ${n} * ${r}."vol" * ${r}."vol") * ${scale}) END)`;
}

/** Rows that are not provisional at `now` (`isProvisional` of rating.ts): placement done, and RD, grown for time away, at most PROVISIONAL_RD. */
export function establishedAt(alias: Alias, now: Date): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(`"${alias}"`)}."matches" >= ${PLACEMENT_MATCHES}::int AND ${rdAt(alias, now)} <= ${PROVISIONAL_RD}::float8`;
}
