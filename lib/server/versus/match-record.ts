import 'server-only';
import { getDb } from '@/lib/server/db';

export type StoredMatch = {
  matchId: string;
  mode: string;
  ranked: boolean;
  firstTo: number;
  winnerSeat: number;
  endReason: string;
  seats: Array<{ seat: number; username: string | null; gamesWon: number; won: boolean; ratingBefore: number | null; ratingAfter: number | null; rdBefore: number | null; rdAfter: number | null }>;
  games: Array<{ index: number; winnerSeat: number | null; reason: string; endTick: number; replays: [string, string] }>;
};

/**
 * A stored versus match as the live match page shows its result (and tests re-simulate it): the
 * seats with their rating change, and every game's two replays. Public, like a solo replay;
 * guests are not named.
 */
export async function getStoredMatch(options: { matchId: string }): Promise<StoredMatch | null> {
  const db = await getDb();
  const m = await db.versusMatch.findUnique({
    where: { id: options.matchId },
    select: {
      id: true, mode: true, ranked: true, firstTo: true, winnerSeat: true, endReason: true,
      seats: { orderBy: { seat: 'asc' }, select: { seat: true, gamesWon: true, won: true, ratingBefore: true, ratingAfter: true, rdBefore: true, rdAfter: true, user: { select: { username: true } } } },
      games: { orderBy: { index: 'asc' }, select: { index: true, winnerSeat: true, reason: true, endTick: true, replay0: true, replay1: true } },
    },
  });
  if (!m) return null;
  return {
    matchId: m.id, mode: m.mode, ranked: m.ranked, firstTo: m.firstTo, winnerSeat: m.winnerSeat, endReason: m.endReason,
    seats: m.seats.map(({ user, ...s }) => ({ ...s, username: user?.username ?? null })),
    games: m.games.map(({ replay0, replay1, ...g }) => ({ ...g, replays: [replay0, replay1] })),
  };
}
