import { describe, expect, it } from 'vitest';
import { createGame, DEFAULT_HANDLING, KEYS, pieceSequence, type InputEvent, type PieceType } from '@/lib/engine';
import { clientMessageSchema, MAX_BATCH_EVENTS, type ServerMessage } from '@/lib/live/protocol';
import { VersusSeatState } from '@/lib/client/live/versus-seat';
import { playHashCore } from '@/lib/engine/hash';

// The browser's seat as the versus page drives it: one tick at a time (step), batches cut as it
// goes (batch), and the server's word on where a game stopped (vgame) or where it stands after a
// dropped connection (vresumed).
const MATCH = 'abcdef012345';
const pieces = (n: number): PieceType[] => {
  const next = pieceSequence('seat-test.0', 6);
  return Array.from({ length: n }, () => next());
};

/** A seat in game 0 of a match, dealt the first `dealt` pieces. */
function seated(dealt = 60): VersusSeatState {
  const seat = new VersusSeatState(() => 0);
  const h = DEFAULT_HANDLING;
  seat.receive({
    t: 'match', matchId: MATCH, seat: 0, players: [{ name: 'a', guest: false }, { name: 'b', guest: false }], mode: 'battle', firstTo: 1,
    ranked: false, rulesVersion: 6, handling: [h, h], nextCount: 5, resumeToken: 'x'.repeat(32), resumeWindowMs: 30_000,
  });
  seat.receive({ t: 'vstart', matchId: MATCH, game: 0, pieces: pieces(dealt), startsInMs: 0, score: [0, 0] });
  return seat;
}

/** Hard drop every 20 ticks: a piece locks each time, so the field changes with every drop. */
const drops = (t: number): InputEvent[] => (t % 20 === 5 ? [{ key: 'hardDrop', down: true }] : t % 20 === 6 ? [{ key: 'hardDrop', down: false }] : []);

/** Hard drop every 45 ticks: a handful of pieces, far from topping out. */
const slow = (t: number): InputEvent[] => (t % 45 === 5 ? [{ key: 'hardDrop', down: true }] : t % 45 === 6 ? [{ key: 'hardDrop', down: false }] : []);

/** Plays to `end`, or until the game waits for pieces or is over. */
function playTo(seat: VersusSeatState, end: number): void {
  while (seat.game!.tickNo < end && seat.game!.ready && !seat.game!.over) seat.step(drops(seat.game!.tickNo));
}

