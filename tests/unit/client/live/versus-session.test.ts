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
  return { s, sent, hear, view: () => s.current };
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
    const batches = () => sent.filter((m) => m.t === 'vinputs');
    for (let at = 1_000; at <= 3_000; at += 1_000) {
      s.seat.step([]);
      s.pump(at, true);
    }
    const [, b2, b3] = batches();
    hear({ t: 'vack', matchId: id, game: 0, seq: 1, tick: 1 });
    // Batch 2 was unread past the message budget; 3 then came out of order.
    hear({ t: 'error', code: 'rate_limited', message: 'At most 40 messages a second.' });
    hear({ t: 'error', code: 'out_of_order', message: 'Batch 3 arrived, 2 was expected.', gameId: id, seq: 3 });
    expect(view().error).toBeNull();
    const batch = (seq: number) => ({ t: 'vinputs', matchId: id, game: 0, seq, tick: seq, events: [] });
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
