import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_HANDLING, VERSUS_RULES_VERSION } from '@/lib/engine';
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
  return { c, sent, hear, views, sockets };
}

describe('the versus spectator page', () => {
  it('asks again, a little later, to watch a match a crowd is arriving at; another match’s refusal is not its own', async () => {
    const { c, sent, hear, views } = page();
    await new Promise((r) => setTimeout(r, 0));
    vi.useFakeTimers();
    const watches = () => sent.filter((m) => m.t === 'watch' && m.of.kind === 'match').length;
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

  it('a page watching that dials again mid-match and is refused for a crowd (the host moved, every page came back at once) asks again', async () => {
    vi.stubGlobal('requestAnimationFrame', () => 1);
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const { c, sent, hear, sockets } = page();
    await new Promise((r) => setTimeout(r, 0));
    hear({ t: 'welcome', v: 1, player: { name: null, guest: true } });
    const seat = { player: { name: 'p', guest: true }, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], events: [], garbage: [], tick: 0, stats: { score: 0, lines: 0, level: 1, pieces: 0, tick: 0 } };
    hear({ t: 'vwatching', matchId: MATCH, mode: 'battle', firstTo: 2, game: 0, score: [0, 0], nextCount: 5, handling: [DEFAULT_HANDLING, DEFAULT_HANDLING], rulesVersion: VERSUS_RULES_VERSION, seats: [seat, seat] } as ServerMessage);
    sockets.at(-1)!.close();
    await new Promise((r) => setTimeout(r, 1_500));
    vi.useFakeTimers();
    const watches = () => sent.filter((m) => m.t === 'watch' && m.of.kind === 'match').length;
    hear({ t: 'welcome', v: 1, player: { name: null, guest: true } });
    expect(watches()).toBe(2);
    hear({ t: 'error', code: 'rate_limited', message: 'A crowd.', gameId: MATCH });
    vi.advanceTimersByTime(4_001);
    expect(watches()).toBe(3);
    c.dispose();
  });
});
