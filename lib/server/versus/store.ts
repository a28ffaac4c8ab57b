import 'server-only';
import { decodeReplay, isVersusMode, ReplayDecodeError, type AnyMode } from '@/lib/engine';
import { Prisma } from '@/lib/generated/prisma/client';
import { isoWeek } from '@/lib/periods/weeks';
import { isForeignKeyViolation } from '@/lib/db/errors';
import { getDb } from '@/lib/server/db';
import type { Owner } from '@/lib/server/games/owner';
import type { BotSpec } from '@/lib/bot/spec';
import { afterStore } from '@/lib/server/integrity/record';
import { bandEdges, shownBand } from '@/lib/server/versus/bands';
import { raisePeakBand, recordSeasonMatch } from '@/lib/server/versus/season-standings';
import { rollOverSeasons, SEASON_CLOSE_TIMEOUT_MS, seasonOfMatch } from '@/lib/server/versus/seasons';
import { countsAsRated, isNoContest, NEW_PLAYER_RATING, rateMatch, ratingAt, storedRating, type Rating } from '@/lib/server/versus/rating';
import { type VersusMatchRecord, type VersusRefusal } from '@/lib/server/versus/verify';
import { seatsStillOwned } from '@/lib/server/versus/seat-owners';
import { verifyOwn } from '@/lib/server/verify-pool';
import type { BandId } from '@/lib/versus/bands';
import { seasonAt } from '@/lib/versus/seasons';

/**
 * A seat's rating as it stood at the match (grown for time away) and after it, its rated matches
 * before and after, and its band before and after against the mode's edges as they stand (null
 * while provisional; `bands` null when the edges could not be read).
 */
export type SeatRatings = { before: Rating; after: Rating; matches: { before: number; after: number }; bands: { before: BandId | null; after: BandId | null } | null };
export type StoreMatchResult =
  | { ok: true; matchId: string; repeated: boolean; ratings: [SeatRatings, SeatRatings] | null; noContest: boolean }
  | { ok: false; code: VersusRefusal | 'ranked_needs_accounts' | 'seat_without_owner' | 'owner_gone'; message: string };

/** How a stored set ended: the record's own end, or `unstorable` (a seat's replay could not be stored; it lost). */
export type StoredEndReason = VersusMatchRecord['endReason'] | 'unstorable';

type Tx = Prisma.TransactionClient;
type RatingRow = Rating & { userId: string; matches: number; ratedAt: Date; season: number };
type Seat = 0 | 1;
const other = (s: Seat): Seat => (s === 0 ? 1 : 0);

/** What is written: the result, who left (if anyone) and how many pieces they played, and the games kept. */
type Outcome = {
  winnerSeat: Seat;
  endReason: StoredEndReason;
  rulesVersion: number;
  gamesWon: [number, number];
  /** The seat that forfeited, or whose replay could not be stored; null when the games decided. */
  leaver: Seat | null;
  /** Pieces the leaver played in the set's verified games (0 when none could be verified). */
  leaverPieces: number | null;
  games: Array<{ index: number; winnerSeat: number | null; reason: string; endTick: number; replays: [string, string]; hashes: [string, string] }>;
};

/**
 * Stores a finished match once it is proven (verify.ts): the match, both seats, every game's two
 * replays, and for a ranked match both ratings and the winner's weekly wins, in one transaction
 * (nothing is stored unless all of it is). The match host calls it with the seats' owners as its
 * sessions established them; `matchId` is the host's id for the match, so a retry after a lost
 * answer stores nothing twice.
 *
 * A store that cannot be written never means nobody lost: when one seat's own replay cannot be
 * stored (not encodable or decodable: over the replay limits), that seat forfeits, the match is
 * stored without its games (`unstorable`), and its loss is rated. A match whose leaver played
 * fewer than NO_CONTEST.minLeaverPieces is no contest for the winner (rating.ts). Nor does an
 * account deleted during the match void it: its seat is stored empty (seat-owners.ts) and the
 * other seat is rated against it all the same (rateSeats).
 */
/**
 * What the ranked queue knew of a seat's player when it queued them: their rating then (a seat
 * whose account is deleted before the store is rated against at it) and whether they themselves
 * queued their pair (ranked 2v2: then they share a no-contest leaving partner's loss).
 */
export type QueuedSeat = { rating: Rating; party: boolean };

/** Who played a seat: an account, a guest, or (`bot`, with no owner) the sparring bot; `queued` for a ranked seat the queue placed. */
export type SeatOwner = Owner & { bot?: BotSpec; queued?: QueuedSeat };

