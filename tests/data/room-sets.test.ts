import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeReplay } from '@/lib/engine';
import { RoomPlayer } from '@/lib/client/room-player';
import { deleteAccount } from '@/lib/server/account/delete';
import { storeRoomMatch } from '@/lib/server/versus/room-store';
import { getRoomSetHistory, getStoredRoomSet } from '@/lib/server/versus/room-sets';
import type { RoomMatchRecord } from '@/lib/server/versus/room-verify';
import { roomSetSchema } from '@/lib/validations/room-sets';
import { resetDb } from '@/tests/data/db';
import { player } from '@/tests/data/play';
import { fourSeatSet } from '@/tests/support/room-sets';

const GUEST = 'guest-cookie-0123456789abcdef';
let record: RoomMatchRecord;

beforeAll(() => {
  record = fourSeatSet();
});
beforeEach(resetDb);

/** The set stored as a room host stores it: an account, a guest and two bots. */
async function stored(matchId = 'set4', at = new Date('2026-11-20T12:00:00Z')) {
  const alice = await player(`alice_${matchId}`);
  const seats = [alice, { userId: null, guestId: GUEST }, { userId: null, guestId: null, bot: { pps: 3, style: 'tidy' as const } }, { userId: null, guestId: null, bot: { pps: 5, style: 'attacker' as const } }];
  expect(await storeRoomMatch({ matchId, record, seats, now: at })).toMatchObject({ ok: true, repeated: false });
  return { alice };
}

describe('a stored room set, as its viewer and API read it', () => {
  it('carries every seat by its public name, the rules, and every game with its replays, winner, reason and leaves', async () => {
    const { alice } = await stored();
    const set = (await getStoredRoomSet({ matchId: 'set4' }))!;
    expect(roomSetSchema.parse(JSON.parse(JSON.stringify(set)))).toEqual(set);
    expect(set).toMatchObject({ id: 'set4', mode: 'battle', rulesVersion: 7, seats: 4, ranked: false, winnerTeam: record.winnerTeam, rules: record.rules, playedAt: '2026-11-20T12:00:00.000Z' });
    expect(set.players.map((p) => [p.seat, p.team, p.player?.username ?? null, p.bot, p.deleted, p.won])).toEqual([
      [0, 0, 'alice_set4', null, false, record.winnerTeam === 0],
      [1, 1, null, null, false, record.winnerTeam === 1],
      [2, 2, null, { pps: 3, style: 'tidy' }, false, record.winnerTeam === 2],
      [3, 3, null, { pps: 5, style: 'attacker' }, false, record.winnerTeam === 3],
    ]);
    expect(set.players[1]!.guestTag).toMatch(/^[0-9A-F]{4}$/);
    // Nothing private: no guest id, no account id.
    const text = JSON.stringify(set);
    expect(text).not.toContain(GUEST);
    expect(text).not.toContain(alice.userId!);
    expect(set.games.map((g) => [g.index, g.winnerTeam, g.reason, g.endTick, g.replays, g.leaves])).toEqual(
      record.games.map((g, i) => [i, g.winnerTeam, g.reason, g.endTick, g.replays, g.leaves]),
    );
  });

  it('plays every stored game again through the referee, from the payload alone, to its stored end and winner', async () => {
    await stored();
    const set = (await getStoredRoomSet({ matchId: 'set4' }))!;
    for (const g of set.games) {
      const replays = g.replays.map((r) => decodeReplay(r));
      const p = new RoomPlayer({ mode: set.mode, seed: replays[0]!.seed, rules: set.rules, replays, leaves: g.leaves, endTick: g.endTick });
      expect(p.outcome).toEqual({ winner: g.winnerTeam, reason: g.reason, tick: g.endTick });
      expect(p.attacks.length).toBeGreaterThan(0);
    }
  });

  it('is null for an id nobody stored; a deleted account’s seat reads as deleted and the set stays', async () => {
    expect(await getStoredRoomSet({ matchId: 'nope' })).toBeNull();
    const { alice } = await stored();
    await deleteAccount({ userId: alice.userId! });
    const set = (await getStoredRoomSet({ matchId: 'set4' }))!;
    expect(set.players[0]).toMatchObject({ seat: 0, player: null, guestTag: null, bot: null, deleted: true });
    expect(set.players.slice(1).every((p) => !p.deleted)).toBe(true);
    expect(set.games).toHaveLength(record.games.length);
  });

  it('lists a player’s sets newest first, a page at a time', async () => {
    const { alice } = await stored('older', new Date('2026-11-20T12:00:00Z'));
    const seats = [alice, { userId: null, guestId: GUEST }, { userId: null, guestId: null, bot: { pps: 1, style: 'tidy' as const } }, { userId: null, guestId: null, bot: { pps: 2, style: 'tidy' as const } }];
    expect(await storeRoomMatch({ matchId: 'newer', record, seats, now: new Date('2026-11-21T12:00:00Z') })).toMatchObject({ ok: true });
    const first = await getRoomSetHistory({ userId: alice.userId!, limit: 1 });
    expect(first.entries.map((e) => [e.matchId, e.seats, e.teams, e.won])).toEqual([['newer', 4, 4, record.winnerTeam === 0]]);
    expect(first.nextCursor).not.toBeNull();
    const [at, ...rest] = first.nextCursor!.split('-');
    const second = await getRoomSetHistory({ userId: alice.userId!, limit: 1, after: { at: new Date(Number(at)), matchId: rest.join('-') } });
    expect(second.entries.map((e) => e.matchId)).toEqual(['older']);
    expect(second.nextCursor).toBeNull();
    const other = await player('bob');
    expect((await getRoomSetHistory({ userId: other.userId!, limit: 5 })).entries).toEqual([]);
  });
});
