import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { linkTrouble, LiveSocket, type LinkState, type SocketLike } from '@/lib/client/live/socket';
import { LIVE_PROTOCOL_VERSION, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/**
 * A real WebSocket server that welcomes every hello of its protocol `version`, and refuses any
 * other as the hub does (unsupported_version, then close 4000); `silent` stops it answering anything.
 */
async function server(version = LIVE_PROTOCOL_VERSION): Promise<{ url: string; hellos: ClientMessage[]; firstAfterHello: ClientMessage[]; sockets: Set<WebSocket>; silent: { on: boolean } }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(wss);
  await new Promise((r) => wss.once('listening', r));
  const hellos: ClientMessage[] = [];
  /** Per connection, the first message after its hello (a ping, or a resume). */
  const firstAfterHello: ClientMessage[] = [];
  const sockets = new Set<WebSocket>();
  const silent = { on: false };
  wss.on('connection', (ws) => {
    sockets.add(ws);
    let heard = 0;
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', (data) => {
      if (silent.on) return;
      const m = JSON.parse(String(data)) as ClientMessage;
      if (heard++ === 1) firstAfterHello.push(m);
      if (m.t === 'hello' && m.v !== version) {
        hellos.push(m);
        ws.send(JSON.stringify({ t: 'error', code: 'unsupported_version', message: `This server speaks live protocol version ${version}.` } satisfies ServerMessage));
        ws.close(4000, 'unsupported version');
      } else if (m.t === 'hello') {
        hellos.push(m);
        ws.send(JSON.stringify({ t: 'welcome', v: version, player: { name: null, guest: true } } satisfies ServerMessage));
      } else if (m.t === 'ping') ws.send(JSON.stringify({ t: 'pong', n: m.n }));
    });
  });
  const { port } = wss.address() as { port: number };
  return { url: `ws://127.0.0.1:${port}/api/live`, hellos, firstAfterHello, sockets, silent };
}

const connect = (url: string) => new WebSocket(url) as unknown as SocketLike;
const until = async (ok: () => boolean, ms = 5_000) => {
  for (const end = Date.now() + ms; !ok(); ) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('LiveSocket', () => {
  it('says hello first, and again (then what to resume, in the same flight) after the server drops it', async () => {
    const s = await server();
    const states: LinkState[] = [];
    let resume = false;
    const live = new LiveSocket({
      url: s.url, connect, backoffMs: [20, 100],
      hello: () => {
        const hello: ClientMessage = { t: 'hello', v: LIVE_PROTOCOL_VERSION };
        return resume ? [hello, { t: 'resume', of: { kind: 'game', id: 'abcdef0123' }, token: 'x'.repeat(24) }] : hello;
      },
      onMessage: () => {}, onState: (st) => states.push(st),
    });
    live.open();
    await until(() => live.link === 'open');
    expect(live.send({ t: 'ping', n: 1 })).toBe(true);
    resume = true;
    for (const ws of s.sockets) ws.terminate();
    await until(() => s.hellos.length === 2 && live.link === 'open');
    expect(s.hellos[1]).toEqual({ t: 'hello', v: LIVE_PROTOCOL_VERSION });
    await until(() => s.firstAfterHello.some((m) => m.t === 'resume'));
    expect(s.firstAfterHello.at(-1)).toMatchObject({ t: 'resume', of: { kind: 'game', id: 'abcdef0123' } });
    expect(states).toEqual(['connecting', 'open', 'down', 'connecting', 'open']);
    live.close();
    expect(live.send({ t: 'ping', n: 2 })).toBe(false);
  });

  it('notices a connection gone silent (a dropped network closes nothing) and dials again', async () => {
    const s = await server();
    const live = new LiveSocket({
      url: s.url, connect, heartbeatMs: 50, deadAfterMs: 200, backoffMs: [20, 100],
      hello: () => ({ t: 'hello', v: LIVE_PROTOCOL_VERSION }), onMessage: () => {}, onState: () => {},
    });
    live.open();
    await until(() => live.link === 'open');
    s.silent.on = true;
    await until(() => live.link !== 'open');
    s.silent.on = false;
    await until(() => s.hellos.length === 2 && live.link === 'open');
    live.close();
  });

  it('stops dialling a server of another protocol version and says the page is out of date, once', async () => {
    const s = await server(LIVE_PROTOCOL_VERSION + 1);
    const states: LinkState[] = [];
    let outdated = 0;
    const live = new LiveSocket({
      url: s.url, connect, backoffMs: [10, 20],
      hello: () => ({ t: 'hello', v: LIVE_PROTOCOL_VERSION }), onMessage: () => {}, onState: (st) => states.push(st), onOutdated: () => outdated++,
    });
    live.open();
    await until(() => outdated === 1);
    // Dialling again could only be refused again: a page that reloads gets the new code instead.
    await new Promise((r) => setTimeout(r, 200));
    expect(s.hellos).toHaveLength(1);
    expect(outdated).toBe(1);
    expect(live.link).toBe('outdated');
    expect(states).toEqual(['connecting', 'outdated']);
    expect(linkTrouble('outdated')).toMatch(/reload/);
  });
});
