import 'server-only';
import type { VersusMode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { guestTag } from '@/lib/server/games/guest-tag';
import { storedBot, type BotSpec } from '@/lib/bot/spec';
import { historyCursor } from '@/lib/validations/versus';

export type HistoryEntry = {
  matchId: string;
  mode: string;
  ranked: boolean;
  playedAt: string;
  won: boolean;
  /** Games won by the player, then by the opponent. */
  score: [number, number];
  opponent: { id: string; username: string } | null;
  /** A guest opponent's public tag ("Guest 4F2A"); null for an account. */
  opponentTag: string | null;
  /** The sparring bot was the opponent. */
  opponentBot: BotSpec | null;
  /** Ranked only: the player's rating before and after (the profile's rating chart). */
  ratingBefore: number | null;
  ratingAfter: number | null;
  /** The leaver played too few pieces: no rating or win for the winner. */
  noContest: boolean;
  /** Voided by a moderator: its rating change was taken back. */
  voided: boolean;
};

export type HistoryPage = { entries: HistoryEntry[]; nextCursor: string | null };

/**
 * A player's matches, newest first, a page at a time: `after` is the last entry of the page
 * before (its time and match id, lib/validations/versus.ts), so matches stored in the same
 * millisecond are neither skipped nor repeated.
 */
export async function getMatchHistory(options: { userId: string; limit: number; after?: { at: Date; matchId: string } }): Promise<HistoryPage> {
  const db = await getDb();
  const { after } = options;
  const seats = await db.versusSeat.findMany({
    where: {
      userId: options.userId,
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, matchId: { lt: after.matchId } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { matchId: 'desc' }],
    take: options.limit + 1,
    select: {
      seat: true, won: true, gamesWon: true, ratingBefore: true, ratingAfter: true, createdAt: true,
      match: {
        select: {
          id: true, mode: true, ranked: true, noContest: true, voidedAt: true,
          seats: { select: { seat: true, gamesWon: true, guestId: true, botPps: true, botStyle: true, user: { select: { id: true, username: true } } } },
        },
      },
    },
  });
  const entries = seats.slice(0, options.limit).map((s): HistoryEntry => {
    const them = s.match.seats.find((o) => o.seat !== s.seat);
    return {
      matchId: s.match.id,
      mode: s.match.mode,
      ranked: s.match.ranked,
      playedAt: s.createdAt.toISOString(),
      won: s.won,
      score: [s.gamesWon, them?.gamesWon ?? 0],
      opponent: them?.user ?? null,
      opponentTag: them && !them.user && them.guestId ? guestTag(them.guestId) : null,
      opponentBot: them ? storedBot(them) : null,
      ratingBefore: s.ratingBefore,
      ratingAfter: s.ratingAfter,
      noContest: s.match.noContest,
      voided: s.match.voidedAt !== null,
    };
  });
  const last = entries.at(-1);
  return { entries, nextCursor: seats.length > options.limit && last ? historyCursor(new Date(last.playedAt), last.matchId) : null };
}

export type RatingPoint = { matchId: string; at: string; before: number; after: number };

/** The points of a player's rating chart in a mode: their last `limit` ranked matches not voided, oldest first. */
export async function getRatingHistory(options: { userId: string; mode: VersusMode; limit: number }): Promise<RatingPoint[]> {
  const db = await getDb();
  const seats = await db.versusSeat.findMany({
    // A voided match's change was taken back: it is no point of the chart.
    where: { userId: options.userId, ratingBefore: { not: null }, ratingAfter: { not: null }, match: { mode: options.mode, ranked: true, voidedAt: null } },
    orderBy: [{ createdAt: 'desc' }, { matchId: 'desc' }],
    take: options.limit,
    select: { matchId: true, createdAt: true, ratingBefore: true, ratingAfter: true },
  });
  return seats.reverse().map((s) => ({ matchId: s.matchId, at: s.createdAt.toISOString(), before: s.ratingBefore!, after: s.ratingAfter! }));
}
