import 'server-only';
import type { Mode } from '@/lib/engine';
import { ALL_TIME } from '@/lib/periods';
import { getDb } from '@/lib/server/db';
import { boardable, isHeld, summaryFields, type GameSummary } from '@/lib/server/games/describe';

/**
 * What a stored replay proves, as its page and the API state it: every stored game re-simulated
 * to its claimed result, but one held for inhuman timing waits for a reviewer (and is on no
 * board), and a rejected one stays off the boards unless a reviewer changes their mind.
 */
export type ReplayStatus = 'verified' | 'awaiting_review' | 'rejected' | 'unpaced';

const statusOf = (reviewStatus: string | null): ReplayStatus =>
  reviewStatus === 'pending' ? 'awaiting_review' : reviewStatus === 'rejected' ? 'rejected' : reviewStatus === 'unpaced' ? 'unpaced' : 'verified';

export type ReplayRecord = {
  /** Still a guest's (it may yet be claimed or expire), or held or rejected: it may still change. */
  unsettled: boolean;
  status: ReplayStatus;
  game: GameSummary & { rulesVersion: number; player: { id: string; username: string } | null };
  /** encodeReplay output; decode with decodeReplay from lib/engine. */
  replay: string;
};

/** Any stored game's replay, what the viewer shows beside it, and whether it is verified or held. */
export async function getReplay(options: { gameId: string }): Promise<ReplayRecord | null> {
  const db = await getDb();
  const game = await db.game.findUnique({
    where: { id: options.gameId },
    select: { ...summaryFields, rulesVersion: true, replay: true, guestId: true, user: { select: { id: true, username: true } } },
  });
  if (!game) return null;
  const { replay, user, guestId, ...rest } = game;
  return {
    unsettled: guestId !== null || isHeld(rest.reviewStatus),
    status: statusOf(rest.reviewStatus),
    game: { ...rest, mode: rest.mode as Mode, createdAt: rest.createdAt.toISOString(), player: user },
    replay,
  };
}

/**
 * Latest verified games of signed-up players, for the replays page, or of one player, for their
 * profile. Games held for review are listed only to their own player (`includeHeld`), each
 * saying so in `reviewStatus`; nobody else sees them until a reviewer approves them.
 */
export async function listRecentGames(options: { mode?: Mode; userId?: string; includeHeld?: boolean; limit: number }) {
  const db = await getDb();
  const games = await db.game.findMany({
    where: {
      ...(options.userId ? { userId: options.userId, ...(options.includeHeld ? {} : boardable) } : { userId: { not: null }, ...boardable }),
      ...(options.mode ? { mode: options.mode } : {}),
    },
    orderBy: { createdAt: 'desc' },
    take: options.limit,
    select: { ...summaryFields, user: { select: { id: true, username: true } } },
  });
  return games.map(({ user, ...g }) => ({ ...g, mode: g.mode as Mode, createdAt: g.createdAt.toISOString(), player: user }));
}

/** A player's all-time best per mode, with the game behind it. */
export async function getPlayerBests(options: { userId: string }) {
  const db = await getDb();
  const bests = await db.personalBest.findMany({
    where: { userId: options.userId, period: ALL_TIME },
    select: { mode: true, gameId: true },
  });
  const games = await db.game.findMany({ where: { id: { in: bests.map((b) => b.gameId) } }, select: summaryFields });
  return games.map((g) => ({ ...g, mode: g.mode as Mode, createdAt: g.createdAt.toISOString() }));
}
