import 'server-only';
import type { Prisma } from '@/lib/generated/prisma/client';
import { isoWeek } from '@/lib/periods/weeks';
import { getDb } from '@/lib/server/db';
import type { Owner } from '@/lib/server/games/owner';
import { NEW_PLAYER_RATING, rateMatch, storedRating, type Rating } from '@/lib/server/versus/rating';
import { verifyMatch, type VersusMatchRecord, type VersusRefusal } from '@/lib/server/versus/verify';

export type SeatRatings = { before: Rating; after: Rating };
export type StoreMatchResult =
  | { ok: true; matchId: string; repeated: boolean; ratings: [SeatRatings, SeatRatings] | null }
  | { ok: false; code: VersusRefusal | 'ranked_needs_accounts' | 'seat_without_owner'; message: string };

type Tx = Prisma.TransactionClient;
type RatingRow = Rating & { userId: string };

/**
 * Stores a finished match once it is proven (verify.ts): the match, both seats, every game's two
 * replays, and for a ranked match both ratings and the winner's weekly wins, in one transaction
 * (nothing is stored unless all of it is). The match host calls it with the seats' owners as its
 * sessions established them; `matchId` is the host's id for the match, so a retry after a lost
 * answer stores nothing twice.
 */
export async function storeMatch(options: {
  matchId: string;
  record: VersusMatchRecord;
  seats: [Owner, Owner];
  ranked: boolean;
  now?: Date;
}): Promise<StoreMatchResult> {
  const { record, seats, ranked, matchId } = options;
  const now = options.now ?? new Date();
  if (seats.some((s) => !s.userId && !s.guestId)) return { ok: false, code: 'seat_without_owner', message: 'Every seat needs a player or a guest.' };
  if (ranked && (!seats[0].userId || !seats[1].userId || seats[0].userId === seats[1].userId))
    return { ok: false, code: 'ranked_needs_accounts', message: 'A ranked match needs two different signed-in players.' };
  const verdict = verifyMatch(record);
  if (!verdict.ok) return verdict;
  const db = await getDb();
  const w = record.winnerSeat;
  const week = isoWeek(now);
  const outcome = await db.$transaction(async (tx) => {
    // The match row first: a concurrent retry of the same match waits here on the key, then
    // finds it taken and stores nothing.
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "VersusMatch" ("id", "mode", "ranked", "firstTo", "seed", "rulesVersion", "winnerSeat", "endReason", "week", "createdAt")
      VALUES (${matchId}, ${verdict.mode}, ${ranked}, ${record.firstTo}, ${record.seed}, ${verdict.games[0]!.rulesVersion}, ${w},
              ${record.endReason}, ${week}, ${now})
      ON CONFLICT ("id") DO NOTHING RETURNING "id"`;
    if (inserted.length === 0) return null;
    const rated = ranked ? await rateSeats(tx, record.mode, [seats[0].userId!, seats[1].userId!], w, now) : null;
    await tx.versusSeat.createMany({
      data: ([0, 1] as const).map((s) => ({
        matchId,
        seat: s,
        userId: seats[s].userId,
        guestId: seats[s].userId ? null : seats[s].guestId,
        gamesWon: verdict.score[s],
        won: s === w,
        ratingBefore: rated?.[s].before.rating ?? null,
        rdBefore: rated?.[s].before.rd ?? null,
        ratingAfter: rated?.[s].after.rating ?? null,
        rdAfter: rated?.[s].after.rd ?? null,
        createdAt: now,
      })),
    });
    await tx.versusGame.createMany({
      data: record.games.map((g, i) => ({
        matchId,
        index: i,
        winnerSeat: g.winnerSeat,
        reason: g.reason,
        endTick: g.endTick,
        replay0: g.replays[0],
        replay1: g.replays[1],
        hash0: verdict.games[i]!.results[0].hash,
        hash1: verdict.games[i]!.results[1].hash,
      })),
    });
    if (rated) {
      const winner = seats[w].userId!;
      await tx.$executeRaw`
        INSERT INTO "VersusWeeklyWins" ("userId", "mode", "week", "wins", "lastWinAt")
        VALUES (${winner}, ${record.mode}, ${week}, 1, ${now})
        ON CONFLICT ("userId", "mode", "week") DO UPDATE SET "wins" = "VersusWeeklyWins"."wins" + 1, "lastWinAt" = ${now}`;
    }
    return { rated };
  });
  return outcome ? { ok: true, matchId, repeated: false, ratings: outcome.rated } : { ok: true, matchId, repeated: true, ratings: null };
}

/**
 * Reads both ratings under a row lock (creating new players' rows first), so two matches of the
 * same player finishing at once update the rating one after the other, and writes the new ones.
 */
async function rateSeats(tx: Tx, mode: string, users: [string, string], winnerSeat: 0 | 1, now: Date): Promise<[SeatRatings, SeatRatings]> {
  const fresh = NEW_PLAYER_RATING;
  await tx.$executeRaw`
    INSERT INTO "VersusRating" ("userId", "mode", "rating", "rd", "vol", "matches", "wins", "updatedAt")
    VALUES (${users[0]}, ${mode}, ${fresh.rating}, ${fresh.rd}, ${fresh.vol}, 0, 0, ${now}),
           (${users[1]}, ${mode}, ${fresh.rating}, ${fresh.rd}, ${fresh.vol}, 0, 0, ${now})
    ON CONFLICT ("userId", "mode") DO NOTHING`;
  // Locked in id order, so two transactions never wait on each other's second row.
  const rows = await tx.$queryRaw<RatingRow[]>`
    SELECT "userId", "rating", "rd", "vol" FROM "VersusRating"
    WHERE "mode" = ${mode} AND "userId" IN (${users[0]}, ${users[1]})
    ORDER BY "userId" FOR UPDATE`;
  const before = users.map((u) => rows.find((r) => r.userId === u)!) as [RatingRow, RatingRow];
  const loserSeat = winnerSeat === 0 ? 1 : 0;
  const rated = rateMatch(before[winnerSeat], before[loserSeat]);
  const after: [Rating, Rating] = (winnerSeat === 0 ? [rated.winner, rated.loser] : [rated.loser, rated.winner]).map(storedRating) as [Rating, Rating];
  for (const s of [0, 1] as const) {
    await tx.versusRating.update({
      where: { userId_mode: { userId: users[s], mode } },
      data: { ...after[s], matches: { increment: 1 }, wins: { increment: s === winnerSeat ? 1 : 0 }, updatedAt: now },
    });
  }
  const strip = (r: RatingRow): Rating => ({ rating: r.rating, rd: r.rd, vol: r.vol });
  return [
    { before: strip(before[0]), after: after[0] },
    { before: strip(before[1]), after: after[1] },
  ];
}
