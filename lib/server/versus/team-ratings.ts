import 'server-only';
import { MODES, type RoomRules, type VersusMode } from '@/lib/engine';
import { DEFAULT_ROOM_RULES } from '@/lib/engine';
import { Prisma } from '@/lib/generated/prisma/client';
import type { SeatOwner } from '@/lib/server/versus/store';
import { getDb } from '@/lib/server/db';
import { countsAsRated, isNoContest, NEW_PLAYER_RATING, ratingAt, storedRating, type Rating } from '@/lib/server/versus/rating';
import type { RoomMatchRecord } from '@/lib/server/versus/room-verify';
import { rollOverSeasons, seasonOfMatch } from '@/lib/server/versus/seasons';
import { rateTeams } from '@/lib/server/versus/team-rating';
import { seasonAt } from '@/lib/versus/seasons';

type Tx = Prisma.TransactionClient;

/**
 * Ranked 2v2's rating key in VersusRating (decision 0036): one row per player beside their 1v1
 * modes', so rating time (0022) and the season's soft reset (0024) apply to it as they are, with
 * no second copy of either. It is never a VersusMode: the 1v1 boards, bands and queues never see it.
 */
export const TEAMS_MODE = 'teams2';

/** The one set ranked 2v2 plays: Battle under the default room rules, first to the 1v1 quick match's, seats 0–1 against 2–3. */
export const TEAM_SET: { mode: VersusMode; rules: RoomRules } = {
  mode: 'battle',
  rules: { ...DEFAULT_ROOM_RULES, firstTo: MODES.battle.firstTo, teams: [0, 0, 1, 1] },
};

/** A player's 2v2 rating as it stands at `now` (for the queue's window); a new player's if none yet. */
export async function teamRatingOf(o: { userId: string; now?: Date }): Promise<Rating> {
  const row = await (await getDb()).versusRating.findUnique({
    where: { userId_mode: { userId: o.userId, mode: TEAMS_MODE } },
    select: { rating: true, rd: true, vol: true, ratedAt: true },
  });
  return row ? ratingAt(row, row.ratedAt, o.now ?? new Date()) : NEW_PLAYER_RATING;
}

export type SeatRating = { before: Rating; after: Rating };
type Row = Rating & { userId: string; ratedAt: Date; season: number };
type NoContest = { noContest: boolean; leavers: number[] };

/**
 * 1v1's no-contest rule (rating.ts isNoContest) for a ranked set: the seats that left in the first
 * game (the host's leaves: a leave, a drop, a lag) and whether one of them had played fewer than
 * NO_CONTEST.minLeaverPieces pieces there (`firstPieces`, the verification's count).
 */
export function teamNoContest(record: Pick<RoomMatchRecord, 'games'>, firstPieces: readonly number[]): NoContest {
  const leavers = (record.games[0]?.leaves ?? []).map((l) => l.seat);
  return { noContest: leavers.some((s) => isNoContest(firstPieces[s] ?? 0)), leavers };
}

/**
 * Rates a ranked 2v2 set in the transaction that stores it (room-store.ts), so a retried store,
 * which finds the match taken, rates nobody twice. Rows are made for the players rated, then every
 * player's locked in id order (two sets of one player finishing at once rate one after the other);
 * each player starts from their rating as it stands now (`ratingAt`), and moves by team-rating.ts
 * against the other team. A seat whose account was deleted before the store (no userId) still
 * counts for the others, at the rating it queued with (`queued`; a new player's if unknown), so
 * deleting an account never voids a result; it has no row and is given no rating (null).
 * A no-contest set (teamNoContest) rates only the losing leavers' loss, as 1v1 rates only the
 * leaver's, and the loss of a leaver's partner who sent their pair's queue itself (an alt that
 * leaves at once must not spare the main who queued them); the winners and any other partner keep
 * their ratings (before = after, no match counted).
 */
export async function rateTeamSet(tx: Tx, o: { seats: readonly SeatOwner[]; teams: readonly number[]; winnerTeam: number; now: Date } & Partial<NoContest>): Promise<(SeatRating | null)[]> {
  const { seats, teams, now } = o;
  const users = seats.map((x) => x.userId);
  const noContest = o.noContest === true;
  const leavers = o.leavers ?? [];
  // s queued itself and its partner, and l (its teammate: a pair is never split) left.
  const partyOf = (l: number, s: number) => l !== s && teams[l] === teams[s] && seats[s]!.queued?.party === true;
  const shares = (s: number) => leavers.some((l) => l === s || partyOf(l, s));
  const counts = (s: number) => users[s] != null && countsAsRated({ won: teams[s] === o.winnerTeam, noContest }) && (!noContest || shares(s));
  await rollOverSeasons({ now, tx });
  const fresh = NEW_PLAYER_RATING;
  const season = seasonAt(now).number;
  for (const [s, userId] of users.entries()) {
    if (!userId || !counts(s)) continue;
    await tx.$executeRaw`
      INSERT INTO "VersusRating" ("userId", "mode", "rating", "rd", "vol", "matches", "wins", "updatedAt", "ratedAt", "season")
      VALUES (${userId}, ${TEAMS_MODE}, ${fresh.rating}, ${fresh.rd}, ${fresh.vol}, 0, 0, ${now}, ${now}, ${season})
      ON CONFLICT ("userId", "mode") DO NOTHING`;
  }
  const present = users.filter((u): u is string => !!u);
  const rows = present.length === 0 ? [] : await tx.$queryRaw<Row[]>`
    SELECT "userId", "rating", "rd", "vol", "ratedAt", "season" FROM "VersusRating"
    WHERE "mode" = ${TEAMS_MODE} AND "userId" IN (${Prisma.join(present)})
    ORDER BY "userId" FOR UPDATE`;
  const row = (u: string | null) => rows.find((r) => r.userId === u);
  const before = seats.map((x) => {
    const r = row(x.userId);
    return storedRating(r ? ratingAt(r, r.ratedAt, now) : (x.userId ? fresh : (x.queued?.rating ?? fresh)));
  });
  const side = (team: number) => users.flatMap((_, s) => (teams[s] === team ? [s] : []));
  const [a, b] = [side(0), side(1)];
  const rated = rateTeams([a.map((s) => before[s]!), b.map((s) => before[s]!)], o.winnerTeam === 0 ? 0 : 1);
  const after: Rating[] = [];
  a.forEach((s, i) => (after[s] = storedRating(rated[0][i]!)));
  b.forEach((s, i) => (after[s] = storedRating(rated[1][i]!)));
  for (const [s, userId] of users.entries()) {
    if (!userId || !counts(s)) continue;
    await tx.versusRating.update({
      where: { userId_mode: { userId, mode: TEAMS_MODE } },
      data: { ...after[s]!, matches: { increment: 1 }, wins: { increment: teams[s] === o.winnerTeam ? 1 : 0 }, updatedAt: now, ratedAt: now, season: seasonOfMatch(row(userId)!.season, now) },
    });
  }
  return users.map((u, s) => (u ? { before: before[s]!, after: counts(s) ? after[s]! : before[s]! } : null));
}
