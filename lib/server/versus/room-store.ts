import 'server-only';
import { ROOM_RULES_VERSION, teamsOf } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import type { RoomMatchRecord, RoomRefusal } from '@/lib/server/versus/room-verify';
import type { SeatOwner } from '@/lib/server/versus/store';
import { verifyOwn } from '@/lib/server/verify-pool';

export type StoreRoomResult =
  | { ok: true; matchId: string; repeated: boolean }
  | { ok: false; code: RoomRefusal | 'seat_without_owner'; message: string };

/**
 * Stores a finished room set once every seat's replay of every game is proven by the referee
 * (verifyRoomMatch, in a verification worker: a 16-seat set is 16 re-simulations a game): the
 * match, each seat (bots marked by their pace and style), every game's replays, in one
 * transaction. `matchId` is the room host's: a retry, or two at once, stores it once. Rooms are
 * never ranked here (free-for-all is unranked by rule; ranked teams are a later part of issue 36).
 */
export async function storeRoomMatch(o: { matchId: string; record: RoomMatchRecord; seats: readonly SeatOwner[]; now?: Date }): Promise<StoreRoomResult> {
  const { matchId, record, seats } = o;
  const now = o.now ?? new Date();
  if (seats.length !== record.seats || seats.some((s) => !s.userId && !s.guestId && !s.bot))
    return { ok: false, code: 'seat_without_owner', message: 'Every seat of the room needs a player, a guest or a bot.' };
  const verdict = await verifyOwn('room', record);
  if (!verdict.ok) return verdict;
  const teams = teamsOf(record.rules, record.seats);
  const db = await getDb();
  const written = await db.$transaction(async (tx) => {
    // The match row first: a concurrent retry waits on the key, then finds it taken.
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "RoomMatch" ("id", "mode", "seed", "rulesVersion", "rules", "seats", "winnerTeam", "ranked", "createdAt")
      VALUES (${matchId}, ${record.mode}, ${record.seed}, ${ROOM_RULES_VERSION}, ${JSON.stringify(record.rules)}, ${record.seats}, ${record.winnerTeam}, false, ${now})
      ON CONFLICT ("id") DO NOTHING RETURNING "id"`;
    if (inserted.length === 0) return false;
    await tx.roomSeat.createMany({
      data: seats.map((s, seat) => ({
        matchId, seat, team: teams[seat]!, userId: s.userId, guestId: s.userId ? null : s.guestId,
        botPps: s.bot?.pps ?? null, botStyle: s.bot?.style ?? null, won: teams[seat] === record.winnerTeam, createdAt: now,
      })),
    });
    await tx.roomGame.createMany({
      data: record.games.map((g, index) => ({ matchId, index, winnerTeam: g.winnerTeam, reason: g.reason, endTick: g.endTick, replays: g.replays, leaves: JSON.stringify(g.leaves) })),
    });
    return true;
  });
  return { ok: true, matchId, repeated: !written };
}