export async function storeMatch(options: {
  matchId: string;
  record: VersusMatchRecord;
  seats: [SeatOwner, SeatOwner];
  ranked: boolean;
  now?: Date;
}): Promise<StoreMatchResult> {
  const { record, ranked, matchId } = options;
  const asked = options.seats;
  const now = options.now ?? new Date();
  if (asked.some((s) => !s.userId && !s.guestId && !s.bot)) return { ok: false, code: 'seat_without_owner', message: 'Every seat needs a player, a guest or the bot.' };
  if (ranked && (!asked[0].userId || !asked[1].userId || asked[0].userId === asked[1].userId))
    return { ok: false, code: 'ranked_needs_accounts', message: 'A ranked match needs two different signed-in players.' };
  const outcome = await outcomeOf(record);
  if (!outcome.ok) return outcome;
  const o = outcome.outcome;
  const noContest = isNoContest(o.leaverPieces);
  const db = await getDb();
  const week = isoWeek(now);
  // A season that just ended is closed in a transaction of its own first, with the time a close of
  // every rating needs: inside the match's own (a few seconds at most) a large close would fail the
  // store. The match's transaction then finds it closed, or (a failure here) closes it itself.
  const closed = ranked
    ? await rollOverSeasons({ now }).then(
        () => true,
        (error: unknown) => (console.error('[versus] closing the ended season before a match failed:', error), false),
      )
    : true;
  // With the close still to do (it failed just now), the match's transaction does it, in the close's time.
  const written = await db.$transaction(async (tx) => {
    const owned = await seatsStillOwned(tx, asked);
    const seats: [SeatOwner, SeatOwner] = [owned[0]!, owned[1]!];
    // A deleted seat voids nothing: the other is rated against it as it queued (rateSeats).
    // The match row first: a concurrent retry of the same match waits here on the key, then
    // finds it taken and stores nothing.
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "VersusMatch" ("id", "mode", "ranked", "firstTo", "seed", "rulesVersion", "winnerSeat", "endReason", "noContest", "week", "createdAt")
      VALUES (${matchId}, ${record.mode}, ${ranked}, ${record.firstTo}, ${record.seed}, ${o.rulesVersion}, ${o.winnerSeat},
              ${o.endReason}, ${noContest}, ${week}, ${now})
      ON CONFLICT ("id") DO NOTHING RETURNING "id"`;
    if (inserted.length === 0) return null;
    const rating = ranked ? await rateSeats(tx, { mode: record.mode, seats, winnerSeat: o.winnerSeat, noContest, now }) : null;
    const rated = rating?.seats ?? null;
    // A deleted seat's rating is nobody's: its columns stay empty.
    const seatRating = (s: Seat) => (seats[s].userId ? rated?.[s] : undefined);
    await tx.versusSeat.createMany({
      data: ([0, 1] as const).map((s) => ({
        matchId,
        seat: s,
        userId: seats[s].userId,
        guestId: seats[s].userId ? null : seats[s].guestId,
        botPps: seats[s].bot?.pps ?? null,
        botStyle: seats[s].bot?.style ?? null,
        gamesWon: o.gamesWon[s],
        won: s === o.winnerSeat,
        ratingBefore: seatRating(s)?.before.rating ?? null,
        rdBefore: seatRating(s)?.before.rd ?? null,
        ratingAfter: seatRating(s)?.after.rating ?? null,
        rdAfter: seatRating(s)?.after.rd ?? null,
        matchesBefore: seatRating(s)?.matches.before ?? null,
        createdAt: now,
      })),
    });
    await tx.versusGame.createMany({
      data: o.games.map((g) => ({
        matchId, index: g.index, winnerSeat: g.winnerSeat, reason: g.reason, endTick: g.endTick,
        replay0: g.replays[0], replay1: g.replays[1], hash0: g.hashes[0], hash1: g.hashes[1],
      })),
    });
    const winner = seats[o.winnerSeat].userId;
    if (rated && !noContest && winner) {
      await tx.$executeRaw`
        INSERT INTO "VersusWeeklyWins" ("userId", "mode", "week", "wins", "lastWinAt")
        VALUES (${winner}, ${record.mode}, ${week}, 1, ${now})
        ON CONFLICT ("userId", "mode", "week") DO UPDATE SET "wins" = "VersusWeeklyWins"."wins" + 1, "lastWinAt" = ${now}`;
    }
    return { rated, season: rating?.season ?? 0, seats };
  }, closed ? undefined : { timeout: SEASON_CLOSE_TIMEOUT_MS }).catch((error: unknown) => {
    // A row the match names went after all: a retry would be refused the same way, forever.
    if (isForeignKeyViolation(error)) return 'owner_gone' as const;
    throw error;
  });
  if (written === 'owner_gone') return { ok: false, code: written, message: 'A seat of the match names an account that is gone.' };
  if (!written) return { ok: true, matchId, repeated: true, ratings: null, noContest };
  const { seats } = written;
  afterStore({ kind: 'versus', matchId, mode: record.mode, playedAt: now, users: [seats[0].userId, seats[1].userId], games: o.games });
  const ratings = written.rated && (await withBands(record.mode, written.rated, options.now));
  if (ratings) await raisePeakBands({ mode: record.mode, season: written.season, users: [seats[0].userId, seats[1].userId], ratings });
  return { ok: true, matchId, repeated: false, ratings, noContest };
}

/**
 * Each rated seat's band after the match, as it is shown, raises its season's peak. The match is
 * stored whatever happens here: a peak that cannot be written is logged and missed.
 */
async function raisePeakBands(o: { mode: string; season: number; users: [string | null, string | null]; ratings: [SeatRatings, SeatRatings] }): Promise<void> {
  try {
    for (const s of [0, 1] as const) {
      const band = o.ratings[s].bands?.after;
      const userId = o.users[s];
      if (band && userId && o.ratings[s].matches.after > o.ratings[s].matches.before) await raisePeakBand({ userId, mode: o.mode, season: o.season, band });
    }
  } catch (error) {
    console.error('[versus] a season peak could not be written', error);
  }
}

/**
 * Each seat's band before and after, against the edges as they stand (read after the commit, from
 * the cache as a rule). The match is stored whatever happens here: edges that cannot be read leave
 * the bands out.
 */
async function withBands(mode: AnyMode, rated: [SeatRatings, SeatRatings], now: Date | undefined): Promise<[SeatRatings, SeatRatings]> {
  const edges = isVersusMode(mode) ? await bandEdges({ mode, now }).catch(() => null) : null;
  if (!edges) return rated;
  const bands = (r: SeatRatings) => ({
    before: shownBand({ ...r.before, matches: r.matches.before }, edges),
    after: shownBand({ ...r.after, matches: r.matches.after }, edges),
  });
  return [{ ...rated[0], bands: bands(rated[0]) }, { ...rated[1], bands: bands(rated[1]) }];
}

/**
 * What the record proves: its games, when verification accepts them; otherwise, when one seat's
 * own replay cannot be read (the first game with such a replay names it), that seat's forfeit
 * with no game kept. Any other refusal (a forged garbage message, an outcome or score that does
 * not follow) stores nothing.
 */
async function outcomeOf(record: VersusMatchRecord): Promise<{ ok: true; outcome: Outcome } | Extract<StoreMatchResult, { ok: false }>> {
  // In a worker: every game of the set is re-simulated, seconds of ticks each.
  const verdict = await verifyOwn('match', record);
  if (verdict.ok) {
    const leaver = record.endReason === 'forfeit' ? other(record.winnerSeat) : null;
    return {
      ok: true,
      outcome: {
        winnerSeat: record.winnerSeat, endReason: record.endReason, rulesVersion: verdict.games[0]!.rulesVersion, gamesWon: verdict.score, leaver,
        leaverPieces: leaver === null ? null : verdict.games.reduce((n, g) => n + g.results[leaver].pieces, 0),
        games: record.games.map((g, i) => ({
          index: i, winnerSeat: g.winnerSeat, reason: g.reason, endTick: g.endTick, replays: g.replays,
          hashes: [verdict.games[i]!.results[0].hash, verdict.games[i]!.results[1].hash],
        })),
      },
    };
  }
  const faulty = unreadableSeat(record);
  if (faulty === null) return verdict;
  const won = (s: Seat) => record.games.filter((g) => g.winnerSeat === s).length;
  return {
    ok: true,
    outcome: {
      winnerSeat: other(faulty.seat), endReason: 'unstorable', rulesVersion: faulty.rulesVersion, gamesWon: [won(0), won(1)],
      leaver: faulty.seat, leaverPieces: 0, games: [],
    },
  };
}

/**
 * The one seat whose replay of the earliest game with an unreadable replay cannot be decoded (too
 * large, or not a replay at all: recordOf leaves a replay it could not encode empty), with the
 * rules version the other seat's replay names; null when no replay is unreadable, or both seats'
 * are (nobody to hold to it).
 */
function unreadableSeat(record: VersusMatchRecord): { seat: Seat; rulesVersion: number } | null {
  for (const game of record.games) {
    const read = game.replays.map((text) => {
      try {
        return decodeReplay(text);
      } catch (error) {
        if (error instanceof ReplayDecodeError) return null;
        throw error;
      }
    });
    const [r0, r1] = read;
    if (r0 && r1) continue;
    if (!r0 && !r1) return null;
    return r0 ? { seat: 1, rulesVersion: r0.rulesVersion } : { seat: 0, rulesVersion: r1!.rulesVersion };
  }
  return null;
}

/**
 * Reads both ratings under a row lock (creating new players' rows first), so two matches of the
 * same player finishing at once update the rating one after the other, and writes the new ones.
 * Each starts from the rating as it stands now, its deviation grown for the days since the last
 * rated match (`ratingAt`, as every read shows it); that is the seat's "before". A rated match
 * restarts the idle clock. In a no-contest match only the leaver's loss is rated: the winner's
 * row (rating, match count, wins and idle clock) stays as it was. A seat whose account was
 * deleted before the store counts at the rating it queued with (`queued`; a new player's if
 * unknown) and is written nothing, so deleting an account never cancels the other seat's result.
 */
async function rateSeats(tx: Tx, o: { mode: string; seats: [SeatOwner, SeatOwner]; winnerSeat: Seat; noContest: boolean; now: Date }): Promise<{ seats: [SeatRatings, SeatRatings]; season: number }> {
  const { mode, winnerSeat, now } = o;
  const users = [o.seats[0].userId, o.seats[1].userId] as const;
  const present = users.filter((u): u is string => !!u);
  const fresh = NEW_PLAYER_RATING;
  // A season that has ended is closed before anyone is rated in the next (seasons.ts): nobody
  // starts the new season from an unreset rating, whether or not the cleanup got there first.
  await rollOverSeasons({ now, tx });
  for (const userId of present) {
    await tx.$executeRaw`
      INSERT INTO "VersusRating" ("userId", "mode", "rating", "rd", "vol", "matches", "wins", "updatedAt", "ratedAt", "season")
      VALUES (${userId}, ${mode}, ${fresh.rating}, ${fresh.rd}, ${fresh.vol}, 0, 0, ${now}, ${now}, ${seasonAt(now).number})
      ON CONFLICT ("userId", "mode") DO NOTHING`;
  }
  // Locked in id order, so two transactions never wait on each other's second row.
  const rows = present.length === 0 ? [] : await tx.$queryRaw<RatingRow[]>`
    SELECT "userId", "rating", "rd", "vol", "matches", "ratedAt", "season" FROM "VersusRating"
    WHERE "mode" = ${mode} AND "userId" IN (${Prisma.join(present)})
    ORDER BY "userId" FOR UPDATE`;
  const row = (s: Seat) => rows.find((r) => r.userId === users[s]);
  const asNow = (s: Seat): Rating => {
    const r = row(s);
    return storedRating(r ? ratingAt({ rating: r.rating, rd: r.rd, vol: r.vol }, r.ratedAt, now) : (o.seats[s].queued?.rating ?? fresh));
  };
  const before: [Rating, Rating] = [asNow(0), asNow(1)];
  const loserSeat = other(winnerSeat);
  const rated = rateMatch(before[winnerSeat], before[loserSeat]);
  const after: [Rating, Rating] = [before[0], before[1]];
  after[loserSeat] = storedRating(rated.loser);
  if (!o.noContest) after[winnerSeat] = storedRating(rated.winner);
  const counts = (s: Seat) => !!users[s] && countsAsRated({ won: s === winnerSeat, noContest: o.noContest });
  // Both rows share a season once rolled over; a row an older instance created may lag (its default).
  const season = seasonOfMatch(Math.max(0, ...rows.map((r) => r.season)), now);
  for (const s of [0, 1] as const) {
    const userId = users[s];
    if (!userId || !counts(s)) continue;
    await tx.versusRating.update({
      where: { userId_mode: { userId, mode } },
      data: { ...after[s], matches: { increment: 1 }, wins: { increment: s === winnerSeat ? 1 : 0 }, updatedAt: now, ratedAt: now, season },
    });
    await recordSeasonMatch(tx, { userId, mode, season, after: after[s], won: s === winnerSeat });
  }
  const matches = (s: Seat) => ({ before: row(s)?.matches ?? 0, after: (row(s)?.matches ?? 0) + (counts(s) ? 1 : 0) });
  return {
    season,
    seats: [
      { before: before[0], after: counts(0) ? after[0] : before[0], matches: matches(0), bands: null },
      { before: before[1], after: counts(1) ? after[1] : before[1], matches: matches(1), bands: null },
    ],
  };
}
