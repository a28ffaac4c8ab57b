import { describe, expect, it } from 'vitest';
import { decodeReplay, DEFAULT_ROOM_RULES, encodeReplay, MAX_GARBAGE_SIZE, RoomMatch, type InputEvent, type Key } from '@/lib/engine';
import { KeyStream, seedKey } from '@/lib/engine/keystream';
import { HANDLING } from '@/tests/engine/helpers';
import { MAX_AHEAD_TICKS, RoomInputError, STREAM_TARGETS } from '@/lib/engine/referee';
import { drive, iIntoWell, room, taps, wait, well, wells, type Script } from '@/tests/engine/room-support';

// The N-seat referee on ASCII boards: each seat starts on a well of X rows with I pieces first, so
// every Tetris is one attack of known size, and the test reads where the referee sent it.
const tetrises = (n: number, gap = 0): Script => Array.from({ length: n }, () => [...iIntoWell(), ...wait(gap)]).flat();
const targets = (attacks: { from: number; to: number }[], from: number) => attacks.filter((a) => a.from === from).map((a) => a.to);

describe('targeting', () => {
  it('even: rotates through the living opponents in seat order', () => {
    const g = room(4, { targeting: 'even' }, wells(4));
    const { attacks } = drive(g, [tetrises(3)], 120);
    expect(targets(attacks, 0)).toEqual([1, 2, 3]);
  });

  it('even: skips a seat that is out', () => {
    const g = room(4, { targeting: 'even' }, wells(4));
    g.leave(2);
    const { attacks } = drive(g, [tetrises(3)], 120);
    expect(targets(attacks, 0)).toEqual([1, 3, 1]);
  });

  it('random: each attack draws one word of the match seed\'s target stream, among the opponents', () => {
    const g = room(4, { targeting: 'random' }, wells(4));
    const { attacks } = drive(g, [tetrises(3)], 120);
    const draws = new KeyStream(seedKey('room'), STREAM_TARGETS);
    const expected = [0, 1, 2].map(() => [1, 2, 3][draws.next() % 3]);
    expect(targets(attacks, 0)).toEqual(expected);
  });

  it('KOs: the opponent closest to topping out (stack plus queued rows), lowest seat on a tie', () => {
    const start = wells(4);
    start[2] = { board: ['X.XXXXXXXX', ...well(14)], queue: ['I'] };
    start[3] = { board: well(14), queue: ['I'] };
    const g = room(4, { targeting: 'kos' }, start);
    const { attacks } = drive(g, [tetrises(1)], 40);
    expect(targets(attacks, 0)).toEqual([2]);
  });

  it('attackers: back at whoever aims at the sender; nobody: as even', () => {
    const g = room(4, { targeting: 'attackers' }, wells(4));
    // Seat 3 attacks first (nobody aims at it: as even, seat 0); seat 0's first Tetris cancels
    // it, its second answers seat 3, not seat 1.
    const { attacks } = drive(g, [[...wait(40), ...tetrises(2)], [], [], tetrises(1)], 160);
    expect(attacks.map((a) => [a.from, a.to])).toEqual([[3, 0], [0, 3]]);
  });

  it('manual: the chosen seat, the next one after it once it is out; the change is in the replay', () => {
    const g = room(4, { targeting: 'manual' }, wells(4));
    for (let s = 1; s < 4; s++) g.play(s, []);
    g.play(0, [], 2);
    const { attacks } = drive(g, [[[], ...tetrises(1)]], 40);
    expect(targets(attacks, 0)).toEqual([2]);
    g.leave(2);
    const later = drive(g, [tetrises(1)], 40);
    expect(targets(later.attacks, 0)).toEqual([3]);
    expect(g.replay(0).room!.targets).toEqual([{ tick: 0, target: 2 }]);
  });

  it('refuses a target change that is not manual, at itself, at a teammate or at no seat', () => {
    expect(() => room(4, { targeting: 'even' }).play(0, [], 1)).toThrow(RoomInputError);
    const teams = room(4, { targeting: 'manual', teams: [0, 0, 1, 1] });
    expect(() => teams.play(0, [], 0)).toThrow(/cannot aim/);
    expect(() => teams.play(0, [], 1)).toThrow(/teammate/);
    expect(() => teams.play(0, [], 4)).toThrow(RoomInputError);
    expect(teams.replay(0).room!.targets).toEqual([]);
  });
});