describe('VersusSeatState', () => {
  it('takes the pieces dealt while its socket was down from vresumed, and ignores a deal that skips some', () => {
    const seat = seated(7);
    playTo(seat, 200);
    expect(seat.game!.ready).toBe(false); // waiting for the next deal
    const stalled = seat.game!.tickNo;
    // The deal of pieces 7–8 was lost with the connection; the next one (9–10) does not follow on.
    seat.receive({ t: 'deal', stream: MATCH, game: 0, from: 9, pieces: pieces(11).slice(9) });
    expect(seat.sequence).toHaveLength(7);
    seat.receive({
      t: 'vresumed', matchId: MATCH, game: 0, lastSeq: 0, tick: 0, pieces: pieces(11), garbage: [], score: [0, 0], playing: true,
    });
    expect(seat.sequence).toEqual(pieces(11));
    expect(seat.game!.ready).toBe(true);
    playTo(seat, stalled + 30);
    expect(seat.game!.tickNo).toBe(stalled + 30);
  });

  it('stops the game where the server decided it, and plays no further', () => {
    const seat = seated();
    const reference = seated();
    playTo(seat, 130);
    playTo(reference, 70);
    const ahead = seat.game!.snapshot().pieces;
    expect(ahead).toBeGreaterThan(reference.game!.snapshot().pieces);
    // The opponent topped out when the server had this seat's stream at tick 70.
    seat.receive({ t: 'vgame', matchId: MATCH, game: 0, winner: 0, reason: 'topOut', score: [1, 0], ticks: [70, 200] } as ServerMessage);
    expect(seat.game!.tickNo).toBe(70);
    expect(seat.game!.snapshot().board).toEqual(reference.game!.snapshot().board);
    expect(seat.game!.snapshot().pieces).toBe(reference.game!.snapshot().pieces);
    seat.step(drops(75));
    expect(seat.game!.tickNo).toBe(70);
  });

  it('after a dropped connection, the next batch carries everything from the server tick on', () => {
    const seat = seated();
    playTo(seat, 40);
    const first = seat.batch()!;
    playTo(seat, 90);
    const lost = seat.batch()!; // sent into a connection that dropped
    expect(lost.seq).toBe(2);
    playTo(seat, 120);
    seat.receive({
      t: 'vresumed', matchId: MATCH, game: 0, lastSeq: first.seq, tick: first.tick, pieces: pieces(seat.game!.dealt), garbage: [], score: [0, 0], playing: true,
    });
    const next = seat.batch()!;
    expect(next.seq).toBe(2);
    expect(next.tick).toBe(120);
    const all = seat.game!.replay().events.filter((e) => e.tick >= first.tick);
    expect(next.events).toHaveLength(all.length);
    expect(next.events[0]![0]).toBeGreaterThanOrEqual(first.tick);
    expect(next.events.length).toBeGreaterThan(lost.events.length);
  });

  it('after a dropped connection, sends what the server lacks in batches it takes: at most MAX_BATCH_EVENTS inputs each, in order, none lost', () => {
    const seat = seated();
    playTo(seat, 40);
    const first = seat.batch()!;
    // Four inputs a tick for 100 ticks, played while the link was down.
    const taps: InputEvent[] = (['left', 'right'] as const).flatMap((key) => [{ key, down: true }, { key, down: false }]);
    while (seat.game!.tickNo < 140) seat.step(taps);
    seat.receive({
      t: 'vresumed', matchId: MATCH, game: 0, lastSeq: first.seq, tick: first.tick, pieces: pieces(seat.game!.dealt), garbage: [], score: [0, 0], playing: true,
    });
    const sent = seat.batches();
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const b of sent) expect(clientMessageSchema.safeParse({ t: 'inputs', stream: MATCH, ...b }).success).toBe(true);
    expect(sent.map((b) => b.seq)).toEqual(sent.map((_, i) => first.seq + 1 + i));
    expect(sent.every((b) => b.events.length <= MAX_BATCH_EVENTS)).toBe(true);
    const lacked = seat.game!.replay().events.filter((e) => e.tick >= first.tick);
    expect(sent.flatMap((b) => b.events)).toHaveLength(lacked.length);
    expect(lacked.length).toBeGreaterThan(MAX_BATCH_EVENTS);
    expect(sent.at(-1)!.tick).toBe(140);
  });

  it('rebuilt from vresumed and nothing but its own inputs (the server’s bot on another instance), stands where the seat that played stood', () => {
    const played = seated();
    played.receive({ t: 'garbage', matchId: MATCH, game: 0, id: 0, size: 2, column: 3, tick: 30 });
    playTo(played, 70);
    played.batch();
    playTo(played, 130);
    const last = played.batch()!;
    const resumed = (tick: number): Extract<ServerMessage, { t: 'vresumed' }> => ({
      t: 'vresumed', matchId: MATCH, game: 0, lastSeq: last.seq, tick, pieces: pieces(played.game!.dealt), garbage: [[0, 30, 2, 3]], score: [0, 0], playing: true,
    });
    const again = seated(7);
    again.rebuild(resumed(130), { inputs: played.game!.inputs, startsInMs: 0 });
    expect(again.game!.tickNo).toBe(130);
    expect(again.game!.playHash()).toBe(played.game!.playHash());
    // Both play on alike; the rebuilt seat's next batch follows the last one, from the tick it was rebuilt at.
    playTo(played, 200);
    playTo(again, 200);
    expect(again.game!.playHash()).toBe(played.game!.playHash());
    expect(again.batch()).toEqual(played.batch());
    // Inputs that are not the server's stream to its tick are refused, not played on as another game.
    expect(() => seated().rebuild(resumed(100), { inputs: played.game!.inputs, startsInMs: 0 })).toThrow(/not to tick 100/);
  });

  it('puts garbage in at the server’s tick and column, playing again from the checkpoint when that tick is past', () => {
    // The server's copy of the game (seeded, as the match host holds it) receives two messages at
    // ticks 50 and 95; the browser hears of them late, at ticks 80 and 140, with an ack between.
    const server = createGame({ mode: 'battle', seed: 'seat-test.0', handling: DEFAULT_HANDLING, nextCount: 5, rulesVersion: 6 });
    const seat = seated();
    const messages: Array<{ at: number; m: ServerMessage }> = [];
    let id = 0;
    for (let t = 0; t < 200; t++) {
      if (t === 50 || t === 95) {
        const size = t === 50 ? 3 : 2;
        const column = server.receiveGarbage(size);
        messages.push({ at: t === 50 ? 80 : 140, m: { t: 'garbage', matchId: MATCH, game: 0, id: id++, size, column, tick: t } });
      }
      server.tick(slow(t));
    }
    for (let t = 0; t < 200; t++) {
      for (const x of messages.filter((x) => x.at === t)) seat.receive(x.m);
      if (t === 100) seat.receive({ t: 'ack', stream: MATCH, game: 0, seq: 1, tick: 90 });
      seat.step(slow(t));
    }
    expect(seat.replayed).toBe(2);
    expect([seat.game!.tickNo, seat.game!.over]).toEqual([200, false]);
    expect(seat.game!.playHash()).toBe(playHashOf(server));
    expect(seat.game!.snapshot().board).toEqual(server.snapshot().board);
  });

  it('takes garbage at once when it names the tick about to be played: nothing is played again', () => {
    const server = createGame({ mode: 'battle', seed: 'seat-test.0', handling: DEFAULT_HANDLING, nextCount: 5, rulesVersion: 6 });
    const seat = seated();
    for (let t = 0; t < 120; t++) {
      if (t === 33) {
        const column = server.receiveGarbage(4);
        seat.receive({ t: 'garbage', matchId: MATCH, game: 0, id: 0, size: 4, column, tick: 33 });
      }
      server.tick(drops(t));
      seat.step(drops(t));
    }
    expect(seat.replayed).toBe(0);
    expect(seat.game!.playHash()).toBe(playHashOf(server));
  });

  it('takes a message that names a tick still ahead when that tick comes', () => {
    const server = createGame({ mode: 'battle', seed: 'seat-test.0', handling: DEFAULT_HANDLING, nextCount: 5, rulesVersion: 6 });
    const seat = seated();
    for (let t = 0; t < 150; t++) {
      if (t === 60) {
        const column = server.receiveGarbage(3);
        expect(seat.game!.replay().garbage).toEqual([]);
        // It came at tick 20, naming tick 60: the browser was behind the server's copy (a replay stopped short).
        expect(column).toBe(firstColumn);
      }
      if (t === 20) seat.receive({ t: 'garbage', matchId: MATCH, game: 0, id: 0, size: 3, column: firstColumn, tick: 60 });
      server.tick(slow(t));
      seat.step(slow(t));
    }
    expect(seat.replayed).toBe(0);
    expect(seat.game!.replay().garbage).toEqual([{ tick: 60, size: 3 }]);
    expect(seat.game!.playHash()).toBe(playHashOf(server));
  });

  it('a replay that runs short of pieces keeps the rest of the stream, and plays it at its ticks once dealt', () => {
    // Soft drop held from the start: pieces lock by themselves. Garbage that rises makes them lock
    // sooner, so the replayed game needs more pieces by the same tick than the game it replaces.
    const seat = seated(9);
    const inputs = (t: number): InputEvent[] =>
      t === 0 ? [{ key: 'softDrop', down: true }] : t % 97 === 50 ? [{ key: 'left', down: true }] : t % 97 === 51 ? [{ key: 'left', down: false }] : [];
    while (seat.game!.ready) seat.step(inputs(seat.game!.tickNo));
    const reached = seat.game!.tickNo;
    const sent = seat.batch()!;
    seat.receive({ t: 'garbage', matchId: MATCH, game: 0, id: 0, size: 8, column: firstColumn, tick: 0 });
    expect(seat.replayed).toBe(1);
    expect(seat.game!.tickNo).toBeLessThan(reached); // stopped short, waiting for a piece
    expect(seat.batch()).toBeNull(); // nothing goes out until the game is past what was sent
    seat.receive({ t: 'deal', stream: MATCH, game: 0, from: 9, pieces: pieces(14).slice(9) });
    while (seat.game!.tickNo < reached && seat.game!.ready) seat.step([]);
    expect(seat.game!.tickNo).toBe(reached);
    // The server's copy: the garbage at tick 0, and every input it was sent, at its tick.
    const server = createGame({ mode: 'battle', seed: 'seat-test.0', handling: DEFAULT_HANDLING, nextCount: 5, rulesVersion: 6 });
    server.receiveGarbage(8);
    for (let t = 0; t < reached; t++) server.tick(sent.events.filter(([tick]) => tick === t).map(([, key, down]) => ({ key: KEYS[key]!, down: down === 1 })));
    expect(seat.game!.playHash()).toBe(playHashOf(server));
  });
});

/** Seat 0's first hole column in game 0 of this match, as the server draws it. */
const firstColumn = createGame({ mode: 'battle', seed: 'seat-test.0', handling: DEFAULT_HANDLING, rulesVersion: 6 }).receiveGarbage(1);

/** A seeded game's play hash (what a dealt game at the same point has), through the engine's own function. */
function playHashOf(g: ReturnType<typeof createGame>): string {
  return playHashCore((g as unknown as { core: Parameters<typeof playHashCore>[0] }).core);
}
