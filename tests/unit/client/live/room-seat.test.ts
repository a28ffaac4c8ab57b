import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES, pieceSequence, RoomGame, ROOM_RULES_VERSION, type InputEvent, type PieceType, type RoomRules } from '@/lib/engine';
import { SparringBot } from '@/lib/bot/sparring';
import { RESEND_AFTER_MS, RESEND_AT_MOST } from '@/lib/live/protocol';
import { RoomSeatState } from '@/lib/client/live/room-seat';
import { ROOM_WIRE_LIMITS, wireTargetsSchema } from '@/lib/live/rooms';

// The browser's seat in a room: its game is the referee's seat game (same rules, same garbage at
// the same ticks), and its target changes ride in the batch whose ticks hold them, once.
const MATCH = 'abcdef0123456789';
const SEED = 'room-seat-test';
const RULES: RoomRules = { ...DEFAULT_ROOM_RULES, targeting: 'manual', garbageDelay: 12, attackPercent: 200 };
const pieces = (n: number): PieceType[] => {
  const next = pieceSequence(`${SEED}.0`, ROOM_RULES_VERSION);
  return Array.from({ length: n }, () => next());
};
const h = DEFAULT_HANDLING;

function seated(seat: number, rules = RULES): RoomSeatState {
  const s = new RoomSeatState(() => 0);
  const players = [0, 1, 2].map((i) => ({ name: `p${i}`, guest: false }));
  s.enter({ t: 'rmatch', matchId: MATCH, code: 'ABCDEF', mode: 'battle', seat, players, handling: [h, h, h], rules: { ...rules }, rulesVersion: ROOM_RULES_VERSION, resumeToken: 'x'.repeat(32) }, seat, rules);
  s.receive({ t: 'rbegin', matchId: MATCH, game: 0, pieces: pieces(400), startsInMs: 0, score: [] });
  return s;
}

/** Hard drops every 10 ticks: the other seats' stacks, and now and then a clear that attacks. */
const drops = (t: number): InputEvent[] => (t % 10 === 3 ? [{ key: 'hardDrop', down: true }] : t % 10 === 4 ? [{ key: 'hardDrop', down: false }] : []);