describe('teams', () => {
  it.each(['even', 'random', 'kos', 'attackers', 'manual'] as const)('%s: a teammate never receives an attack', (targeting) => {
    const g = room(4, { targeting, teams: [0, 1, 0, 1] }, wells(4));
    const { attacks } = drive(g, [tetrises(3), tetrises(3, 3), tetrises(3, 7), tetrises(3, 11)], 200);
    expect(attacks.length).toBeGreaterThanOrEqual(3);
    for (const a of attacks) expect(a.from % 2).not.toBe(a.to % 2);
  });

  it('a team is out when all its players are: the other team wins', () => {
    const g = room(4, { teams: [0, 0, 1, 1] });
    g.leave(2);
    expect(g.outcome).toBeNull();
    g.leave(3);
    expect(g.outcome).toEqual({ winner: 0, reason: 'lastStanding', tick: 0 });
  });

  it('free-for-all to the last one standing, and the order seats went out', () => {
    const g = room(3);
    g.play(0, []);
    g.play(1, []);
    g.play(2, []);
    g.leave(1);
    g.play(0, []);
    g.play(2, []);
    g.leave(0);
    expect(g.outcome).toEqual({ winner: 2, reason: 'lastStanding', tick: 2 });
    expect(g.placements()).toEqual([1, 0, 2]);
  });
});

describe('cancelling and garbage', () => {
  it('an attack cancels the sender\'s own queued garbage first; only the rest is sent', () => {
    const g = room(2, {}, wells(2));
    // Seat 0's Tetris (4) lands in seat 1's queue; seat 1's two Tetrises (4, then 5 back to back)
    // first cancel it: the first sends nothing, the second all 5.
    const { attacks } = drive(g, [tetrises(1), [...wait(20), ...tetrises(2)]], 120);
    expect(attacks.map((a) => [a.from, a.to, a.size])).toEqual([[0, 1, 4], [1, 0, 5]]);
  });

  it('zero passthrough: two attacks crossing in the same tick cancel each other', () => {
    const g = room(2, {}, wells(2));
    const { attacks } = drive(g, [tetrises(1), tetrises(1)], 40);
    expect(attacks).toEqual([]);
    expect([g.game(0).garbageQueued, g.game(1).garbageQueued]).toEqual([0, 0]);
  });

  it('the cap per placement: a lock that clears nothing raises at most garbageCap rows', () => {
    const g = room(2, { garbageCap: 2, garbageDelay: 0 }, wells(2));
    drive(g, [tetrises(1), [...wait(20), [{ key: 'hardDrop', down: true }]]], 40);
    const b = g.game(1).snapshot();
    expect(b.garbageQueued).toBe(2);
    expect(b.board.slice(-3)).toEqual(['XXXXXXXXX.', ...Array(2).fill(b.board.at(-1))]);
  });

  it('messiness: 0 keeps a message\'s hole, 100 moves it every row', () => {
    const holes = (messiness: number) => {
      const g = room(2, { messiness, garbageDelay: 0 }, [{ board: well(4), queue: ['I'] }, { board: [], queue: ['O'] }]);
      drive(g, [tetrises(1), [...wait(20), [{ key: 'hardDrop', down: true }]]], 40);
      return g.game(1).snapshot().board.slice(-4).map((row) => row.indexOf('.'));
    };
    const tidy = holes(0);
    expect(new Set(tidy).size).toBe(1);
    const messy = holes(100);
    for (let i = 1; i < 4; i++) expect(messy[i]).not.toBe(messy[i - 1]);
  });

  it('attackPercent scales an attack, rounded down', () => {
    const g = room(2, { attackPercent: 50 }, wells(2));
    expect(drive(g, [tetrises(1)], 40).attacks.map((a) => a.size)).toEqual([2]);
  });
});

