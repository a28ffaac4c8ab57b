import 'server-only';
import { getDb } from '@/lib/server/db';
import { recordGameBests, type BestGame } from '@/lib/server/games/bests';
import type { ReviewStatus } from '@/lib/server/games/describe';

export type HeldGame = {
  id: string;
  mode: string;
  player: string | null;
  score: number;
  lines: number;
  ticks: number;
  reviewStatus: string | null;
  reviewReason: string | null;
  reviewMessage: string | null;
  reviewNote: string | null;
  createdAt: Date;
};

/** Games held for review (oldest first, the order to work through them). */
export async function listHeldGames(options: { status?: ReviewStatus; limit: number }): Promise<HeldGame[]> {
  const db = await getDb();
  const games = await db.game.findMany({
    where: { reviewStatus: options.status ?? 'pending' },
    orderBy: { createdAt: 'asc' },
    take: options.limit,
    select: {
      id: true, mode: true, score: true, lines: true, ticks: true, createdAt: true,
      reviewStatus: true, reviewReason: true, reviewMessage: true, reviewNote: true, user: { select: { username: true } },
    },
  });
  return games.map(({ user, ...g }) => ({ ...g, player: user?.username ?? null }));
}

export type ReviewOutcome =
  | { ok: true; status: 'approved' | 'rejected' }
  | { ok: false; code: 'game_not_found' | 'not_reviewable'; message: string };

type Decided = BestGame & { userId: string | null };

/**
 * Approves a held game (a pending one, or a rejected one on second thoughts): it then takes the
 * place on the boards an accepted game would have taken when it was played (the week and day it was played in, its
 * own time for ties). The status change and the bests are one transaction.
 */
export async function approveGame(options: { gameId: string; now?: Date }): Promise<ReviewOutcome> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const decided = await db.$transaction(async (tx) => {
    const [game] = await tx.$queryRaw<Decided[]>`
      UPDATE "Game" SET "reviewStatus" = 'approved', "reviewedAt" = ${now}
      WHERE "id" = ${options.gameId} AND "reviewStatus" IN ('pending', 'rejected')
      RETURNING "id", "userId", "mode", "score", "ticks", "finished", "createdAt"`;
    // A guest's game gets its bests when it is claimed (claim.ts), as any other guest game.
    if (game?.userId) await recordGameBests(tx, game.userId, game);
    return game;
  });
  return decided ? { ok: true, status: 'approved' } : notReviewable(options.gameId, 'approve');
}

/** Rejects a pending game: it stays stored (the player keeps the replay) and off the boards for good. */
export async function rejectGame(options: { gameId: string; note: string; now?: Date }): Promise<ReviewOutcome> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const { count } = await db.game.updateMany({
    where: { id: options.gameId, reviewStatus: 'pending' },
    data: { reviewStatus: 'rejected', reviewNote: options.note, reviewedAt: now },
  });
  return count === 1 ? { ok: true, status: 'rejected' } : notReviewable(options.gameId, 'reject');
}

async function notReviewable(gameId: string, action: string): Promise<ReviewOutcome> {
  const db = await getDb();
  const game = await db.game.findUnique({ where: { id: gameId }, select: { reviewStatus: true } });
  if (!game) return { ok: false, code: 'game_not_found', message: `No game ${gameId}.` };
  const status = game.reviewStatus ?? 'never held';
  return { ok: false, code: 'not_reviewable', message: `Cannot ${action} game ${gameId}: its review status is ${status}.` };
}
