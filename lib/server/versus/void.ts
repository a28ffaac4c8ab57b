import 'server-only';
import type { Prisma } from '@/lib/generated/prisma/client';
import { getDb } from '@/lib/server/db';
import { logAction, type Actor } from '@/lib/server/moderation/audit';
import { RATING_SETTINGS, storedRating } from '@/lib/server/versus/rating';

export type VoidOutcome =
  | { ok: true; changed: boolean }
  | { ok: false; code: 'match_not_found' | 'own_match'; status: number; message: string };

type Seat = { userId: string | null; won: boolean; ratingBefore: number | null; ratingAfter: number | null; rdBefore: number | null; rdAfter: number | null };

/**
 * A moderator voids a versus match (`decide` → `void`): it stays stored, marked void in the
 * history and the viewer, and what it did to the boards is taken back in one transaction with the
 * audit entry. Ranked only: each seat's rating change is undone by its inverse applied to the
 * rating as it is now (rating − (after − before); deviation + (before − after), at most a new
 * player's), so the matches played since keep what they did and nothing is re-rated; a seat whose
 * match was counted has it taken off its matches (and its win), and the winner's weekly win goes.
 * Voiding twice changes nothing the second time. Nobody voids a match they played.
 */
export async function voidMatch(options: { matchId: string; reason: string; actor: Actor; now?: Date }): Promise<VoidOutcome> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const match = await db.versusMatch.findUnique({ where: { id: options.matchId }, select: { seats: { select: { userId: true } } } });
  if (!match) return { ok: false, code: 'match_not_found', status: 404, message: `No versus match ${options.matchId}.` };
  if (options.actor.id && match.seats.some((s) => s.userId === options.actor.id)) {
    return { ok: false, code: 'own_match', status: 403, message: 'Nobody voids a match they played: another moderator must.' };
  }
  const changed = await db.$transaction(async (tx) => {
    const [voided] = await tx.$queryRaw<{ mode: string; ranked: boolean; week: string; noContest: boolean; createdAt: Date }[]>`
      UPDATE "VersusMatch" SET "voidedAt" = ${now}, "voidReason" = ${options.reason}
      WHERE "id" = ${options.matchId} AND "voidedAt" IS NULL
      RETURNING "mode", "ranked", "week", "noContest", "createdAt"`;
    if (!voided) return false;
    if (voided.ranked) {
      const seats = await tx.versusSeat.findMany({
        where: { matchId: options.matchId, userId: { not: null } },
        orderBy: { userId: 'asc' },
        select: { userId: true, won: true, ratingBefore: true, ratingAfter: true, rdBefore: true, rdAfter: true },
      });
      for (const seat of seats) await undoSeat(tx, { mode: voided.mode, seat, counted: !(seat.won && voided.noContest), now });
      const winner = seats.find((s) => s.won);
      if (winner?.userId && !voided.noContest) {
        await tx.versusWeeklyWins.updateMany({ where: { userId: winner.userId, mode: voided.mode, week: voided.week, wins: { gt: 0 } }, data: { wins: { decrement: 1 } } });
        await tx.versusWeeklyWins.deleteMany({ where: { userId: winner.userId, mode: voided.mode, week: voided.week, wins: { lte: 0 } } });
      }
    }
    await logAction(tx, { actor: options.actor, action: 'void', matchId: options.matchId, reason: options.reason, now });
    return true;
  });
  return { ok: true, changed };
}

type Tx = Prisma.TransactionClient;

/** One seat's rating change taken back (its row locked first: a match being stored waits). */
async function undoSeat(tx: Tx, o: { mode: string; seat: Seat; counted: boolean; now: Date }): Promise<void> {
  const { seat } = o;
  if (!seat.userId || seat.ratingBefore === null || seat.ratingAfter === null || seat.rdBefore === null || seat.rdAfter === null) return;
  const [row] = await tx.$queryRaw<{ rating: number; rd: number; vol: number }[]>`
    SELECT "rating", "rd", "vol" FROM "VersusRating" WHERE "userId" = ${seat.userId} AND "mode" = ${o.mode} FOR UPDATE`;
  if (!row) return;
  const back = storedRating({
    rating: row.rating - (seat.ratingAfter - seat.ratingBefore),
    rd: Math.min(RATING_SETTINGS.rd, Math.max(0, row.rd + (seat.rdBefore - seat.rdAfter))),
    vol: row.vol,
  });
  await tx.versusRating.update({
    where: { userId_mode: { userId: seat.userId, mode: o.mode } },
    data: { ...back, ...(o.counted ? { matches: { decrement: 1 }, wins: { decrement: seat.won ? 1 : 0 } } : {}), updatedAt: o.now },
  });
}
