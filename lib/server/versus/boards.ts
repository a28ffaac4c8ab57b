import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { VERSUS_MODE_NAMES, type VersusMode } from '@/lib/engine';
import { isoWeek } from '@/lib/periods/weeks';
import { getDb } from '@/lib/server/db';
import { decodeCursor, encodeCursor, InvalidCursorError } from '@/lib/server/games/cursor';
import { bandEdges, shownBand } from '@/lib/server/versus/bands';
import { isProvisional, NEW_PLAYER_RATING, placementOf, ratingAt, type Placement } from '@/lib/server/versus/rating';
import { establishedAt } from '@/lib/server/versus/rating-sql';
import { bandOf, type BandEdges, type BandId } from '@/lib/versus/bands';

export { InvalidCursorError };

/** `rd` as it stands now: grown for time away (rating.ts `ratingAt`); every player on the board is established, so has a band. */
export type RatingRow = { rank: number; player: { id: string; username: string }; rating: number; rd: number; matches: number; wins: number; band: BandId };
export type WinsRow = { rank: number; player: { id: string; username: string }; wins: number; lastWinAt: string };
export type VersusBoard<Row> = { mode: VersusMode; rows: Row[]; nextCursor: string | null; me: Row | null };
/** The viewer's own rating row: rank and band null while provisional (off the board, shown with a "?"), and its placement. */
export type MyRatingRow = Omit<RatingRow, 'rank' | 'band'> & { rank: number | null; band: BandId | null; provisional: boolean; placement: Placement | null };

type RawRating = { userId: string; username: string; rating: number; rd: number; vol: number; matches: number; wins: number; updatedAt: Date; ratedAt: Date; rank?: bigint };
type RawWins = { userId: string; username: string; wins: number; lastWinAt: Date; rank?: bigint };

/**
 * The rating board of a versus mode: established players (placement played, and a deviation at
 * most PROVISIONAL_RD as it stands now) who are not banned, highest rating first, ties by player
 * id. Keyset pages and the viewer's row pinned, as the solo boards (lib/server/games/boards.ts);
 * the cursor's sort key is the rating itself.
 *
 * Time away grows a deviation but never moves a rating, so the order and the cursor hold; what
 * time does change is who is established. The filter and the rank both ask `establishedAt`, the
 * idle rule of rating.ts in SQL at this `now`, so a player whose deviation has grown past the
 * line leaves the board (and the ranks below close up) the day the profile starts showing a "?".
 * Each row's band is read against the mode's edges (bands.ts), read once for the page.
 */
export async function getRatingBoard(options: {
  mode: VersusMode;
  cursor?: string;
  limit: number;
  viewerId?: string | null;
  now?: Date;
}): Promise<Omit<VersusBoard<RatingRow>, 'me'> & { me: MyRatingRow | null }> {
  const db = await getDb();
  const now = options.now ?? new Date();
  const key = { mode: `versus:${options.mode}`, period: 'rating' };
  const cursor = options.cursor ? decodeCursor(key, options.cursor, { float: true }) : null;
  const base = Prisma.sql`r."mode" = ${options.mode} AND ${establishedAt('r', now)}`;
  const where = cursor ? Prisma.sql`${base} AND (-r."rating", r."userId") > (${-cursor.metric}, ${cursor.gameId})` : base;
  const [raw, edges] = await Promise.all([db.$queryRaw<RawRating[]>(ratingRows(where, options.limit + 1, now)), bandEdges({ mode: options.mode, now: options.now })]);
  const first = (cursor?.rank ?? 0) + 1;
  const rows = raw.slice(0, options.limit).map((r, i) => ratingRow(r, first + i, now, edges));
  const lastRaw = raw[options.limit - 1];
  const nextCursor =
    raw.length > options.limit && lastRaw ? encodeCursor(key, { rank: first + options.limit - 1, metric: lastRaw.rating, achievedAt: lastRaw.updatedAt, gameId: lastRaw.userId }) : null;
  let me: MyRatingRow | null = null;
  if (options.viewerId) {
    const [mine] = await db.$queryRaw<RawRating[]>(ratingRows(Prisma.sql`r."mode" = ${options.mode} AND r."userId" = ${options.viewerId}`, 1, now, true));
    if (mine) {
      const row = ratingRow(mine, 0, now, edges);
      const provisional = isProvisional(row);
      me = { ...row, rank: provisional ? null : Number(mine.rank), band: provisional ? null : row.band, provisional, placement: placementOf(row.matches) };
    }
  }
  return { mode: options.mode, rows, nextCursor, me };
}

function ratingRows(where: Prisma.Sql, limit: number, now: Date, withRank = false) {
  const rank = withRank
    ? Prisma.sql`, (SELECT count(*) + 1 FROM "VersusRating" ahead JOIN "User" au ON au."id" = ahead."userId" AND au."bannedAt" IS NULL
         WHERE ahead."mode" = r."mode" AND ${establishedAt('ahead', now)}
         AND (-ahead."rating", ahead."userId") < (-r."rating", r."userId")) AS "rank"`
    : Prisma.empty;
  return Prisma.sql`
    SELECT r."userId", u."username", r."rating", r."rd", r."vol", r."matches", r."wins", r."updatedAt", r."ratedAt" ${rank}
    FROM "VersusRating" r JOIN "User" u ON u."id" = r."userId" AND u."bannedAt" IS NULL
    WHERE ${where}
    ORDER BY -r."rating", r."userId"
    LIMIT ${limit}`;
}

function ratingRow(r: RawRating, rank: number, now: Date, edges: BandEdges): RatingRow {
  const { rd } = ratingAt(r, r.ratedAt, now);
  return { rank, player: { id: r.userId, username: r.username }, rating: r.rating, rd, matches: r.matches, wins: r.wins, band: bandOf(r.rating, edges) };
}