describe('RoomSeatState', () => {
  it('plays its room rules: garbage the referee routes lands as in the referee\'s own seat game', () => {
    const ref = new RoomGame({ mode: 'battle', seed: `${SEED}.0`, rules: RULES, handling: [h, h, h] });
    const seat = seated(1);
    let got = 0;
    // Seat 1 is this page, idle; the referee's other seats are bots that attack (attackPercent 200).
    const bots = [new SparringBot({ pps: 5, style: 'attacker' }), new SparringBot({ pps: 5, style: 'attacker' })];
    for (let t = 0; t < 3000; t++) {
      const ticks = [ref.play(0, bots[0]!.inputs(ref.game(0))), ref.play(2, bots[1]!.inputs(ref.game(2))), ref.play(1, [])].flat();
      for (const tick of ticks)
        for (const a of tick.attacks) if (a.to === 1 && ++got) seat.receive({ t: 'rgarbage', matchId: MATCH, game: 0, from: a.from, size: a.size, column: a.column, tick: a.tick + 1 });
      seat.step([]);
      if (ref.outcome) break;
    }
    expect(got).toBeGreaterThan(0);
    const mine = seat.game!.snapshot();
    const theirs = ref.game(1).snapshot();
    expect(mine.tick).toBe(theirs.tick);
    expect(mine.board).toEqual(theirs.board);
    expect(mine.garbageQueued).toBe(theirs.garbageQueued);
  });

  it('sends a target change once, in the batch whose ticks hold it', () => {
    const seat = seated(0);
    for (let t = 0; t < 10; t++) seat.step([]);
    seat.aim(2);
    const first = seat.batch()!;
    expect(first.targets).toBeUndefined(); // aimed at tick 10, not yet played
    seat.step([]);
    const second = seat.batch()!;
    expect(second.targets).toEqual([[10, 2]]);
    seat.step([]);
    expect(seat.batch()!.targets).toBeUndefined();
  });

  it('sends again, after a resume, the target changes of batches the server never saw: the next batch starts at its tick and carries them', () => {
    const seat = seated(0);
    for (let t = 0; t < 10; t++) seat.step([]);
    expect(seat.batch()).toMatchObject({ seq: 1, tick: 10 });
    seat.answer({ t: 'ack', stream: MATCH, game: 0, seq: 1, tick: 10 });
    seat.aim(2);
    for (let t = 0; t < 5; t++) seat.step([]);
    expect(seat.batch()).toMatchObject({ seq: 2, targets: [[10, 2]] }); // lost with the socket
    seat.aim(1);
    for (let t = 0; t < 5; t++) seat.step([]);
    seat.receive({ t: 'rresumed', matchId: MATCH, game: 0, lastSeq: 1, tick: 10, pieces: pieces(seat.game!.dealt), garbage: [], playing: true });
    expect(seat.batches()).toEqual([expect.objectContaining({ seq: 2, tick: 20, targets: [[10, 2], [15, 1]] })]);
  });

  it('cuts a batch at ROOM_WIRE_LIMITS.targetsPerBatch target changes: many made while the link was down go in several, every one in order', () => {
    const seat = seated(0);
    const aimed: Array<[number, number]> = [];
    for (let t = 0; t < 40; t++) {
      const to = t % 2 === 0 ? 2 : 1;
      seat.aim(to);
      aimed.push([t, to]);
      seat.step([]);
    }
    const out = seat.batches();
    expect(out.length).toBeGreaterThan(2);
    expect(out.every((b) => (b.targets?.length ?? 0) <= ROOM_WIRE_LIMITS.targetsPerBatch)).toBe(true);
    expect(out.flatMap((b) => b.targets ?? [])).toEqual(aimed);
    expect(out.at(-1)!.tick).toBe(40);
    for (const b of out) expect(wireTargetsSchema.safeParse(b.targets ?? []).success).toBe(true);
  });

  it('keeps its target changes in tick order when a replay took the game back: the newest aim holds from its tick on', () => {
    // Few pieces, no input: pieces fall and lock by gravity until the next is not dealt yet.
    const seat = new RoomSeatState(() => 0);
    const players = [0, 1, 2].map((i) => ({ name: `p${i}`, guest: false }));
    seat.enter({ t: 'rmatch', matchId: MATCH, code: 'ABCDEF', mode: 'battle', seat: 0, players, handling: [h, h, h], rules: { ...RULES }, rulesVersion: ROOM_RULES_VERSION, resumeToken: 'x'.repeat(32) }, 0, RULES);
    seat.receive({ t: 'rbegin', matchId: MATCH, game: 0, pieces: pieces(RULES.preview + 3), startsInMs: 0, score: [] });
    for (let t = 0; t < 5_000 && seat.game!.ready; t++) {
      if (t % 40 === 0) seat.aim(t % 80 === 0 ? 2 : 1);
      seat.step([]);
    }
    const before = seat.game!.tickNo;
    // Garbage at a tick already played raises the floor: played again, the pieces lock sooner and run out sooner.
    seat.receive({ t: 'rgarbage', matchId: MATCH, game: 0, from: 1, size: 8, column: 0, tick: 2 });
    expect(seat.game!.tickNo).toBeLessThan(before - 40 * (ROOM_WIRE_LIMITS.targetsPerBatch + 1));
    const back = seat.game!.tickNo;
    seat.aim(2);
    seat.answer({ t: 'deal', stream: MATCH, game: 0, from: seat.sequence.length, pieces: pieces(seat.sequence.length + 12).slice(seat.sequence.length) });
    for (let t = 0; t < 100; t++) seat.step([]);
    const out = seat.batches();
    const ticks = out.flatMap((b) => b.targets ?? []).map(([t]) => t);
    expect(ticks).toEqual([...ticks].sort((x, y) => x - y));
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(out.every((b, i) => b.tick > (i === 0 ? 0 : out[i - 1]!.tick) && (b.targets?.length ?? 0) <= ROOM_WIRE_LIMITS.targetsPerBatch)).toBe(true);
    expect(out.flatMap((b) => b.targets ?? []).filter(([t]) => t >= back)).toEqual([[back, 2]]);
  });

  it('keeps what the server has not acknowledged to send again: RESEND_AFTER_MS after a refusal, RESEND_AT_MOST at once, none of a game it is out of', () => {
    const seat = seated(0);
    const sent = Array.from({ length: RESEND_AT_MOST + 10 }, () => (seat.step([]), seat.batch()!));
    seat.answer({ t: 'ack', stream: MATCH, game: 0, seq: 5, tick: 5 });
    expect(seat.resends(0)).toEqual([]); // nothing refused
    expect(seat.refused(0)).toBe(true);
    expect(seat.refused(500)).toBe(true); // the same wait
    expect(seat.resends(RESEND_AFTER_MS - 1)).toEqual([]);
    expect(seat.resends(RESEND_AFTER_MS)).toEqual(sent.slice(5, 5 + RESEND_AT_MOST));
    expect(seat.resends(10 * RESEND_AFTER_MS)).toEqual([]); // once
    // Put out of the game: its batches go nowhere, and nothing is kept for them.
    seat.receive({ t: 'rko', matchId: MATCH, game: 0, seat: 0, tick: 30, why: 'topOut' });
    seat.batch();
    expect(seat.refused(0)).toBe(false);
  });

  it('stops where the server decided the game, and when it put this seat out', () => {
    const seat = seated(0);
    for (let t = 0; t < 50; t++) seat.step(drops(t));
    seat.receive({ t: 'rgame', matchId: MATCH, game: 0, winner: 1, reason: 'time', tick: 39, placements: [0, 2, 1], score: [[1, 1]] });
    expect(seat.game!.tickNo).toBe(40);
    expect(seat.step(drops(40))).toEqual([]);
    const other = seated(0);
    other.receive({ t: 'rko', matchId: MATCH, game: 0, seat: 0, tick: 0, why: 'lag' });
    expect(other.out).toBe(true);
    other.step([]);
    expect(other.game!.tickNo).toBe(0);
  });
});
