import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { getDb } from '@/lib/server/db';
import { isProvisional, NEW_PLAYER_RATING, placementOf, ratingAt, type Placement } from '@/lib/server/versus/rating';
import { establishedAt } from '@/lib/server/versus/rating-sql';
import { TEAMS_MODE } from '@/lib/server/versus/team-ratings';

type Player = { id: string; username: string };
export type TeamBoardRow = { rank: number; player: Player; rating: number; rd: number; matches: number; wins: number };
type Raw = { userId: string; username: string; rating: number; rd: number; vol: number; matches: number; wins: number; ratedAt: Date };

/**
 * The ranked 2v2 board: established players (placement played, deviation at most PROVISIONAL_RD
 * as it stands now: the 1v1 board's rule, establishedAt) who are not banned, highest rating
 * first, ties by id. One page of `limit` (a hundred at most, the route's bound); no bands (0036).
 */
export async function getTeamBoard(o: { limit: number; now?: Date }): Promise<TeamBoardRow[]> {
  const now = o.now ?? new Date();
  const rows = await (await getDb()).$queryRaw<Raw[]>(Prisma.sql`
    SELECT r."userId", u."username", r."rating", r."rd", r."vol", r."matches", r."wins", r."ratedAt"
    FROM "VersusRating" r JOIN "User" u ON u."id" = r."userId" AND u."bannedAt" IS NULL
    WHERE r."mode" = ${TEAMS_MODE} AND ${establishedAt('r', now)}
    ORDER BY -r."rating", r."userId"
    LIMIT ${o.limit}`);
  return rows.map((r, i) => ({ rank: i + 1, player: { id: r.userId, username: r.username }, rating: r.rating, rd: ratingAt(r, r.ratedAt, now).rd, matches: r.matches, wins: r.wins }));
}

export type TeamStanding = { rating: number; rd: number; matches: number; wins: number; provisional: boolean; placement: Placement | null };

/** A player's 2v2 rating as it stands at `now`; a new player's if they have none. */
export async function getTeamStanding(o: { userId: string; now?: Date }): Promise<TeamStanding> {
  const row = await (await getDb()).versusRating.findUnique({
    where: { userId_mode: { userId: o.userId, mode: TEAMS_MODE } },
    select: { rating: true, rd: true, vol: true, matches: true, wins: true, ratedAt: true },
  });
  const r = row ? ratingAt(row, row.ratedAt, o.now ?? new Date()) : NEW_PLAYER_RATING;
  const standing = { rating: r.rating, rd: r.rd, matches: row?.matches ?? 0, wins: row?.wins ?? 0 };
  return { ...standing, provisional: isProvisional(standing), placement: placementOf(standing.matches) };
}

export type TeamHistoryEntry = {
  matchId: string;
  playedAt: string;
  won: boolean;
  /** Null for a seat whose account was deleted since. */
  partner: Player | null;
  opponents: (Player | null)[];
  ratingBefore: number;
  ratingAfter: number;
};

/** A player's last `limit` ranked 2v2 sets, newest first: partner, opponents, result, rating change. */
export async function getTeamHistory(o: { userId: string; limit: number }): Promise<TeamHistoryEntry[]> {
  const seats = await (await getDb()).roomSeat.findMany({
    where: { userId: o.userId, ratingBefore: { not: null }, ratingAfter: { not: null }, match: { ranked: true } },
    orderBy: [{ createdAt: 'desc' }, { matchId: 'desc' }],
    take: o.limit,
    select: {
      matchId: true, seat: true, team: true, won: true, createdAt: true, ratingBefore: true, ratingAfter: true,
      match: { select: { players: { select: { seat: true, team: true, user: { select: { id: true, username: true } } } } } },
    },
  });
  return seats.map((s) => {
    const others = s.match.players.filter((p) => p.seat !== s.seat).sort((a, b) => a.seat - b.seat);
    return {
      matchId: s.matchId, playedAt: s.createdAt.toISOString(), won: s.won,
      partner: others.find((p) => p.team === s.team)?.user ?? null,
      opponents: others.filter((p) => p.team !== s.team).map((p) => p.user),
      ratingBefore: s.ratingBefore!, ratingAfter: s.ratingAfter!,
    };
  });
}
