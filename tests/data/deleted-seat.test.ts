import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { isForeignKeyViolation, isUniqueViolation } from '@/lib/db/errors';
import { deleteAccount } from '@/lib/server/account/delete';
import { getDb } from '@/lib/server/db';
import { storeRoomMatch } from '@/lib/server/versus/room-store';
import { getStoredRoomSet } from '@/lib/server/versus/room-sets';
import type { RoomMatchRecord } from '@/lib/server/versus/room-verify';
import { storeMatch } from '@/lib/server/versus/store';
import { TEAM_SET } from '@/lib/server/versus/team-ratings';
import { recordOf, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { resetDb } from '@/tests/data/db';
import { player, T0 } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { botRoomSet, fourSeatSet } from '@/tests/support/room-sets';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

// An account deleted while its set is still being played: the set is stored all the same, that
// seat with nobody in it (shown as deleted, as a seat whose account went later is), and everyone
// else's finished games are kept. A seat nobody owns any more cannot be rated: a ranked set or
// match with one is stored unranked.
let roomSet: RoomMatchRecord;
let teamSet: RoomMatchRecord;
let duel: VersusMatchRecord;
beforeAll(() => {
  roomSet = fourSeatSet();
  teamSet = botRoomSet('ranked-gone', TEAM_SET.rules, ['a', 'b', 'c', 'd'].map((seed) => ({ seed, mistakes: 0.1 })));
  const match = new VersusMatch({ mode: 'battle', seed: 'gone-seed', handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: 'seat/a', mistakes: 0.1 }), new VersusBot({ seed: 'seat/b', mistakes: 0.2, pace: 4 })]);
  duel = recordOf(match, 'gone-seed', 'battle');
});
beforeEach(resetDb);

const bot = (pps: number) => ({ userId: null, guestId: null, bot: { pps, style: 'tidy' as const } });

describe('a set stored after a seat’s account was deleted', () => {
  it('keeps a room set, that seat shown as deleted and every game kept', async () => {
    const gone = await player('gone_room');
    const stays = await player('stays_room');
    await deleteAccount({ userId: gone.userId! });
    const seats = [gone, stays, bot(3), bot(5)];
    expect(await storeRoomMatch({ matchId: 'room-gone', record: roomSet, seats, now: T0 })).toMatchObject({ ok: true, repeated: false });
    const set = (await getStoredRoomSet({ matchId: 'room-gone' }))!;
    expect(set.players.map((p) => [p.player?.username ?? null, p.deleted])).toEqual([[null, true], ['stays_room', false], [null, false], [null, false]]);
    expect(set.games).toHaveLength(roomSet.games.length);
  });

  it('keeps a ranked 2v2 set, stored unranked: nobody’s rating moves', async () => {
    const owners = await Promise.all(['t_gone', 't_b', 't_c', 't_d'].map((n) => player(n)));
    await deleteAccount({ userId: owners[0]!.userId! });
    expect(await storeRoomMatch({ matchId: 'team-gone', record: teamSet, seats: owners, ranked: true, now: T0 })).toMatchObject({ ok: true, repeated: false });
    const set = (await getStoredRoomSet({ matchId: 'team-gone' }))!;
    expect(set.ranked).toBe(false);
    expect(set.players.map((p) => p.deleted)).toEqual([true, false, false, false]);
    expect(set.players.every((p) => p.rating === null)).toBe(true);
    const db = await getDb();
    expect(await db.versusRating.count()).toBe(0);
  });

  it.each([false, true])('keeps a 1v1 match (ranked: %s), the other seat’s games and all', async (ranked) => {
    const gone = await player('gone_duel');
    const stays = await player('stays_duel');
    await deleteAccount({ userId: gone.userId! });
    const out = await storeMatch({ matchId: 'duel-gone', record: duel, seats: [gone, stays], ranked, now: T0 });
    expect(out).toMatchObject({ ok: true, repeated: false, ratings: null });
    const db = await getDb();
    const match = await db.versusMatch.findUniqueOrThrow({ where: { id: 'duel-gone' }, select: { ranked: true, seats: { orderBy: { seat: 'asc' }, select: { userId: true, guestId: true } }, _count: { select: { games: true } } } });
    expect(match).toEqual({ ranked: false, seats: [{ userId: null, guestId: null }, { userId: stays.userId, guestId: null }], _count: { games: duel.games.length } });
    expect(await db.versusRating.count()).toBe(0);
  });

  // Should a row a set names go after the check all the same, the store refuses the set (it is
  // logged) instead of retrying a write that can never succeed: each driver's error is known for it.
  it('tells a foreign key refusal, from a model write or a raw one, from any other error', async () => {
    const db = await getDb();
    const model = await db.roomSeat.create({ data: { matchId: 'no-such-set', seat: 0, team: 0, won: false, createdAt: T0 } }).catch((e: unknown) => e);
    const raw = await db.$executeRaw`INSERT INTO "RoomSeat" ("matchId", "seat", "team", "won", "createdAt") VALUES ('no-such-set', 0, 0, false, ${T0})`.catch((e: unknown) => e);
    expect([isForeignKeyViolation(model), isForeignKeyViolation(raw)]).toEqual([true, true]);
    await player('twice');
    const unique = await db.user.create({ data: { username: 'twice', usernameKey: 'twice' } }).catch((e: unknown) => e);
    expect([isUniqueViolation(unique), isForeignKeyViolation(unique), isForeignKeyViolation(new Error('23503'))]).toEqual([true, false, false]);
  });
});
