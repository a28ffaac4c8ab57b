import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientMessage, ServerMessage } from '@/lib/live/protocol';
import type { SocketLike } from '@/lib/client/live/socket';
import { MatchWatchController } from '@/lib/client/live/match-watch';

// The versus spectator page against a socket that plays the server: a watch refused for the
// match's sake (a crowd arriving) is asked again a little later; a match that is gone is said so.
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const MATCH = 'abcdef0123456789';

function page() {
  const sent: ClientMessage[] = [];
  const sockets: SocketLike[] = [];
  const views: string[] = [];
  vi.stubGlobal('location', new URL('http://test/versus/watch'));
  const c = new MatchWatchController(MATCH, { draw: () => {}, onView: (v) => views.push(v.phase) }, () => {
    const ws: SocketLike = { readyState: 1, send: (d) => void sent.push(JSON.parse(d)), close: () => ws.onclose?.({}), onopen: null, onclose: null, onerror: null, onmessage: null };
    sockets.push(ws);
    queueMicrotask(() => ws.onopen?.({}));
    return ws;
  });
  const hear = (m: ServerMessage) => sockets.at(-1)!.onmessage!({ data: JSON.stringify(m) });
  return { c, sent, hear, views };
}

describe('the versus spectator page', () => {
  it('asks again, a little later, to watch a match a crowd is arriving at; another match’s refusal is not its own', async () => {
    const { c, sent, hear, views } = page();
    await new Promise((r) => setTimeout(r, 0));
    vi.useFakeTimers();
    const watches = () => sent.filter((m) => m.t === 'vwatch').length;
    hear({ t: 'welcome', v: 1, player: { name: null, guest: true } });
    expect(watches()).toBe(1);
    hear({ t: 'error', code: 'rate_limited', message: 'A crowd.', gameId: MATCH });
    vi.advanceTimersByTime(4_001);
    expect(watches()).toBe(2);
    hear({ t: 'error', code: 'unknown_match', message: 'Another one.', gameId: 'ffffffffffffffff' });
    expect(views.at(-1)).not.toBe('missing');
    hear({ t: 'error', code: 'unknown_match', message: 'Gone.', gameId: MATCH });
    expect(views.at(-1)).toBe('missing');
    c.dispose();
  });
});
