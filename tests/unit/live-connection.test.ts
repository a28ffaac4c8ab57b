import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { LiveSocket, liveUrl, type SocketLike } from '@/lib/client/live/socket';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '@/lib/live/protocol';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { Connection } from '@/lib/server/live/connection';

// The server's side of a live socket (lib/server/live/connection.ts) over a real WebSocket: what
// it writes, frame by frame, and what the browser's socket (lib/client/live/socket.ts) reads from it.
const servers: WebSocketServer[] = [];
const clients: WebSocket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A connected pair: the server's Connection, and every text frame the client received. */
async function pair(bundles: boolean): Promise<{ conn: Connection; frames: string[] }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(wss);
  await new Promise((r) => wss.once('listening', r));
  const { port } = wss.address() as { port: number };
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${port}/api/live`);
  clients.push(client);
  const frames: string[] = [];
  client.on('message', (data) => frames.push(String(data)));
  const ws = await accepted;
  return { conn: new Connection(ws, 'test', { userId: null, guestId: 'g' }, { name: null, guest: true }, bundles), frames };
}

const pong = (n: number): ServerMessage => ({ t: 'pong', n });
const until = async (ok: () => boolean, ms = 5_000) => {
  for (const end = Date.now() + ms; !ok(); ) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a live connection', () => {
  it('writes what one piece of handling sends as one frame, in order, to a client that takes bundles', async () => {
    const { conn, frames } = await pair(true);
    conn.send(pong(1));
    conn.send(pong(2));
    conn.send(pong(3));
    await until(() => frames.length > 0);
    await sleep(30);
    expect(frames).toEqual([JSON.stringify([pong(1), pong(2), pong(3)])]);
    // A lone message stays a plain object.
    conn.send(pong(4));
    await until(() => frames.length === 2);
    expect(frames[1]).toBe(JSON.stringify(pong(4)));
  });

  it('writes one message per frame to a client that did not ask for bundles', async () => {
    const { conn, frames } = await pair(false);
    conn.send(pong(1));
    conn.send(pong(2));
    await until(() => frames.length === 2);
    expect(frames).toEqual([JSON.stringify(pong(1)), JSON.stringify(pong(2))]);
  });

  it('lets a message that may wait ride on the next one, or go alone once its wait is over', async () => {
    const { conn, frames } = await pair(true);
    conn.send(pong(1), 10_000);
    await sleep(50);
    expect(frames).toEqual([]);
    conn.send(pong(2));
    await until(() => frames.length === 1);
    expect(frames[0]).toBe(JSON.stringify([pong(1), pong(2)]));

    conn.send(pong(3), 60);
    conn.send(pong(4), 60);
    await sleep(20);
    expect(frames).toHaveLength(1);
    await until(() => frames.length === 2);
    expect(frames[1]).toBe(JSON.stringify([pong(3), pong(4)]));
  });

  it('writes what is queued before it closes', async () => {
    const { conn, frames } = await pair(true);
    conn.send(pong(1), 10_000);
    conn.send(pong(2));
    conn.close(1012, 'restart');
    await until(() => frames.length === 1);
    expect(frames[0]).toBe(JSON.stringify([pong(1), pong(2)]));
  });

  it("is read by the browser's socket message by message, a bundle's as well as a single one's", async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    servers.push(wss);
    await new Promise((r) => wss.once('listening', r));
    const { port } = wss.address() as { port: number };
    const urls: string[] = [];
    wss.on('connection', (ws, req) => {
      urls.push(req.url ?? '');
      const conn = new Connection(ws, 'test', { userId: null, guestId: 'g' }, { name: null, guest: true }, true);
      ws.on('message', () => {
        conn.send({ t: 'welcome', v: 1, player: { name: null, guest: true } });
        conn.send({ t: 'status', gameId: 'abcdef0123', ranked: true, pauses: 0, pausesLeft: 3, spectators: 2 });
        conn.send({ t: 'error', code: 'bad_message', message: 'third' });
      });
    });
    const got: ServerMessage[] = [];
    const live = new LiveSocket({
      url: liveUrl({ protocol: 'http:', host: `127.0.0.1:${port}` }, '/api/live'),
      connect: (url) => new WebSocket(url) as unknown as SocketLike,
      hello: () => ({ t: 'hello', v: LIVE_PROTOCOL_VERSION }), onMessage: (m) => got.push(m), onState: () => {},
    });
    live.open();
    await until(() => got.length === 3);
    live.close();
    expect(urls).toEqual(['/api/live?bundles=1']);
    expect(got.map((m) => m.t)).toEqual(['welcome', 'status', 'error']);
    expect(live.link).toBe('down');
  });
});

describe("a live connection's budgets, on a clock of the test's", () => {
  // The budgets read no socket: the one that never opened will do.
  const budget = () => new Connection({} as WebSocket, 'test', { userId: null, guestId: 'g' }, { name: null, guest: true });

  it('takes LIVE_LIMITS.messagesPerSecond messages in a second, none more, and as many again the next second', () => {
    const conn = budget();
    const other = budget();
    const t0 = 50_000;
    for (let i = 0; i < LIVE_LIMITS.messagesPerSecond; i++) expect(conn.spend(t0 + i)).toBe('ok');
    expect(conn.spend(t0 + 999)).toBe('notice');
    expect(conn.spend(t0 + 999)).toBe('drop');
    expect(other.spend(t0 + 999)).toBe('ok');
    for (let i = 0; i < LIVE_LIMITS.messagesPerSecond; i++) expect(conn.spend(t0 + 1_000 + i)).toBe('ok');
    expect(conn.spend(t0 + 1_999)).toBe('notice');
  });

  it('widens the window by what an honest browser sends in a stall of ours: what waited behind it is no flood, a flood still is, a quiet socket banks nothing', () => {
    const t0 = 50_000;
    const per = LIVE_LIMITS.messagesPerSecond;
    const grace = LIVE_LIMITS.stallGracePerSecond;
    // A browser sending 15 a second; the process stands still 4 s, then reads its 60 at once.
    const burst = (conn: Connection, stalls: number) => Array.from({ length: 60 }, (_, i) => conn.spend(t0 + 4_000 + i / 100, stalls));
    const honest = budget();
    expect(honest.spend(t0, 0)).toBe('ok');
    expect(burst(honest, 4_000).every((s) => s === 'ok')).toBe(true);
    // The same burst with no stall of ours: a notice, then drops.
    const flood = budget();
    expect(flood.spend(t0, 0)).toBe('ok');
    const flooded = burst(flood, 0);
    expect(flooded.filter((s) => s === 'notice')).toHaveLength(1);
    expect(flooded.at(-1)).toBe('drop');
    // Beyond what the stall allows (4 s of the grace) and the second's own, the budget holds as ever, with one notice.
    const more = Array.from({ length: 4 * grace + per - 60 + 10 }, (_, i) => honest.spend(t0 + 4_001 + i / 100, 4_000));
    expect(more.slice(0, -10).every((s) => s === 'ok')).toBe(true);
    expect(more.slice(-10)).toEqual(['notice', ...Array(9).fill('drop')]);
    // A stall past the lease counts as 5 s of one.
    const long = budget();
    expect(long.spend(t0, 0)).toBe('ok');
    const after = Array.from({ length: 5 * grace + per + 1 }, (_, i) => long.spend(t0 + 20_000 + i / 100, 20_000));
    expect(after.indexOf('notice')).toBe(5 * grace + per);
    // The stalls before a socket's first message are not its credit, nor those while it was quiet.
    const late = budget();
    const first = Array.from({ length: per + 1 }, () => late.spend(t0, 60_000));
    expect(first.at(-1)).toBe('notice');
    const quiet = Array.from({ length: per + 1 }, () => late.spend(t0 + 60_000, 65_000));
    expect(quiet.at(-1)).toBe('notice');
  });

  it('says to close a connection that reaches LIVE_LIMITS.closeAtMessagesPerSecond in one second', () => {
    const conn = budget();
    const said = Array.from({ length: LIVE_LIMITS.closeAtMessagesPerSecond }, () => conn.spend(50_000));
    expect(said.filter((s) => s === 'ok')).toHaveLength(LIVE_LIMITS.messagesPerSecond);
    expect(said.filter((s) => s === 'notice')).toHaveLength(1);
    expect(said.at(-1)).toBe('close');
  });

  it('starts LIVE_LIMITS.startsPerMinute games in a minute, and one more once the first is a minute old', () => {
    const conn = budget();
    const t0 = 50_000;
    for (let i = 0; i < LIVE_LIMITS.startsPerMinute; i++) expect(conn.mayStart(t0 + i * 100)).toBe(true);
    expect(conn.mayStart(t0 + 60_000)).toBe(false);
    expect(budget().mayStart(t0 + 60_000)).toBe(true);
    expect(conn.mayStart(t0 + 60_001)).toBe(true);
    expect(conn.mayStart(t0 + 60_002)).toBe(false);
  });
});
