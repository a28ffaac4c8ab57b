import 'server-only';
import { VERSUS_MODE_NAMES, type VersusMode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { guestTag } from '@/lib/server/games/guest-tag';
import { storedBot, type BotSpec } from '@/lib/bot/spec';
import { countsAsRated, PLACEMENT_MATCHES } from '@/lib/server/versus/rating';

export type StoredSeat = {
  seat: 0 | 1;
  player: { id: string; username: string } | null;
  /** A guest seat's public tag ("Guest 4F2A"), never its guest id; null for an account's seat. */
  guestTag: string | null;
  /** The sparring bot played this seat (no player, no guest). */
  bot: BotSpec | null;
  gamesWon: number;
  won: boolean;
  /** Ranked only: as it stood at the match (deviation grown for time away) and after, with the rated matches played by then. */
  rating: { before: number; after: number; rdBefore: number; rdAfter: number; matchesBefore: number; matchesAfter: number } | null;
};

export type StoredGame = {
  index: number;
  winnerSeat: 0 | 1 | null;
  reason: string;
  endTick: number;
  /** Both seats' versus replays (encodeReplay text), seat 0 first. */
  replays: [string, string];
  /** The engine's hash at the end of each replay's verification: where the viewer must land. */
  hashes: [string, string];
};

export type StoredMatch = {
  id: string;
  mode: VersusMode;
  ranked: boolean;
  firstTo: number;
  winnerSeat: 0 | 1;
  /** games, forfeit or unstorable (a seat's replay could not be stored: it lost, and no game was kept). */
  endReason: string;
  /** The leaver played too few pieces: the winner gained no rating and no weekly win (rating.ts NO_CONTEST). */
  noContest: boolean;
  /** Voided by a moderator: its rating changes and weekly win were taken back (void.ts). */
  voided: { at: string; reason: string } | null;
  playedAt: string;
  seats: [StoredSeat, StoredSeat];
  games: StoredGame[];
};

const seatNo = (n: number): 0 | 1 => (n === 0 ? 0 : 1);

/** A stored match with every game's two replays, for the match viewer; null when there is none. */
export async function getStoredMatch(options: { matchId: string }): Promise<StoredMatch | null> {
  const db = await getDb();
  const m = await db.versusMatch.findUnique({
    where: { id: options.matchId },
    select: {
      id: true, mode: true, ranked: true, firstTo: true, winnerSeat: true, endReason: true, noContest: true, voidedAt: true, voidReason: true, createdAt: true,
      seats: {
        orderBy: { seat: 'asc' },
        select: { seat: true, guestId: true, botPps: true, botStyle: true, gamesWon: true, won: true, ratingBefore: true, ratingAfter: true, rdBefore: true, rdAfter: true, matchesBefore: true, user: { select: { id: true, username: true } } },
      },
      games: { orderBy: { index: 'asc' }, select: { index: true, winnerSeat: true, reason: true, endTick: true, replay0: true, replay1: true, hash0: true, hash1: true } },
    },
  });
  if (!m || !(VERSUS_MODE_NAMES as readonly string[]).includes(m.mode) || m.seats.length !== 2) return null;
  const seats = m.seats.map(
    (s): StoredSeat => ({
      seat: seatNo(s.seat),
      player: s.user,
      guestTag: !s.user && s.guestId ? guestTag(s.guestId) : null,
      bot: storedBot(s),
      gamesWon: s.gamesWon,
      won: s.won,
      rating:
        s.ratingBefore !== null && s.ratingAfter !== null && s.rdBefore !== null && s.rdAfter !== null
          ? {
              before: s.ratingBefore, after: s.ratingAfter, rdBefore: s.rdBefore, rdAfter: s.rdAfter,
              // A seat stored without its count (by an instance that predates it, mid-deploy) reads as
              // placed: its deviation alone then says whether the rating was provisional.
              matchesBefore: s.matchesBefore ?? PLACEMENT_MATCHES,
              matchesAfter: (s.matchesBefore ?? PLACEMENT_MATCHES) + (countsAsRated({ won: s.won, noContest: m.noContest }) ? 1 : 0),
            }
          : null,
    }),
  ) as [StoredSeat, StoredSeat];
  return {
    id: m.id,
    mode: m.mode as VersusMode,
    ranked: m.ranked,
    firstTo: m.firstTo,
    winnerSeat: seatNo(m.winnerSeat),
    endReason: m.endReason,
    noContest: m.noContest,
    voided: m.voidedAt ? { at: m.voidedAt.toISOString(), reason: m.voidReason ?? '' } : null,
    playedAt: m.createdAt.toISOString(),
    seats,
    games: m.games.map((g) => ({
      index: g.index,
      winnerSeat: g.winnerSeat === null ? null : seatNo(g.winnerSeat),
      reason: g.reason,
      endTick: g.endTick,
      replays: [g.replay0, g.replay1],
      hashes: [g.hash0, g.hash1],
    })),
  };
}
