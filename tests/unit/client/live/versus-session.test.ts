import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { RESEND_AFTER_MS, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';
import type { SocketLike } from '@/lib/client/live/socket';
import { VersusSession, type VersusView } from '@/lib/client/live/versus-session';

/** A socket that is open at once and says what the page sent; `hear` plays the server. */
function session(now: () => number = () => 0) {
  const sent: ClientMessage[] = [];
  let ws: SocketLike | null = null;
  const views: VersusView[] = [];
  const s = new VersusSession({
    url: 'ws://test/api/live',
    connect: () => {
      ws = { readyState: 1, send: (d) => void sent.push(JSON.parse(d)), close: () => {}, onopen: null, onclose: null, onerror: null, onmessage: null };
      queueMicrotask(() => ws?.onopen?.({}));
      return ws;
    },
    onView: (v) => views.push(v),
    onGame: () => {},
    now,
  });
  const hear = (m: ServerMessage) => ws!.onmessage!({ data: JSON.stringify(m) });
  /** The link down (nothing the page sends goes out) or up again, without a new socket. */
  const setOpen = (open: boolean) => void ((ws as { readyState: number }).readyState = open ? 1 : 3);
  return { s, sent, hear, view: () => s.current, setOpen };
}

const match = (matchId: string): ServerMessage => ({
  t: 'match', matchId, seat: 0, players: [{ name: null, guest: true, tag: '4F2A' }, { name: null, guest: true, tag: '09BC' }], mode: 'battle', firstTo: 2, ranked: false,
  rulesVersion: 6, handling: [DEFAULT_HANDLING, DEFAULT_HANDLING], nextCount: 5, resumeToken: 'r'.repeat(24), resumeWindowMs: 30_000,
});
const over = (matchId: string): ServerMessage => ({ t: 'vover', matchId, winner: 0, score: [2, 0], reason: 'forfeit', ranked: false, stored: true });

async function opened(now?: () => number) {
  const x = session(now);
  await new Promise((r) => setTimeout(r, 0));
  x.hear({ t: 'welcome', v: 1, player: { name: null, guest: true } });
  return x;
}

describe('the versus session in the browser', () => {
  it('sends again, as first sent, every batch the server has not acknowledged when it refuses one', async () => {
    let now = 0;
    const { s, sent, hear, view } = await opened(() => now);
    const id = 'm'.repeat(16);
    hear(match(id));
    hear({ t: 'vstart', matchId: id, game: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], startsInMs: 0, score: [0, 0] });
    s.started();
    const batches = () => sent.filter((m) => m.t === 'inputs');
    for (let at = 1_000; at <= 3_000; at += 1_000) {
      s.seat.step([]);
      s.pump(at, true);
    }
    const [, b2, b3] = batches();
    hear({ t: 'ack', stream: id, game: 0, seq: 1, tick: 1 });
    // Batch 2 was unread past the message budget; 3 then came out of order.
    hear({ t: 'error', code: 'rate_limited', message: 'At most 40 messages a second.' });
    hear({ t: 'error', code: 'out_of_order', message: 'Batch 3 arrived, 2 was expected.', gameId: id, seq: 3 });
    expect(view().error).toBeNull();
    const batch = (seq: number) => ({ t: 'inputs', stream: id, game: 0, seq, tick: seq, events: [] });
    now = RESEND_AFTER_MS - 1;
    s.seat.step([]);
    s.pump(4_000, true);
    expect(batches().slice(3)).toEqual([batch(4)]);
    // Once the server's budget has refilled.
    now = RESEND_AFTER_MS;
    s.seat.step([]);
    s.pump(5_000, true);
    expect(batches().slice(4)).toEqual([b2, b3, batch(4), batch(5)]);
  });

  it('says a room that is not there once: as the closed room, not again as an error', async () => {
    const { s, hear, view } = await opened();
    s.joinRoom('ABCDEF', { handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'error', code: 'unknown_room', message: 'No open room has this code.' });
    expect(view().lobby).toEqual({ kind: 'closed', code: 'ABCDEF', message: 'No open room has this code.' });
    expect(view().error).toBeNull();
  });

  it('follows a rematch offer: open with who wants it, asked for, ended with its reason; a new match replaces the old', async () => {
    const { s, sent, hear, view } = await opened();
    hear(match('aaaaaaaa01'));
    s.rematch(true); // not over yet: nothing to ask
    expect(sent.filter((m) => m.t === 'rematch')).toEqual([]);
    hear(over('aaaaaaaa01'));
    hear({ t: 'rematch_state', matchId: 'aaaaaaaa01', wants: [false, false], expiresInMs: 30_000 });
    expect(view().match?.rematch).toEqual({ kind: 'open', wants: [false, false], until: 30_000 });
    s.rematch(true);
    expect(sent.at(-1)).toEqual({ t: 'rematch', matchId: 'aaaaaaaa01', want: true });
    hear({ t: 'rematch_state', matchId: 'bbbbbbbb01', wants: [true, true], expiresInMs: 1 }); // another match's: not this one
    hear({ t: 'rematch_state', matchId: 'aaaaaaaa01', wants: [true, false], expiresInMs: 29_000 });
    expect(view().match?.rematch).toMatchObject({ kind: 'open', wants: [true, false] });
    hear(match('aaaaaaaa02'));
    expect(view().match).toMatchObject({ matchId: 'aaaaaaaa02', state: 'countdown', rematch: null, over: null });

    hear(over('aaaaaaaa02'));
    hear({ t: 'rematch_state', matchId: 'aaaaaaaa02', wants: [false, true], expiresInMs: 30_000 });
    hear({ t: 'rematch_over', matchId: 'aaaaaaaa02', reason: 'left' });
    expect(view().match?.rematch).toEqual({ kind: 'over', reason: 'left', message: null });
    s.rematch(true); // ended: nothing to ask
    expect(sent.filter((m) => m.t === 'rematch')).toHaveLength(1);
  });

  it('goes back to the lobby when the server takes its queue entry out, told why, and does not queue again on a reconnect', async () => {
    const { s, sent, hear, view } = await opened();
    s.queue('battle', true, { handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'queued', mode: 'battle', ranked: true, waiting: 1 });
    expect(view().lobby.kind).toBe('queued');
    hear({ t: 'error', code: 'already_playing', message: 'You are in a ranked 2v2 set or its queue.' });
    hear({ t: 'unqueued' });
    expect(view().lobby).toEqual({ kind: 'idle' });
    expect(view().error).toMatchObject({ code: 'already_playing' });
    const queues = sent.filter((m) => m.t === 'queue').length;
    hear({ t: 'welcome', v: 1, player: { name: null, guest: true } });
    expect(sent.filter((m) => m.t === 'queue')).toHaveLength(queues);
  });
});

