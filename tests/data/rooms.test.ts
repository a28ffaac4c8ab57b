import { beforeEach, describe, expect, it } from 'vitest';
import { decodeReplay } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { storeRoomMatch } from '@/lib/server/versus/room-store';
import { roomRecordOf, verifyRoomMatch, type RoomMatchRecord } from '@/lib/server/versus/room-verify';
import type { RoomHost } from '@/lib/server/live/rooms/room-host';
import { resetDb } from '@/tests/data/db';
import { player } from '@/tests/data/play';
import { bot, roomSite, rules } from '@/tests/support/room-site';

beforeEach(resetDb);

/** Turns the room's clock 50 ms at a time until its set is over and stored (or `limitMs` passes). */
async function playOut(host: RoomHost, advance: (ms: number) => void, limitMs = 30 * 60_000) {
  for (let t = 0; t < limitMs && !host.stored; t += 50) advance(50);
  expect(host.stored, 'the set ended').not.toBeNull();
  return host.stored!;
}

/** The set as stored, read back into the record verification takes. */
async function storedRecord(matchId: string): Promise<RoomMatchRecord> {
  const db = await getDb();
  const m = await db.roomMatch.findUniqueOrThrow({ where: { id: matchId }, include: { games: { orderBy: { index: 'asc' } } } });
  return {
    mode: m.mode as 'battle', seed: m.seed, rules: JSON.parse(m.rules), seats: m.seats, winnerTeam: m.winnerTeam,
    games: m.games.map((g) => ({ winnerTeam: g.winnerTeam, reason: g.reason as 'lastStanding', endTick: g.endTick, replays: g.replays, leaves: JSON.parse(g.leaves) })),
  };
}

