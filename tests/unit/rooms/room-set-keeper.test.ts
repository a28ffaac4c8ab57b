import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import type { RedisRoomCheckpoints } from '@/lib/server/live/cluster/room-checkpoints';
import { RoomSetKeeper } from '@/lib/server/live/cluster/room-sets';
import type { LobbyCheckpoint } from '@/lib/server/live/rooms/lobby-checkpoint';
import { RoomLobby, type LobbyEntry } from '@/lib/server/live/rooms/room-lobby';
import { bot, rules, socket } from '@/tests/support/room-site';

/**
 * The keeper's order around a take-up, against a store whose every answer the test hands out
 * (RedisRoomCheckpoints itself is tested on Redis, room-takeup): the last home's rooms are read
 * before this home writes any of its own, a retry reads what Redis did not answer, and a take-up
 * begun before this instance lost the home builds nothing after.
 */
function keeperSite() {
  const waiting: Array<{ what: string; answer: (v: unknown) => void; fail: () => void }> = [];
  const ask = <T>(what: string) => new Promise<T>((resolve, reject) => waiting.push({ what, answer: resolve as (v: unknown) => void, fail: () => reject(new Error(`${what}: no answer`)) }));
  const writes: LobbyEntry[][] = [];
  const saved: string[] = [];
  const store = {
    listed: () => ask<string[]>('listed'),
    read: () => ask('read'),
    lobbies: () => ask<LobbyCheckpoint[]>('lobbies'),
    saveLobbies: async (rooms: LobbyEntry[]) => (writes.push(rooms), true),
    save: async (cp: { matchId: string }) => (saved.push(cp.matchId), true),
    drop: () => {},
    forget: () => {},
    forgetLobbies: () => {},
  };
  const state = { home: true };
  const lobby = new RoomLobby({ timers: { set: () => 0, clear: () => {} } });
  const keeper = new RoomSetKeeper(store as unknown as RedisRoomCheckpoints, lobby, () => state.home);
  /** Answers the oldest question, which must be `what`. */
  const answer = async (what: string, value: unknown) => {
    await expect.poll(() => waiting[0]?.what).toBe(what);
    waiting.shift()!.answer(value);
  };
  const fail = async (what: string) => {
    await expect.poll(() => waiting[0]?.what).toBe(what);
    waiting.shift()!.fail();
  };
  return { keeper, lobby, state, writes, saved, answer, fail, waiting };
}

/** A room in its lobby as the last home wrote it. */
function lastHomes(): LobbyCheckpoint {
  const old = new RoomLobby();
  const a = socket(old, { userId: 'u-alice', guestId: null });
  a.say({ t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [], handling: DEFAULT_HANDLING });
  return old.lobbies()[0]!.read();
}

describe('the room set keeper around a take-up', () => {
  it('writes none of this home’s rooms in their lobby until the last home’s are read, retrying a read Redis did not answer, and writes its sets meanwhile', async () => {
    const { keeper, lobby, writes, saved, answer, fail } = keeperSite();
    // A set playing here (started after this instance became the home, or one rebuilt already).
    const host = lobby.playNow({ mode: 'battle', rules: rules(), seats: [bot({ pps: 1, style: 'tidy' }), bot({ pps: 1, style: 'tidy' })] });
    const done = keeper.takeUp();
    await answer('listed', []);
    await fail('lobbies');
    // Between tries: its sets are written (a home dying now loses no more than a second of them), its lobby rooms are not (they would go over the last home's).
    await expect.poll(async () => (await keeper.write(), saved)).toEqual([host.matchId]);
    expect(writes).toEqual([]);
    await answer('listed', []);
    const room = lastHomes();
    await answer('lobbies', [room]);
    await done;
    expect(lobby.rooms.has(room.code)).toBe(true);
    await keeper.write();
    expect(writes.at(-1)!.map((e) => e.code)).toContain(room.code);
    host.close();
    keeper.close();
  });

  it('builds nothing here once the home was lost during the take-up', async () => {
    const { keeper, lobby, state, answer, waiting } = keeperSite();
    const done = keeper.takeUp();
    await answer('listed', []);
    // Another instance takes the home while this one waits for Redis's answer.
    await expect.poll(() => waiting[0]?.what).toBe('lobbies');
    state.home = false;
    keeper.lost();
    await answer('lobbies', [lastHomes()]);
    await done;
    expect(lobby.rooms.size).toBe(0);
    keeper.close();
  });

  it('a take-up asked for while another is retrying runs whole after it: the last home’s rooms are read', async () => {
    const { keeper, lobby, answer, fail, waiting } = keeperSite();
    const first = keeper.takeUp();
    await answer('listed', []);
    await fail('lobbies');
    // Its retry (a write's interval later) is under way when this instance loses the home and takes it again.
    await expect.poll(() => waiting[0]?.what, { timeout: 3_000 }).toBe('listed');
    keeper.lost();
    const second = keeper.takeUp();
    await answer('listed', []);
    const room = lastHomes();
    await answer('listed', []);
    await answer('lobbies', [room]);
    await Promise.all([first, second]);
    expect(lobby.rooms.has(room.code)).toBe(true);
    keeper.close();
  });
});
