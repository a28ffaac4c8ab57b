import { describe, expect, it } from 'vitest';
import { decodeReplay, DEFAULT_ROOM_RULES, encodeReplay, RoomMatch, type Replay, type RoomRules } from '@/lib/engine';
import { roomRecordOf, verifyRoomMatch, type RoomMatchRecord } from '@/lib/server/versus/room-verify';
import { HANDLING } from '@/tests/engine/helpers';
import { drive, playRoom } from '@/tests/engine/room-support';

// A room set played by bots to its end, stored as the host would, then forged one way at a time.
function played(seats: number, rules: Partial<RoomRules>): RoomMatchRecord {
  const match = new RoomMatch({ mode: 'battle', seed: 'verify', rules: { ...DEFAULT_ROOM_RULES, firstTo: 1, ...rules }, handling: Array.from({ length: seats }, () => HANDLING) });
  for (let n = 0; n < 5 && match.winner === null; n++) {
    playRoom(match.current, Array.from({ length: seats }, (_, s) => ({ seed: `v${n}/${s}`, mistakes: 0.1 + 0.1 * s })), 20_000);
    match.advance();
  }
  return roomRecordOf(match, 'verify', 'battle');
}

const edit = (record: RoomMatchRecord, seat: number, change: (r: Replay) => Replay): RoomMatchRecord => {
  const games = record.games.map((g, i) => (i !== record.games.length - 1 ? g : { ...g, replays: g.replays.map((t, s) => (s === seat ? encodeReplay(change(decodeReplay(t))) : t)) }));
  return { ...record, games };
};

describe('verifyRoomMatch', () => {
  const ffa = played(4, { targeting: 'even', messiness: 20 });
  const manual = played(4, { targeting: 'manual', teams: [0, 1, 0, 1] });

  it('proves a 4-seat free-for-all and a 2v2 with manual targets, as played', () => {
    expect(verifyRoomMatch(ffa)).toMatchObject({ ok: true });
    expect(verifyRoomMatch(manual)).toMatchObject({ ok: true });
    const last = decodeReplay(manual.games.at(-1)!.replays[0]!);
    expect(last.room!.targets.length).toBeGreaterThan(0);
  });

  it('refuses a replay whose rules differ from the room\'s', () => {
    expect(verifyRoomMatch({ ...ffa, rules: { ...ffa.rules, garbageCap: 4 } })).toMatchObject({ ok: false, code: 'rules_mismatch' });
    const looser = edit(ffa, 2, (r) => ({ ...r, room: { ...r.room!, rules: { ...r.room!.rules, attackPercent: 200 } } }));
    expect(verifyRoomMatch(looser)).toMatchObject({ ok: false, code: 'rules_mismatch' });
  });

  it('refuses a forged seat: a replay moved to another seat, or claiming one', () => {
    const g = ffa.games.at(-1)!;
    const swapped = { ...ffa, games: [...ffa.games.slice(0, -1), { ...g, replays: [g.replays[1]!, g.replays[0]!, ...g.replays.slice(2)] }] };
    expect(verifyRoomMatch(swapped)).toMatchObject({ ok: false, code: 'seat_mismatch' });
    const renamed = edit(ffa, 1, (r) => ({ ...r, room: { ...r.room!, seat: 3 } }));
    expect(verifyRoomMatch(renamed)).toMatchObject({ ok: false, code: 'seat_mismatch' });
  });

  it('refuses a forged target change: at a teammate, or one that moves the garbage', () => {
    const teammate = edit(manual, 0, (r) => ({ ...r, room: { ...r.room!, targets: [{ tick: 0, target: 2 }, ...r.room!.targets.slice(1)] } }));
    expect(verifyRoomMatch(teammate)).toMatchObject({ ok: false, code: 'target_forged' });
    const elsewhere = edit(manual, 0, (r) => ({ ...r, room: { ...r.room!, targets: r.room!.targets.map((t) => ({ ...t, target: t.target === 1 ? 3 : 1 })) } }));
    expect(verifyRoomMatch(elsewhere)).toMatchObject({ ok: false });
  });

  it('refuses garbage the referee never routed, and a claimed winner that did not win', () => {
    const extra = edit(ffa, 0, (r) => ({ ...r, garbage: [...r.garbage!, { tick: r.garbage!.at(-1)?.tick ?? 5, size: 1 }] }));
    expect(verifyRoomMatch(extra)).toMatchObject({ ok: false, code: 'garbage_mismatch' });
    const g = ffa.games.at(-1)!;
    const other = (g.winnerTeam! + 1) % 4;
    expect(verifyRoomMatch({ ...ffa, winnerTeam: other, games: [...ffa.games.slice(0, -1), { ...g, winnerTeam: other }] })).toMatchObject({ ok: false });
  });
});

describe('verifyRoomMatch: the leaves a host records', () => {
  const ffa = played(3, { targeting: 'even' });
  const withLeaves = (leaves: { seat: number; tick: number }[]): RoomMatchRecord => {
    const g = ffa.games.at(-1)!;
    return { ...ffa, games: [...ffa.games.slice(0, -1), { ...g, leaves: [...g.leaves, ...leaves] }] };
  };

  it('proves a game a seat left, as the host recorded it', () => {
    const match = new RoomMatch({ mode: 'battle', seed: 'verify', rules: { ...DEFAULT_ROOM_RULES, firstTo: 1 }, handling: [HANDLING, HANDLING, HANDLING] });
    drive(match.current, [], 30);
    match.current.leave(2);
    playRoom(match.current, [0, 1].map((s) => ({ seed: `l/${s}`, mistakes: 0.1 + 0.2 * s })), 20_000);
    match.advance();
    const record = roomRecordOf(match, 'verify', 'battle');
    expect(record.games[0]!.leaves).toEqual([{ seat: 2, tick: 30 }]);
    expect(verifyRoomMatch(record)).toMatchObject({ ok: true });
  });

  it('refuses a leave of no seat, a seat leaving twice, a leave after the end and more leaves than seats', () => {
    const end = ffa.games.at(-1)!.endTick;
    // Each is played tick by tick against every leave: an unbounded list made verification run long.
    expect(verifyRoomMatch(withLeaves(Array.from({ length: 10_000 }, () => ({ seat: 0, tick: end + 1 }))))).toMatchObject({ ok: false, code: 'invalid_match' });
    expect(verifyRoomMatch(withLeaves([{ seat: 0, tick: end + 1 }]))).toMatchObject({ ok: false, code: 'invalid_match' });
    expect(verifyRoomMatch(withLeaves([{ seat: 5, tick: 0 }]))).toMatchObject({ ok: false, code: 'invalid_match' });
    expect(verifyRoomMatch(withLeaves([{ seat: 1.5, tick: 0 }]))).toMatchObject({ ok: false, code: 'invalid_match' });
    expect(verifyRoomMatch(withLeaves([{ seat: 2, tick: end }, { seat: 2, tick: end }]))).toMatchObject({ ok: false, code: 'invalid_match' });
  });
});
