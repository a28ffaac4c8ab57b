import 'server-only';
import type { Mode } from '@/lib/engine';
import { getDb } from '../db';
import { rankOn } from './bests';
import { isRankable, metricOf } from './metric';

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
  finished: boolean;
  toppedOut: boolean;
  week: string;
  createdAt: string;
};

export type StoredGameResponse = {
  game: GameSummary;
  /** The game is the player's all-time best in its mode. */
  personalBest: boolean;
  /** Position on the boards; for a guest, the position it would take once claimed. Null if unranked. */
  rank: { global: number | null; weekly: number | null };
  /** Kept for 24 hours until the guest signs in to claim it. */
  guest: boolean;
};

export const summaryFields = {
  id: true, mode: true, score: true, lines: true, level: true, ticks: true, pieces: true,
  pps: true, kpp: true, finished: true, toppedOut: true, week: true, createdAt: true,
} as const;

/** The answer to a successful submission (first time or repeated). */
export async function describeGame(options: { gameId: string; now?: Date }): Promise<StoredGameResponse> {
  const db = await getDb();
  const game = await db.game.findUniqueOrThrow({
    where: { id: options.gameId },
    select: { ...summaryFields, userId: true },
  });
  const summary: GameSummary = { ...game, mode: game.mode as Mode, createdAt: game.createdAt.toISOString() };
  if (!isRankable(game.mode, game)) {
    return { game: summary, personalBest: false, rank: { global: null, weekly: null }, guest: game.userId === null };
  }
  const position = { mode: game.mode, metric: metricOf(game.mode, game), achievedAt: game.createdAt, gameId: game.id, excludeUserId: game.userId };
  const [global, weekly, best] = await Promise.all([
    rankOn(db, { ...position, period: 'all' }),
    rankOn(db, { ...position, period: game.week }),
    game.userId
      ? db.personalBest.findUnique({ where: { userId_mode_period: { userId: game.userId, mode: game.mode, period: 'all' } }, select: { gameId: true } })
      : null,
  ]);
  return { game: summary, personalBest: best?.gameId === game.id, rank: { global, weekly }, guest: game.userId === null };
}