/** Most ranked wins in one UTC ISO week (this week by default) of players not banned, ties to whoever got there first. */
export async function getWeeklyWinsBoard(options: {
  mode: VersusMode;
  week?: string;
  cursor?: string;
  limit: number;
  viewerId?: string | null;
  now?: Date;
}): Promise<VersusBoard<WinsRow> & { week: string }> {
  const db = await getDb();
  const week = options.week ?? isoWeek(options.now ?? new Date());
  const key = { mode: `versus:${options.mode}`, period: week };
  const cursor = options.cursor ? decodeCursor(key, options.cursor) : null;
  const base = Prisma.sql`w."mode" = ${options.mode} AND w."week" = ${week}`;
  const where = cursor ? Prisma.sql`${base} AND (-w."wins", w."lastWinAt", w."userId") > (${cursor.metric}, ${cursor.achievedAt}, ${cursor.gameId})` : base;
  const raw = await db.$queryRaw<RawWins[]>(winsRows(where, options.limit + 1));
  const first = (cursor?.rank ?? 0) + 1;
  const rows = raw.slice(0, options.limit).map((r, i) => winsRow(r, first + i));
  const lastRaw = raw[options.limit - 1];
  const nextCursor =
    raw.length > options.limit && lastRaw ? encodeCursor(key, { rank: first + options.limit - 1, metric: -lastRaw.wins, achievedAt: lastRaw.lastWinAt, gameId: lastRaw.userId }) : null;
  let me: WinsRow | null = null;
  if (options.viewerId) {
    const [mine] = await db.$queryRaw<RawWins[]>(winsRows(Prisma.sql`${base} AND w."userId" = ${options.viewerId}`, 1, true));
    if (mine) me = winsRow(mine, Number(mine.rank));
  }
  return { mode: options.mode, week, rows, nextCursor, me };
}

function winsRows(where: Prisma.Sql, limit: number, withRank = false) {
  const rank = withRank
    ? Prisma.sql`, (SELECT count(*) + 1 FROM "VersusWeeklyWins" ahead JOIN "User" au ON au."id" = ahead."userId" AND au."bannedAt" IS NULL
         WHERE ahead."mode" = w."mode" AND ahead."week" = w."week"
         AND (-ahead."wins", ahead."lastWinAt", ahead."userId") < (-w."wins", w."lastWinAt", w."userId")) AS "rank"`
    : Prisma.empty;
  return Prisma.sql`
    SELECT w."userId", u."username", w."wins", w."lastWinAt" ${rank}
    FROM "VersusWeeklyWins" w JOIN "User" u ON u."id" = w."userId" AND u."bannedAt" IS NULL
    WHERE ${where}
    ORDER BY -w."wins", w."lastWinAt", w."userId"
    LIMIT ${limit}`;
}

function winsRow(r: RawWins, rank: number): WinsRow {
  return { rank, player: { id: r.userId, username: r.username }, wins: r.wins, lastWinAt: r.lastWinAt.toISOString() };
}

/** `band` null while provisional (then `placement` or the "?" says where the player is). */
export type VersusStanding = { rating: number; rd: number; matches: number; wins: number; provisional: boolean; placement: Placement | null; band: BandId | null };
/** A player's standing in every versus mode (the versus lobby's). */
export type VersusStandings = Record<VersusMode, VersusStanding>;

/**
 * A player's rating in a mode as it stands at `now` (its deviation grown for time away), for the
 * profile and the versus lobby; a new player's provisional starting rating if none yet.
 */
export async function getVersusRating(options: { userId: string; mode: VersusMode; now?: Date }): Promise<VersusStanding> {
  const db = await getDb();
  const [row, edges] = await Promise.all([
    db.versusRating.findUnique({
      where: { userId_mode: { userId: options.userId, mode: options.mode } },
      select: { rating: true, rd: true, vol: true, matches: true, wins: true, ratedAt: true },
    }),
    bandEdges({ mode: options.mode, now: options.now }),
  ]);
  const now = row ? ratingAt(row, row.ratedAt, options.now ?? new Date()) : NEW_PLAYER_RATING;
  const standing = { rating: now.rating, rd: now.rd, matches: row?.matches ?? 0, wins: row?.wins ?? 0 };
  return { ...standing, provisional: isProvisional(standing), placement: placementOf(standing.matches), band: shownBand(standing, edges) };
}

/** A player's standing in every versus mode, as it stands at `now` (the versus lobby's). */
export async function getVersusStandings(options: { userId: string; now?: Date }): Promise<VersusStandings> {
  const entries = await Promise.all(VERSUS_MODE_NAMES.map(async (mode) => [mode, await getVersusRating({ ...options, mode })] as const));
  // One entry per mode of VERSUS_MODE_NAMES: the record is whole.
  return Object.fromEntries(entries) as VersusStandings;
}

export type AnyVersusBoard =
  | ({ board: 'rating' } & Awaited<ReturnType<typeof getRatingBoard>>)
  | ({ board: 'wins' } & Awaited<ReturnType<typeof getWeeklyWinsBoard>>);

/** One of a versus mode's two boards, as the boards page and its JSON route ask for it. */
export async function getVersusBoard(options: { mode: VersusMode; board: 'rating' | 'wins'; cursor?: string; limit: number; viewerId?: string | null; now?: Date }): Promise<AnyVersusBoard> {
  const { board, ...rest } = options;
  return board === 'rating' ? { board, ...(await getRatingBoard(rest)) } : { board, ...(await getWeeklyWinsBoard(rest)) };
}
