import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { isForeignKeyViolation, isUniqueViolation } from '@/lib/db/errors';
import { deleteAccount } from '@/lib/server/account/delete';
import { getDb } from '@/lib/server/db';
import { storeRoomMatch } from '@/lib/server/versus/room-store';
import { getStoredRoomSet } from '@/lib/server/versus/room-sets';
import type { RoomMatchRecord } from '@/lib/server/versus/room-verify';
import { storeMatch } from '@/lib/server/versus/store';
import { NEW_PLAYER_RATING } from '@/lib/server/versus/rating';
import { rateTeams } from '@/lib/server/versus/team-rating';
import { TEAM_SET } from '@/lib/server/versus/team-ratings';
import { recordOf, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { resetDb } from '@/tests/data/db';
import { player, T0 } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { botRoomSet, fourSeatSet } from '@/tests/support/room-sets';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

// An account deleted while its set is still being played: the set is stored all the same, that
// seat with nobody in it (shown as deleted, as a seat whose account went later is), and everyone
// else's finished games are kept. A ranked set or match is still rated for the seats that have an
// account: the deleted seat counts at the rating it had when it queued (else a new player's).
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

  // Deleting an account must not void a ranked result: an alt in a losing pair, or a loser in
  // 1v1, would cancel the others' result by deleting itself before the store.
  it('rates a ranked 2v2 set all the same: the deleted seat counts at its rating from the queue, and has no rating row', async () => {
    const owners = await Promise.all(['t_a', 't_b', 't_c', 't_d'].map((n) => player(n)));
    const losers = teamSet.winnerTeam === 0 ? [2, 3] : [0, 1];
    const [kept, gone] = losers as [number, number];
    const winners = [0, 1, 2, 3].filter((s) => !losers.includes(s));
    const seats = owners.map((o, s) => (s === gone ? { ...o, queued: { rating: { rating: 1700, rd: 80, vol: 0.06 }, party: false } } : o));
    await deleteAccount({ userId: owners[gone]!.userId! });
    expect(await storeRoomMatch({ matchId: 'team-gone', record: teamSet, seats, ranked: true, now: T0 })).toMatchObject({ ok: true, repeated: false });
    const set = (await getStoredRoomSet({ matchId: 'team-gone' }))!;
    expect(set.ranked).toBe(true);
    expect(set.players.map((p, s) => p.deleted === (s === gone))).toEqual([true, true, true, true]);
    const db = await getDb();
    const rows = await db.versusRating.findMany({ select: { userId: true, rating: true, matches: true } });
    expect(rows.map((r) => r.userId).sort()).toEqual([kept, ...winners].map((s) => owners[s]!.userId!).sort());
    const row = (s: number) => rows.find((r) => r.userId === owners[s]!.userId)!;
    expect(row(kept)).toMatchObject({ matches: 1 });
    // Exactly as if the deleted seat still played at its queued 1700: a newcomer's 1500 in its
    // place would make the losing team weaker, and move everyone by other amounts.
    const rating = (s: number) => (s === gone ? { rating: 1700, rd: 80, vol: 0.06 } : NEW_PLAYER_RATING);
    const after = rateTeams([[rating(0), rating(1)], [rating(2), rating(3)]], teamSet.winnerTeam as 0 | 1).flat();
    for (const s of [kept, ...winners]) expect(row(s).rating).toBeCloseTo(after[s]!.rating, 6);
    const asNewcomer = rateTeams([[NEW_PLAYER_RATING, NEW_PLAYER_RATING], [NEW_PLAYER_RATING, NEW_PLAYER_RATING]], teamSet.winnerTeam as 0 | 1).flat();
    expect(Math.abs(asNewcomer[kept]!.rating - after[kept]!.rating)).toBeGreaterThan(1);
  });

  it('rates a ranked 1v1 match whose loser deleted their account: the winner gains, the loser has no row', async () => {
    const owners = [await player('duel_a'), await player('duel_b')];
    const loser = duel.winnerSeat === 0 ? 1 : 0;
    await deleteAccount({ userId: owners[loser]!.userId! });
    const out = await storeMatch({ matchId: 'duel-gone-ranked', record: duel, seats: [owners[0]!, owners[1]!], ranked: true, now: T0 });
    expect(out).toMatchObject({ ok: true, repeated: false });
    const db = await getDb();
    expect(await db.versusMatch.findUniqueOrThrow({ where: { id: 'duel-gone-ranked' }, select: { ranked: true } })).toEqual({ ranked: true });
    const rows = await db.versusRating.findMany({ select: { userId: true, rating: true, matches: true } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: owners[duel.winnerSeat]!.userId, matches: 1 });
    expect(rows[0]!.rating).toBeGreaterThan(1500);
  });

  it('keeps an unranked 1v1 match, the other seat’s games and all', async () => {
    const gone = await player('gone_duel');
    const stays = await player('stays_duel');
    await deleteAccount({ userId: gone.userId! });
    const out = await storeMatch({ matchId: 'duel-gone', record: duel, seats: [gone, stays], ranked: false, now: T0 });
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
