import 'server-only';
import { ROOM_RULES_VERSION, teamsOf } from '@/lib/engine';
import { isForeignKeyViolation } from '@/lib/db/errors';
import { getDb } from '@/lib/server/db';
import type { RoomMatchRecord, RoomRefusal } from '@/lib/server/versus/room-verify';
import type { SeatOwner } from '@/lib/server/versus/store';
import { seatsStillOwned } from '@/lib/server/versus/seat-owners';
import { verifyOwn } from '@/lib/server/verify-pool';
import { rateTeamSet, TEAM_SET, teamNoContest, type SeatRating } from '@/lib/server/versus/team-ratings';

export type StoreRoomResult =
  | { ok: true; matchId: string; repeated: boolean }
  | { ok: false; code: RoomRefusal | 'seat_without_owner' | 'not_rankable' | 'owner_gone'; message: string };

/**
 * Stores a finished room set once every seat's replay of every game is proven by the referee
 * (verifyRoomMatch, in a verification worker: a 16-seat set is 16 re-simulations a game): the
 * match, each seat (bots marked by their pace and style), every game's replays, in one
 * transaction. `matchId` is the room host's: a retry, or two at once, stores it once. Only a set
 * the ranked 2v2 queue started is `ranked` (free-for-all and custom rooms never are): its four
 * players' 2v2 ratings move in the same transaction (team-ratings.ts), so a retry rates nobody twice;
 * a set whose first game lost a seat before it played NO_CONTEST.minLeaverPieces is no contest.
 * A seat whose account was deleted meanwhile is stored empty (seat-owners.ts), and a ranked set
 * with one is rated all the same (rateTeamSet): the others' results are never lost to that account.
 */
export async function storeRoomMatch(o: { matchId: string; record: RoomMatchRecord; seats: readonly SeatOwner[]; ranked?: boolean; now?: Date }): Promise<StoreRoomResult> {
  const { matchId, record, seats } = o;
  const ranked = o.ranked === true;
  const now = o.now ?? new Date();
  if (seats.length !== record.seats || seats.some((s) => !s.userId && !s.guestId && !s.bot))
    return { ok: false, code: 'seat_without_owner', message: 'Every seat of the room needs a player, a guest or a bot.' };
  if (ranked && !rankable(record, seats))
    return { ok: false, code: 'not_rankable', message: 'A ranked set is four different signed-in players, two against two, under the ranked rules.' };
  const verdict = await verifyOwn('room', record);
  if (!verdict.ok) return verdict;
  const teams = teamsOf(record.rules, record.seats);
  const db = await getDb();
  const written = await db.$transaction(async (tx) => {
    const owned = await seatsStillOwned(tx, seats);
    // A deleted seat voids nothing: the others are rated against it as it queued (rateTeamSet).
    // The match row first: a concurrent retry waits on the key, then finds it taken.
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "RoomMatch" ("id", "mode", "seed", "rulesVersion", "rules", "seats", "winnerTeam", "ranked", "createdAt")
      VALUES (${matchId}, ${record.mode}, ${record.seed}, ${ROOM_RULES_VERSION}, ${JSON.stringify(record.rules)}, ${record.seats}, ${record.winnerTeam}, ${ranked}, ${now})
      ON CONFLICT ("id") DO NOTHING RETURNING "id"`;
    if (inserted.length === 0) return false;
    const rated: (SeatRating | null)[] = ranked
      ? await rateTeamSet(tx, { seats: owned, teams, winnerTeam: record.winnerTeam, now, ...teamNoContest(record, verdict.firstPieces) })
      : seats.map(() => null);
    await tx.roomSeat.createMany({
      data: owned.map((s, seat) => ({
        matchId, seat, team: teams[seat]!, userId: s.userId, guestId: s.userId ? null : s.guestId,
        botPps: s.bot?.pps ?? null, botStyle: s.bot?.style ?? null, won: teams[seat] === record.winnerTeam, createdAt: now,
        ratingBefore: rated[seat]?.before.rating ?? null, rdBefore: rated[seat]?.before.rd ?? null,
        ratingAfter: rated[seat]?.after.rating ?? null, rdAfter: rated[seat]?.after.rd ?? null,
      })),
    });
    await tx.roomGame.createMany({
      data: record.games.map((g, index) => ({ matchId, index, winnerTeam: g.winnerTeam, reason: g.reason, endTick: g.endTick, replays: g.replays, leaves: JSON.stringify(g.leaves) })),
    });
    return true;
  }).catch((error: unknown) => {
    // A row the set names went after all: a retry would be refused the same way, forever.
    if (isForeignKeyViolation(error)) return 'owner_gone' as const;
    throw error;
  });
  if (written === 'owner_gone') return { ok: false, code: written, message: 'A seat of the set names an account that is gone.' };
  return { ok: true, matchId, repeated: !written };
}

/** A ranked set: four distinct accounts (no guest, no bot), the ranked 2v2 set's mode and rules exactly. */
function rankable(record: RoomMatchRecord, seats: readonly SeatOwner[]): boolean {
  const users = seats.map((s) => (s.bot ? null : s.userId));
  if (users.length !== 4 || users.some((u) => !u) || new Set(users).size !== 4) return false;
  const keys = Object.keys(TEAM_SET.rules) as (keyof RoomMatchRecord['rules'])[];
  const same = keys.length === Object.keys(record.rules).length && keys.every((k) => JSON.stringify(record.rules[k]) === JSON.stringify(TEAM_SET.rules[k]));
  return record.mode === TEAM_SET.mode && same;
}