describe('one stream racing ahead', () => {
  it('is held until the others catch up, and refused past MAX_AHEAD_TICKS', () => {
    const g = room(3);
    for (let t = 0; t < MAX_AHEAD_TICKS; t++) expect(g.play(0, [])).toEqual([]);
    expect(() => g.play(0, [])).toThrow(/ticks ahead/);
    expect([g.tick, g.waiting(0)]).toEqual([0, MAX_AHEAD_TICKS]);
    g.play(1, []);
    expect(g.play(2, [])).toHaveLength(1);
    expect([g.tick, g.waiting(0)]).toEqual([1, MAX_AHEAD_TICKS - 1]);
  });
});

describe('time limit and sets', () => {
  it('at the time limit the team that sent the most wins; nobody ahead is a draw', () => {
    const g = room(3, { timeLimitTicks: 40 }, wells(3));
    drive(g, [tetrises(1)], 60);
    expect(g.outcome).toEqual({ winner: 0, reason: 'time', tick: 39 });
    const even = room(2, { timeLimitTicks: 10 });
    drive(even, [], 20);
    expect(even.outcome).toEqual({ winner: null, reason: 'time', tick: 9 });
  });

  it('a set goes to the team that first wins firstTo games; a draw is replayed with the next seed', () => {
    const match = new RoomMatch({ mode: 'battle', seed: 'set', rules: { ...DEFAULT_ROOM_RULES, teams: [0, 1, 0, 1], firstTo: 2, timeLimitTicks: 5 }, handling: Array(4).fill(HANDLING) });
    const finish = (leavers: number[]) => {
      for (const s of leavers) match.current.leave(s);
      drive(match.current, [], 10);
      return match.advance();
    };
    expect(finish([1, 3])).toBe(true);
    expect(finish([])).toBe(true); // time, nobody sent: a draw
    expect(finish([0, 2])).toBe(true);
    expect(finish([3, 1])).toBe(false);
    expect([match.winner, [...match.score], match.games.length]).toEqual([0, [[0, 2], [1, 1]], 4]);
  });
});

describe('a tick that sends more than one message may hold', () => {
  // Two Tetrises locked on one tick (the second a back-to-back perfect clear) at attackPercent 400:
  // 4×4 + (4 + 1 + 10)×4 = 76 rows from one seat in one tick, past MAX_GARBAGE_SIZE (64). The
  // referee sums a tick's locks per sender, so it must deliver the rows in messages a replay can
  // hold, or the room stops and its finished game cannot be stored.
  const press = (key: Key): InputEvent[] => [{ key, down: true }, { key, down: false }];
  const oneTick: InputEvent[] = [...press('hardDrop'), ...press('rotateCW'), ...['right', 'right', 'right', 'right'].flatMap((k) => press(k as Key)), ...press('hardDrop')];
  const script: Script = [...taps('rotateCW', 'right', 'right', 'right', 'right'), oneTick];

  it('splits it into messages of at most MAX_GARBAGE_SIZE rows, all to the target, and the replays encode', () => {
    const g = room(2, { attackPercent: 400 }, [{ board: well(8), queue: ['I', 'I', 'I'] }, undefined]);
    const { attacks } = drive(g, [script], 40);
    expect(attacks.reduce((n, a) => n + a.size, 0)).toBe(76);
    expect(attacks.every((a) => a.from === 0 && a.to === 1 && a.size <= MAX_GARBAGE_SIZE)).toBe(true);
    const received = g.replay(1);
    expect(received.garbage!.reduce((n, e) => n + e.size, 0)).toBe(76);
    expect(decodeReplay(encodeReplay(received))).toEqual(received);
  });
});