describe('a room of bots played live, stored and verified', () => {
  it('a set whose store throws (the database away) is stored again, and the lobby’s drain waits for it', async () => {
    let calls = 0;
    const { clock, lobby } = roomSite(async (o) => {
      if (++calls === 1) throw new Error('the database is away');
      return storeRoomMatch(o);
    });
    const host = lobby.playNow({ mode: 'battle', rules: rules({ firstTo: 1 }), seats: [bot({ pps: 5, style: 'attacker' }), bot({ pps: 1, style: 'tidy' })] });
    for (let t = 0; t < 30 * 60_000 && !host.stored; t += 50) clock.advance(50);
    let drained = false;
    void lobby.stored().then(() => (drained = true));
    let result: Awaited<NonNullable<typeof host.stored>> | undefined;
    void host.stored!.then((r) => (result = r));
    // The first try fails; the next comes a second later, on the room's clock.
    for (let i = 0; i < 3_000 && result === undefined; i++) {
      await new Promise((done) => setTimeout(done, 5));
      if (calls >= 1) clock.advance(100);
    }
    expect(calls).toBe(2);
    expect(result).toMatchObject({ ok: true, repeated: false });
    await lobby.stored();
    expect(drained).toBe(true);
    expect(await (await getDb()).roomMatch.count()).toBe(1);
  });

  it('plays a 6-seat free-for-all of bots to the end, stores every seat once, and the stored set re-verifies', async () => {
    const { clock, lobby } = roomSite();
    const seats = [1, 2, 3, 4, 5, 5].map((pps, i) => bot({ pps, style: i % 2 ? 'attacker' : 'tidy' }));
    const host = lobby.playNow({ mode: 'battle', rules: rules({ firstTo: 1, timeLimitTicks: 10 * 60 * 60 }), seats });
    const result = await playOut(host, clock.advance);
    expect(result).toMatchObject({ ok: true, repeated: false });
    const db = await getDb();
    const match = await db.roomMatch.findUniqueOrThrow({ where: { id: host.matchId }, include: { players: { orderBy: { seat: 'asc' } }, games: true } });
    expect(match).toMatchObject({ seats: 6, ranked: false, rulesVersion: 7 });
    expect(match.players.map((p) => [p.botPps, p.botStyle, p.userId, p.guestId])).toEqual(seats.map((s) => [s.bot!.pps, s.bot!.style, null, null]));
    expect(match.players.filter((p) => p.won).map((p) => p.team)).toEqual([match.winnerTeam]);
    expect(match.games[0]!.replays).toHaveLength(6);
    expect(verifyRoomMatch(await storedRecord(host.matchId))).toMatchObject({ ok: true });
    // Stored once: the same set again is a repeat, and nothing more is written.
    expect(await storeRoomMatch({ matchId: host.matchId, record: roomRecordOf(host.match, host.o.seed, 'battle'), seats: seats.map((s) => ({ ...s.owner, bot: s.bot })) })).toMatchObject({ ok: true, repeated: true });
    expect(await db.roomSeat.count()).toBe(6);
    expect(lobby.matches.size).toBe(0);
    expect(lobby.botSeats).toBe(0);
  });

  it('plays a 2v2 of bots: a team wins a game when both of the other team are out (or it sent more by the time limit), and each seat is stored with its team', async () => {
    const { clock, lobby } = roomSite();
    const seats = [bot({ pps: 5, style: 'attacker' }), bot({ pps: 2, style: 'tidy' }), bot({ pps: 3, style: 'attacker' }), bot({ pps: 3, style: 'tidy' })];
    const host = lobby.playNow({ mode: 'battle', rules: rules({ teams: [0, 1, 0, 1], firstTo: 2, timeLimitTicks: 10 * 60 * 60 }), seats });
    expect(await playOut(host, clock.advance)).toMatchObject({ ok: true });
    const db = await getDb();
    const match = await db.roomMatch.findUniqueOrThrow({ where: { id: host.matchId }, include: { players: { orderBy: { seat: 'asc' } }, games: true } });
    expect(match.players.map((p) => p.team)).toEqual([0, 1, 0, 1]);
    expect(match.players.filter((p) => p.won).map((p) => p.seat)).toEqual(match.winnerTeam === 0 ? [0, 2] : [1, 3]);
    expect(host.match.score.get(match.winnerTeam)).toBe(2);
    const limit = host.match.games[0]!.rules.timeLimitTicks;
    for (const g of host.match.games) {
      const o = g.outcome!;
      const seats = (team: number | null) => [0, 1, 2, 3].filter((s) => g.teams[s] === team);
      const winners = seats(o.winner);
      const losers = [0, 1, 2, 3].filter((s) => !winners.includes(s));
      // The seed is random: about one game in 500 of these bots lasts to the time limit, where the
      // team that sent more wins with both teams still in (the referee's unit tests pin that rule).
      switch (o.reason) {
        case 'lastStanding':
          // Both seats of the losing team are out (or everyone, a draw).
          expect(losers.every((s) => g.isOut(s))).toBe(true);
          break;
        case 'time':
          expect(o.tick + 1).toBe(limit);
          if (o.winner !== null) expect(winners.some((s) => !g.isOut(s))).toBe(true);
          break;
        case 'goal':
          throw new Error('a battle has no goal');
        default:
          o.reason satisfies never;
      }
    }
    for (const g of match.games) for (const [s, text] of g.replays.entries()) expect(decodeReplay(text).room!.seat).toBe(s);
  });

  it('refuses a forged set before anything is stored: replays swapped between two seats', async () => {
    const { clock, lobby } = roomSite(async () => ({ ok: true, matchId: 'x', repeated: false }));
    const seats = [bot({ pps: 5, style: 'attacker' }), bot({ pps: 4, style: 'attacker' }), bot({ pps: 3, style: 'tidy' })];
    const host = lobby.playNow({ mode: 'battle', rules: rules({ timeLimitTicks: 10 * 60 * 60 }), seats });
    await playOut(host, clock.advance);
    const record = roomRecordOf(host.match, host.o.seed, 'battle');
    const g = record.games[0]!;
    const forged = { ...record, games: [{ ...g, replays: [g.replays[1]!, g.replays[0]!, g.replays[2]!] }] };
    const owners = seats.map((s) => ({ ...s.owner, bot: s.bot }));
    expect(await storeRoomMatch({ matchId: 'forged', record: forged, seats: owners })).toMatchObject({ ok: false, code: 'seat_mismatch' });
    expect(await storeRoomMatch({ matchId: 'ownerless', record, seats: owners.map((o) => ({ ...o, bot: undefined })) })).toMatchObject({ ok: false, code: 'seat_without_owner' });
    expect(await (await getDb()).roomMatch.count()).toBe(0);
    // A person's seat is stored with its account.
    const alice = await player('alice');
    expect(await storeRoomMatch({ matchId: 'real', record, seats: [alice, owners[1]!, owners[2]!] })).toMatchObject({ ok: true, repeated: false });
    expect((await (await getDb()).roomSeat.findFirstOrThrow({ where: { matchId: 'real', seat: 0 } })).userId).toBe(alice.userId);
  });
});
