import 'server-only';
import { isRankable, metricOf, type Mode } from '@/lib/engine';
import { getDb, type Db } from '@/lib/server/db';
import { PERIOD_IDS } from '@/lib/periods';
import { ranksOf, type BoardRanks, type Ranks } from '@/lib/server/games/bests';

export type GameSummary = {
  id: string;
  mode: Mode;
  score: number;
  lines: number;
  level: number;
  ticks: number;
  pieces: number;
  pps: number;
  kpp: number;
  /** The clears a drill mode counts (Perfect Clears ranks by them); 0 in the other modes. */
  clears: number;
  finished: boolean;
  toppedOut: boolean;
  week: string;
  createdAt: string;
  /** Null unless its timing was held for review: 'pending', 'approved' or 'rejected' (plausibility.ts). */
  reviewStatus: string | null;
};

/** 'unpaced': proven but not played live (paced.ts); no reviewer can rank it. */
export type ReviewStatus = 'pending' | 'approved' | 'rejected' | 'unpaced';

/** Why a game waits for review, as the player is told. */
export type GameReview = { status: ReviewStatus; reason: string; message: string };

export type StoredGameResponse = {
  game: GameSummary;
  /** The game is the player's all-time best in its mode. */
  personalBest: boolean;
  /** Position on each board it counts on (by period); for a guest, the position it would take once claimed. Null if unranked. */
  rank: Record<keyof BoardRanks, number | null>;
  /** Kept for 24 hours until the guest signs in to claim it. */
  guest: boolean;
  /** Null for a game that went straight to the boards; otherwise why it is held (no bests, no rank until approved). */
  review: GameReview | null;
};

export const summaryFields = {
  id: true, mode: true, score: true, lines: true, level: true, ticks: true, pieces: true,
  pps: true, kpp: true, clears: true, finished: true, toppedOut: true, week: true, createdAt: true, reviewStatus: true,
} as const;

/** Games on the boards (or that will be once claimed): never flagged, or approved by a reviewer. */
export const boardable = { OR: [{ reviewStatus: null }, { reviewStatus: 'approved' }] };

/** A held game waits for review or was rejected: it has no bests and no rank. */
export const isHeld = (status: string | null): boolean => status === 'pending' || status === 'rejected' || status === 'unpaced';

type StoredGame = Omit<GameSummary, 'createdAt' | 'mode'> & {
  mode: string;
  createdAt: Date;
  userId: string | null;
  reviewReason: string | null;
  reviewMessage: string | null;
};

/** The answer to a successful submission. `ranks` null = compute them (a game read back). */
export async function describeStored(db: Db, game: StoredGame, ranks: Ranks | null = null): Promise<StoredGameResponse> {
  const { userId } = game;
  const summary: GameSummary = {
    id: game.id, mode: game.mode as Mode, score: game.score, lines: game.lines, level: game.level, ticks: game.ticks,
    pieces: game.pieces, pps: game.pps, kpp: game.kpp, clears: game.clears, finished: game.finished, toppedOut: game.toppedOut,
    week: game.week, createdAt: game.createdAt.toISOString(), reviewStatus: game.reviewStatus,
  };
  const guest = userId === null;
  const review = game.reviewStatus
    ? { status: game.reviewStatus as ReviewStatus, reason: game.reviewReason ?? '', message: game.reviewMessage ?? '' }
    : null;
  if (isHeld(game.reviewStatus) || !isRankable(summary.mode, game)) {
    const unranked = Object.fromEntries(PERIOD_IDS.map((p) => [p, null])) as StoredGameResponse['rank'];
    return { game: summary, personalBest: false, rank: unranked, guest, review };
  }
  const r =
    ranks ??
    (await ranksOf(db, { mode: game.mode, metric: metricOf(summary.mode, game), achievedAt: game.createdAt, gameId: game.id, userId }));
  return { game: summary, personalBest: r.isBest, rank: r.rank, guest, review };
}

/** The same answer for a game read back (a repeated submission). */
export async function describeGame(options: { gameId: string }): Promise<StoredGameResponse> {
  const db = await getDb();
  const game = await db.game.findUniqueOrThrow({
    where: { id: options.gameId },
    select: { ...summaryFields, userId: true, reviewReason: true, reviewMessage: true },
  });
  return describeStored(db, game);
}