describe('a seat another tab took up (seat_taken)', () => {
  it('is played here no more: the match is over for this page, said why, and not asked for again after a reconnect', async () => {
    const { s, sent, hear, view } = await opened();
    const id = 'm'.repeat(16);
    hear(match(id));
    hear({ t: 'vstart', matchId: id, game: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], startsInMs: 0, score: [0, 0] });
    s.started();
    hear({ t: 'error', code: 'seat_taken', message: 'elsewhere', gameId: 'n'.repeat(16) });
    expect(view().match?.state).not.toBe('over');
    expect(view().error).toBeNull();
    hear({ t: 'error', code: 'seat_taken', message: 'This game is being played in another tab or window now.', gameId: id });
    expect(view().match).toMatchObject({ state: 'over', elsewhere: true });
    expect(view().error).toMatchObject({ code: 'seat_taken' });
    hear({ t: 'welcome', v: 2, player: { name: null, guest: true } });
    expect(sent.filter((m) => m.t === 'resume')).toEqual([]);
  });
});

describe('a private room after the connection drops', () => {
  it('is asked for again by its maker’s page as by its guest’s: the server keeps the maker’s seat a while', async () => {
    const { s, sent, hear, view } = await opened();
    s.createRoom('battle', 2, { handling: DEFAULT_HANDLING, nextCount: 5 });
    const room = { code: 'ABCDEF', mode: 'battle' as const, firstTo: 2, seats: [{ name: null, guest: true }, null] as [{ name: null; guest: true }, null], ready: [false, false] as [boolean, boolean], you: 0 as const };
    hear({ t: 'room', room });
    hear({ t: 'welcome', v: 2, player: { name: null, guest: true } });
    expect(sent.at(-1)).toEqual({ t: 'room_join', code: 'ABCDEF', handling: DEFAULT_HANDLING, nextCount: 5 });
    expect(view().lobby.kind).toBe('room');
    // Kept too long (or gone with its server): the page says the room is gone, once.
    hear({ t: 'error', code: 'unknown_room', message: 'No open room has this code (it closed, or its match started).' });
    expect(view().lobby).toMatchObject({ kind: 'closed', code: 'ABCDEF' });
  });

  it('is asked for again from a room match’s result: the room opened again after the match, and the page dropped there', async () => {
    const { s, sent, hear, view } = await opened();
    const id = 'm'.repeat(16);
    s.createRoom('battle', 2, { handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'room', room });
    hear({ t: 'room_closed', code: room.code, reason: 'started' });
    hear(match(id));
    hear(over(id));
    hear({ t: 'room', room });
    expect(view().match?.state).toBe('over');
    hear({ t: 'welcome', v: 2, player: { name: null, guest: true } });
    expect(sent.at(-1)).toEqual({ t: 'room_join', code: 'ABCDEF', handling: DEFAULT_HANDLING, nextCount: 5 });
  });
});

