import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES, ROOM_RULES_VERSION, keyId } from '@/lib/engine';
import { RESEND_AFTER_MS, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';
import { RoomSession } from '@/lib/client/live/room-session';
import { pageSockets } from '@/tests/support/page-sockets';

// The room session in the browser against a socket that plays the server: a set entered from
// rmatch alone (as a queue seats people), taken up again after a drop with its token, targets
// only at opponents, rules the schema refuses said as an error, and a link to a playing room watched.
function session() {
  const { sent, sockets, connect, hear } = pageSockets();
  const s = new RoomSession({ url: 'ws://test/api/live', connect, onView: () => {}, onGame: () => {} });
  return { s, sent, hear, sockets };
}
const tick = () => new Promise((r) => setTimeout(r, 0));
const MATCH = 'abcdef0123456789';
const players = [0, 1, 2].map((i) => ({ name: `p${i}`, guest: false }));
const rmatch = (rules: Record<string, unknown> = { ...DEFAULT_ROOM_RULES, targeting: 'manual', teams: [0, 0, 1] }): ServerMessage => ({
  t: 'rmatch', matchId: MATCH, code: 'ABCDEF', mode: 'battle', seat: 0, players, handling: [DEFAULT_HANDLING, DEFAULT_HANDLING, DEFAULT_HANDLING], rules, rulesVersion: ROOM_RULES_VERSION, resumeToken: 't'.repeat(24),
});

describe('the room session in the browser', () => {
  it('plays a set entered from rmatch alone, aims only at opponents, and takes the seat up again after a drop', async () => {
    const { s, sent, hear, sockets } = session();
    await tick();
    hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
    hear(rmatch());
    hear({ t: 'rbegin', matchId: MATCH, game: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], startsInMs: 0, score: [] });
    expect(s.current.play).toMatchObject({ seat: 0, state: 'countdown', teams: [0, 0, 1] });
    s.aim(1); // a teammate
    expect(s.current.play!.aims[0]).toBe(0);
    s.aim(0); // itself
    expect(s.current.play!.aims[0]).toBe(0);
    s.aim(2);
    expect(s.current.play!.aims[0]).toBe(2);
    s.started();
    s.seat.step([]);
    s.pump(1_000, true);
    expect(sent.at(-1)).toMatchObject({ t: 'inputs', stream: MATCH, game: 0, seq: 1, tick: 1, targets: [[0, 2]] });

    // The connection drops: the next one asks for the seat back with its token.
    sockets.at(-1)!.close();
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
    expect(sent.at(-1)).toEqual({ t: 'resume', of: { kind: 'set', id: MATCH }, token: 't'.repeat(24) });
    s.dispose();
  });

  it('stops playing a seat another tab took up (seat_taken): says so, and asks for it no more after a reconnect', async () => {
    const { s, sent, hear } = session();
    await tick();
    hear({ t: 'welcome', v: 2, player: { name: 'p0', guest: false } });
    hear(rmatch());
    hear({ t: 'rbegin', matchId: MATCH, game: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], startsInMs: 0, score: [] });
    s.started();
    // Another set's is not this seat's.
    hear({ t: 'error', code: 'seat_taken', message: 'elsewhere', gameId: 'ffffffff00000000' });
    expect(s.current.play!.state).not.toBe('over');
    expect(s.current.error).toBeNull();
    hear({ t: 'error', code: 'desync', message: 'An earlier trouble.', gameId: MATCH });
    hear({ t: 'error', code: 'seat_taken', message: 'This game is being played in another tab or window now.', gameId: MATCH });
    expect(s.current.play).toMatchObject({ state: 'over', elsewhere: true });
    // Said once, over the fields: not a red error line above them besides.
    expect(s.current.error).toBeNull();
    hear({ t: 'welcome', v: 2, player: { name: 'p0', guest: false } });
    expect(sent.filter((m) => m.t === 'resume')).toEqual([]);
    s.dispose();
  });

  it('a catch-up (all) replaces the other fields it held: after a resume, none of their garbage or inputs counts twice', async () => {
    const pieces = ['T', 'I', 'O', 'S', 'Z', 'J', 'L'] as const;
    const stats = { score: 0, lines: 0, level: 1, pieces: 1, tick: 60 };
    const frame = (all: boolean): ServerMessage => ({
      t: 'rframes', matchId: MATCH, game: 0, from: 0, pieces: [...pieces], ...(all ? { all: true as const } : {}),
      seats: [{ seat: 1, events: [[50, keyId('hardDrop'), 1], [51, keyId('hardDrop'), 0]], garbage: [[3, 2, 4]], tick: 60, stats, meter: 0, aim: 2, out: false }],
    });
    const fieldOf = async (frames: ServerMessage[]) => {
      const { s, hear } = session();
      await tick();
      hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
      hear(rmatch());
      hear({ t: 'rbegin', matchId: MATCH, game: 0, pieces: [...pieces], startsInMs: 0, score: [] });
      for (const f of frames) hear(f);
      s.fields.finish(60);
      const board = s.fields.snapshot(1)!.board;
      s.dispose();
      return board;
    };
    // Heard before the drop, then again from its start after the resume: as if heard once.
    expect(await fieldOf([frame(false), frame(true)])).toEqual(await fieldOf([frame(true)]));
    expect(await fieldOf([frame(false), frame(true)])).not.toEqual(await fieldOf([frame(false), frame(false)]));
  });

  it('sits down again in its room after a drop while a set’s result is still on screen (the room went back to its lobby meanwhile)', async () => {
    const { s, sent, hear, sockets } = session();
    s.join('ABCDEF', DEFAULT_HANDLING);
    await tick();
    hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
    const lobby = (playing: boolean): ServerMessage => ({
      t: 'rroom', code: 'ABCDEF', mode: 'battle', rules: { ...DEFAULT_ROOM_RULES }, host: 0, you: 0, playing,
      seats: players.map((player) => ({ player, team: 0, ready: false })),
    });
    hear(lobby(false));
    hear(rmatch({ ...DEFAULT_ROOM_RULES }));
    hear({ t: 'rbegin', matchId: MATCH, game: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], startsInMs: 0, score: [] });
    hear({ t: 'rover', matchId: MATCH, winner: 0, score: [[0, 1]], stored: true });
    hear(lobby(false));
    expect(s.current.play?.state).toBe('over');
    sent.length = 0;
    // The server holding the room went (closed 1012): the page dials again and asks for its seat, kept for it there.
    sockets.at(-1)!.close();
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
    expect(sent.filter((m) => m.t !== 'hello')).toEqual([{ t: 'rjoin', code: 'ABCDEF', handling: DEFAULT_HANDLING }]);
    s.dispose();
  });

  it('takes up a seat a queue gave another connection: a resume of the set with its token once connected, then plays it', async () => {
    const { s, sent, hear } = session();
    s.takeUp('ABCDEF', MATCH, 'q'.repeat(24));
    await tick();
    hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
    expect(sent.filter((m) => m.t === 'resume')).toEqual([{ t: 'resume', of: { kind: 'set', id: MATCH }, token: 'q'.repeat(24) }]);
    expect(sent.some((m) => m.t === 'rjoin' || m.t === 'watch')).toBe(false);
    hear({ ...rmatch(), resumeToken: 'q'.repeat(24) } as ServerMessage);
    hear({ t: 'rresumed', matchId: MATCH, game: 0, lastSeq: 0, tick: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], garbage: [], playing: true });
    expect(s.current.play).toMatchObject({ seat: 0, code: 'ABCDEF' });
    s.dispose();
  });

  it('says rules the schema refuses as an error, and watches a linked room that is playing', async () => {
    const { s, sent, hear } = session();
    await tick();
    hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
    hear(rmatch({ ...DEFAULT_ROOM_RULES, garbageDelay: 9_999 }));
    expect(s.current.play).toBeNull();
    expect(s.current.error?.message).toContain('garbageDelay');
    s.join('ABCDEF', DEFAULT_HANDLING);
    hear({ t: 'error', code: 'room_full', message: 'This room is playing; watch it instead.' });
    expect(sent.at(-1)).toEqual({ t: 'watch', of: { kind: 'room', id: 'ABCDEF' } });
    s.dispose();
  });

  it('asks again, a little later, to watch a room a crowd is arriving at (refused for the room’s sake), and not once it left', async () => {
    const { s, sent, hear } = session();
    await tick();
    hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
    vi.useFakeTimers();
    try {
      const watches = () => sent.filter((m) => m.t === 'watch' && m.of.kind === 'room').length;
      s.watch('ABCDEF');
      hear({ t: 'error', code: 'rate_limited', message: 'A crowd.', gameId: 'ABCDEF' });
      expect(s.current.error).toBeNull();
      vi.advanceTimersByTime(4_001);
      expect(watches()).toBe(2);
      hear({ t: 'error', code: 'rate_limited', message: 'A crowd.', gameId: 'ABCDEF' });
      s.leave();
      vi.advanceTimersByTime(4_001);
      expect(watches()).toBe(2);
    } finally {
      vi.useRealTimers();
      s.dispose();
    }
  });

  it('a page watching a set that dials again and is refused for a crowd asks again, and answers the latest refusal', { timeout: 15_000 }, async () => {
    const { s, sent, hear, sockets } = session();
    await tick();
    hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
    s.watch('ABCDEF');
    hear({ ...rmatch(), seat: null, resumeToken: undefined } as ServerMessage);
    expect(s.current.play).toMatchObject({ seat: null });
    const watches = () => sent.filter((m) => m.t === 'watch' && m.of.kind === 'room').length;
    for (let drop = 0; drop < 2; drop++) {
      sockets.at(-1)!.close();
      await new Promise((r) => setTimeout(r, 1_500));
      await tick();
      hear({ t: 'welcome', v: 1, player: { name: 'p0', guest: false } });
      hear({ t: 'error', code: 'rate_limited', message: 'A crowd.', gameId: 'ABCDEF' });
    }
    expect(watches()).toBe(3);
    // The first refusal's timer answers the second: the watch now wanted is asked for once more.
    await new Promise((r) => setTimeout(r, 4_100));
    expect(watches()).toBe(4);
    expect(s.current.error).toBeNull();
    s.dispose();
  });

  it('sends again, as first sent, every batch the server has not acknowledged when it refuses one, once its budget has refilled: none is lost, the seat is never a batch short', () => {
    const sent: ClientMessage[] = [];
    let now = 0;
    const s = new RoomSession({ via: { send: (m) => (sent.push(m), true), link: 'open' }, onView: () => {}, onGame: () => {}, now: () => now });
    s.hear(rmatch());
    s.hear({ t: 'rbegin', matchId: MATCH, game: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], startsInMs: 0, score: [] });
    s.started();
    const play = (at: number) => {
      now = at;
      s.seat.step([]);
      s.pump(at, true);
    };
    const batch = (seq: number) => ({ t: 'inputs', stream: MATCH, game: 0, seq, tick: seq, events: [] });
    play(1_000);
    s.aim(2);
    play(2_000);
    play(3_000);
    const [b1, b2, b3] = sent;
    expect(b1).toMatchObject({ seq: 1 });
    expect(b2).toMatchObject({ seq: 2, targets: [[1, 2]] });
    s.hear({ t: 'ack', stream: MATCH, game: 0, seq: 1, tick: 1 });
    // Batch 2 came before the room's clock had started; 3 then came out of order.
    s.hear({ t: 'error', code: 'ahead_of_clock', message: 'The game has not started.', gameId: MATCH, seq: 2 });
    s.hear({ t: 'error', code: 'out_of_order', message: 'Batch 3 arrived, 2 was expected.', gameId: MATCH, seq: 3 });
    expect(s.current.error).toBeNull();
    play(3_000 + RESEND_AFTER_MS - 1);
    expect(sent.slice(3)).toEqual([batch(4)]);
    play(3_000 + RESEND_AFTER_MS);
    expect(sent.slice(4)).toEqual([b2, b3, batch(4), batch(5)]);
    // Once all is acknowledged, a refusal is not about this seat's play: it is said.
    s.hear({ t: 'ack', stream: MATCH, game: 0, seq: 5, tick: 5 });
    s.hear({ t: 'error', code: 'rate_limited', message: 'At most 40 messages a second.' });
    expect(s.current.error).toMatchObject({ code: 'rate_limited' });
  });

  it('rides a page\'s connection: a set entered from rmatch sends its batches through it', () => {
    const sent: ClientMessage[] = [];
    const s = new RoomSession({ via: { send: (m) => (sent.push(m), true), link: 'open' }, onView: () => {}, onGame: () => {} });
    s.hear(rmatch());
    s.hear({ t: 'rbegin', matchId: MATCH, game: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], startsInMs: 0, score: [] });
    s.started();
    s.seat.step([]);
    s.pump(1_000, true);
    expect(sent).toEqual([{ t: 'inputs', stream: MATCH, game: 0, seq: 1, tick: 1, events: [] }]);
  });
});
