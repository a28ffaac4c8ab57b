import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { getDb } from '@/lib/server/db';
import { recordGameBests, type BestGame } from '@/lib/server/games/bests';
import { FLAG_REASONS } from '@/lib/server/games/plausibility';
import type { ReviewStatus } from '@/lib/server/games/describe';
import { CONSOLE, logAction, type Actor } from '@/lib/server/moderation/audit';
import { closeReports } from '@/lib/server/moderation/reports';
import { rebuildBests } from '@/lib/server/moderation/rebuild';
import { boardsChanged } from '@/lib/server/games/board-cache';

export type HeldGame = {
  id: string;
  mode: string;
  player: string | null;
  userId: string | null;
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
      id: true, mode: true, score: true, lines: true, ticks: true, createdAt: true, userId: true,
      reviewStatus: true, reviewReason: true, reviewMessage: true, reviewNote: true, user: { select: { username: true } },
    },
  });
  return games.map(({ user, ...g }) => ({ ...g, player: user?.username ?? null }));
}

export type ReviewOutcome =
  | { ok: true; status: 'approved' | 'rejected' }
  | { ok: false; code: 'game_not_found' | 'not_reviewable' | 'not_approvable' | 'own_game'; message: string };

type Decided = BestGame & { userId: string | null };

/**
 * Nobody decides on their own games: the condition every review statement carries. The console
 * (`npm run review`, no id) is nobody's player.
 */
const notOwnedBy = (actor: Actor) => (actor.id ? Prisma.sql`AND "userId" IS DISTINCT FROM ${actor.id}` : Prisma.empty);

/**
 * Approves a held game (a pending one, or a rejected one on second thoughts): it then takes the
 * place on the boards an accepted game would have taken when it was played (the week and day it was played in, its
 * own time for ties). The status change, the bests, the audit entry and closing the game's
 * reports are one transaction. `actor` is who did it (the console for `npm run review`).
 *
 * Only a hold for timing (or a rejection of a game that was on the boards) can be approved: a
 * game held for its pace (`unpaced`: not played live, lost its rank, stream broken off) keeps that
 * reason when rejected, and no reviewer can vouch for a clock the server did not watch.
 */
export async function approveGame(options: { gameId: string; now?: Date; actor?: Actor; reason?: string }): Promise<ReviewOutcome> {
  const now = options.now ?? new Date();
  const actor = options.actor ?? CONSOLE;
  const db = await getDb();
  const decided = await db.$transaction(async (tx) => {
    const [game] = await tx.$queryRaw<Decided[]>`
      UPDATE "Game" SET "reviewStatus" = 'approved', "reviewedAt" = ${now}
      WHERE "id" = ${options.gameId} AND "reviewStatus" IN ('pending', 'rejected')
        AND ("reviewReason" IS NULL OR "reviewReason" IN (${Prisma.join(FLAG_REASONS)})) ${notOwnedBy(actor)}
      RETURNING "id", "userId", "mode", "score", "ticks", "clears", "finished", "createdAt"`;
    if (!game) return undefined;
    // A guest's game gets its bests when it is claimed (claim.ts), as any other guest game.
    if (game.userId) await recordGameBests(tx, game.userId, game);
    await logAction(tx, { actor, action: 'approve', gameId: game.id, targetId: game.userId, reason: options.reason ?? 'timing reviewed', now });
    await closeReports(tx, { gameId: game.id, status: 'resolved', now });
    return game;
  });
  if (!decided) return notReviewable(options.gameId, 'approve', actor);
  // After the commit: a board read before it would keep the old page under the new generation.
  boardsChanged();
  return { ok: true, status: 'approved' };
}

/**
 * Rejects a game: a held one, or one on the boards that was reported. It stays stored (the
 * player keeps the replay) and leaves every board; the player's next best game takes its place.
 * Its reason for being held stays as it was (an unpaced game stays unapprovable).
 */
export async function rejectGame(options: { gameId: string; note: string; now?: Date; actor?: Actor }): Promise<ReviewOutcome> {
  const now = options.now ?? new Date();
  const actor = options.actor ?? CONSOLE;
  const db = await getDb();
  const decided = await db.$transaction(async (tx) => {
    const [game] = await tx.$queryRaw<{ id: string; userId: string | null; mode: string; wasOnBoards: boolean }[]>`
      UPDATE "Game" g SET "reviewStatus" = 'rejected', "reviewNote" = ${options.note}, "reviewedAt" = ${now}
      FROM (SELECT "id", "reviewStatus" AS "before" FROM "Game" WHERE "id" = ${options.gameId} ${notOwnedBy(actor)} FOR UPDATE) old
      WHERE g."id" = old."id" AND old."before" IS DISTINCT FROM 'rejected'
      RETURNING g."id", g."userId", g."mode", old."before" IS NULL OR old."before" = 'approved' AS "wasOnBoards"`;
    if (!game) return undefined;
    if (game.userId && game.wasOnBoards) await rebuildBests(tx, { userId: game.userId, mode: game.mode });
    await logAction(tx, { actor, action: 'reject', gameId: game.id, targetId: game.userId, reason: options.note, now });
    await closeReports(tx, { gameId: game.id, status: 'resolved', now });
    return game;
  });
  if (!decided) return notReviewable(options.gameId, 'reject', actor);
  boardsChanged();
  return { ok: true, status: 'rejected' };
}

/** Why a review statement changed nothing, each with its own code. */
async function notReviewable(gameId: string, action: 'approve' | 'reject', actor: Actor): Promise<ReviewOutcome> {
  const db = await getDb();
  const game = await db.game.findUnique({ where: { id: gameId }, select: { reviewStatus: true, reviewReason: true, userId: true } });
  if (!game) return { ok: false, code: 'game_not_found', message: `No game ${gameId}.` };
  if (actor.id && game.userId === actor.id) return { ok: false, code: 'own_game', message: 'Nobody reviews their own games: another moderator must decide on this one.' };
  const paceHold = game.reviewStatus === 'unpaced' || (game.reviewReason !== null && !(FLAG_REASONS as readonly string[]).includes(game.reviewReason));
  if (action === 'approve' && paceHold) {
    return { ok: false, code: 'not_approvable', message: `Game ${gameId} is held for its pace (${game.reviewReason}): it can be rejected, never approved.` };
  }
  const status = game.reviewStatus ?? 'on the boards';
  return { ok: false, code: 'not_reviewable', message: `Cannot ${action} game ${gameId}: its review status is ${status}.` };
}