const room = { code: 'ABCDEF', mode: 'battle' as const, firstTo: 2, seats: [{ name: null, guest: true }, null] as [{ name: null; guest: true }, null], ready: [false, false] as [boolean, boolean], you: 0 as const };

describe('a private room left on purpose', () => {
  it('is given up with room_leave: the page is back in the lobby at once, deaf to what the room said before it heard, and asks for it no more', async () => {
    const { s, sent, hear, view } = await opened();
    s.createRoom('battle', 2, { handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'room', room });
    s.leaveRoom();
    expect(sent.at(-1)).toEqual({ t: 'room_leave', code: 'ABCDEF' });
    expect(view().lobby).toEqual({ kind: 'idle' });
    // A guest who joined just before the leave arrived: the server said so, the page has gone.
    hear({ t: 'room', room: { ...room, seats: [room.seats[0], { name: null, guest: true }] } });
    expect(view().lobby).toEqual({ kind: 'idle' });
    // The server's answer to the leave.
    hear({ t: 'room_closed', code: 'ABCDEF', reason: 'left' });
    expect(view().lobby).toEqual({ kind: 'idle' });
    hear({ t: 'welcome', v: 2, player: { name: null, guest: true } });
    expect(sent.filter((m) => m.t === 'room_join')).toEqual([]);
    // A room made after is the page's as any.
    s.createRoom('battle', 2, { handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'room', room: { ...room, code: 'GHJKLM' } });
    expect(view().lobby).toMatchObject({ kind: 'room', room: { code: 'GHJKLM' } });
  });

  it('crossing the room’s start (the other was ready): the refusal is not shown, the match is played, and the room it reopens is the page’s', async () => {
    const { s, hear, view } = await opened();
    const id = 'm'.repeat(16);
    s.createRoom('battle', 2, { handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'room', room });
    s.leaveRoom();
    hear({ t: 'room_closed', code: room.code, reason: 'started' });
    hear(match(id));
    hear({ t: 'error', code: 'unknown_room', message: 'You are not in this room.' });
    expect(view().lobby).toEqual({ kind: 'idle' });
    expect(view().error).toBeNull();
    expect(view().match?.matchId).toBe(id);
    hear(over(id));
    hear({ t: 'room', room });
    expect(view().lobby).toMatchObject({ kind: 'room', room: { code: room.code } });
  });

  it('while the link is down: the leave goes out once the page is connected again', async () => {
    const { s, sent, hear, view, setOpen } = await opened();
    s.createRoom('battle', 2, { handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'room', room });
    setOpen(false);
    s.leaveRoom();
    expect(view().lobby).toEqual({ kind: 'idle' });
    expect(sent.filter((m) => m.t === 'room_leave')).toEqual([]);
    setOpen(true);
    hear({ t: 'welcome', v: 2, player: { name: null, guest: true } });
    expect(sent.filter((m) => m.t === 'room_leave' || m.t === 'room_join')).toEqual([{ t: 'room_leave', code: room.code }]);
    hear({ t: 'welcome', v: 2, player: { name: null, guest: true } });
    expect(sent.filter((m) => m.t === 'room_leave')).toHaveLength(1);
  });
});
