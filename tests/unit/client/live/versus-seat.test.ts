import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, holeState, pieceSequence, type InputEvent, type PieceType } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import { VersusSeatState } from '@/lib/client/live/versus-seat';

// The browser's seat as the versus page drives it: one tick at a time (step), batches cut as it
// goes (batch), and the server's word on where a game stopped (vgame) or where it stands after a
// dropped connection (vresumed).
const MATCH = 'abcdef012345';
const pieces = (n: number): PieceType[] => {
  const next = pieceSequence('seat-test.0', 2);
  return Array.from({ length: n }, () => next());
};

/** A seat in game 0 of a match, dealt the first `dealt` pieces. */
function seated(dealt = 60): VersusSeatState {
  const seat = new VersusSeatState(0, () => 0);
  const h = DEFAULT_HANDLING;
  seat.receive({
    t: 'match', matchId: MATCH, seat: 0, players: [{ name: 'a', guest: false }, { name: 'b', guest: false }], mode: 'battle', firstTo: 1,
    ranked: false, rulesVersion: 2, handling: [h, h], nextCount: 5, resumeToken: 'x'.repeat(32), resumeWindowMs: 30_000,
  });
  seat.receive({ t: 'vstart', matchId: MATCH, game: 0, pieces: pieces(dealt), holes: holeState('seat-test.0'), startsInMs: 0, score: [0, 0] });
  return seat;
}

/** Hard drop every 20 ticks: a piece locks each time, so the field changes with every drop. */
const drops = (t: number): InputEvent[] => (t % 20 === 5 ? [{ key: 'hardDrop', down: true }] : t % 20 === 6 ? [{ key: 'hardDrop', down: false }] : []);

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
    seat.receive({ t: 'vdeal', matchId: MATCH, game: 0, from: 9, pieces: pieces(11).slice(9) });
    expect(seat.sequence).toHaveLength(7);
    seat.receive({
      t: 'vresumed', matchId: MATCH, game: 0, lastSeq: 0, tick: 0, pieces: pieces(11), holes: holeState('seat-test.0'),
      garbage: [], pending: [], score: [0, 0], playing: true,
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
      t: 'vresumed', matchId: MATCH, game: 0, lastSeq: first.seq, tick: first.tick, pieces: pieces(seat.game!.dealt), holes: holeState('seat-test.0'),
      garbage: [], pending: [], score: [0, 0], playing: true,
    });
    const next = seat.batch()!;
    expect(next.seq).toBe(2);
    expect(next.tick).toBe(120);
    const all = seat.game!.replay().events.filter((e) => e.tick >= first.tick);
    expect(next.events).toHaveLength(all.length);
    expect(next.events[0]![0]).toBeGreaterThanOrEqual(first.tick);
    expect(next.events.length).toBeGreaterThan(lost.events.length);
  });
});
