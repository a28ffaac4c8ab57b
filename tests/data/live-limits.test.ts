import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DEFAULT_HANDLING } from '@/lib/engine';
import type { ClientMessage, ServerMessage } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { dispatch } from '@/lib/server/live/messages';
import { LiveHub } from '@/lib/server/live/hub';
import { resetDb } from '@/tests/data/db';
import { liveConnection } from '@/tests/data/live-site';

// The live channel's limits per connection and per address (LIVE_LIMITS), on a real hub.
beforeEach(resetDb);

const hubs: LiveHub[] = [];
const servers: Server[] = [];
const clients: WebSocket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  for (const hub of hubs.splice(0)) {
    for (const host of hub.hosts.values()) host.close('hand_over');
    hub.close();
  }
});

const A = '203.0.113.1';
const B = '198.51.100.2';

const start: ClientMessage = { t: 'start', mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 };
let guests = 0;
/** A new guest's connection from `address`: one player per game, so no player's own ticket rule is met. */
const guestAt = (address: string) => liveConnection({ userId: null, guestId: `guest-${++guests}` }, address);

const until = async (ok: () => boolean | Promise<boolean>, ms = 5_000) => {
  for (const end = Date.now() + ms; !(await ok()); ) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

function newHub(): LiveHub {
  const hub = new LiveHub();
  hubs.push(hub);
  return hub;
}

/**
 * A hub behind an HTTP server, as scripts/serve.mjs runs it; each socket names the address it
 * comes from in a header (serve.mjs decides it from the socket and the proxies). `dial` gives the
 * open socket, or the status an upgrade was refused with.
 */
async function liveServer() {
  const hub = newHub();
  const server = createServer();
  servers.push(server);
  let gather = 1;
  const held: Parameters<LiveHub['handleUpgrade']>[] = [];
  server.on('upgrade', (req, socket, head) => {
    held.push([req, socket, head, String(req.headers['x-address'])]);
    if (held.length >= gather) for (const upgrade of held.splice(0)) void hub.handleUpgrade(...upgrade);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const dial = (address: string) =>
    new Promise<WebSocket | number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, { headers: { 'x-address': address } });
      clients.push(ws);
      ws.once('open', () => resolve(ws));
      ws.once('unexpected-response', (req, res) => {
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
      ws.once('error', reject);
    });
  /** Upgrades wait until `n` have arrived, then reach the hub in one go, as a busy event loop hands them over. */
  const gatherUpgrades = (n: number) => (gather = n);
  return { hub, dial, gatherUpgrades, port };
}

const opened = (dialed: WebSocket | number): WebSocket => {
  if (typeof dialed === 'number') throw new Error(`the upgrade was refused with ${dialed}`);
  return dialed;
};

function inbox(ws: WebSocket): ServerMessage[] {
  const got: ServerMessage[] = [];
  ws.on('message', (data) => got.push(JSON.parse(String(data)) as ServerMessage));
  return got;
}

describe('the live channel, per connection', () => {
  it('drops messages past LIVE_LIMITS.messagesPerSecond with rate_limited; another socket from the same address is answered', async () => {
    const { dial } = await liveServer();
    const flood = opened(await dial(A));
    const got = inbox(flood);
    for (let n = 0; n <= LIVE_LIMITS.messagesPerSecond; n++) flood.send(JSON.stringify({ t: 'ping', n }));
    await until(() => got.length === LIVE_LIMITS.messagesPerSecond + 1);
    expect(got.filter((m) => m.t === 'pong')).toHaveLength(LIVE_LIMITS.messagesPerSecond);
    expect(got.at(-1)).toMatchObject({ t: 'error', code: 'rate_limited' });

    const other = opened(await dial(A));
    const answered = inbox(other);
    other.send(JSON.stringify({ t: 'ping', n: 1 }));
    await until(() => answered.length === 1);
    expect(answered).toEqual([{ t: 'pong', n: 1 }]);
  });

  it('refuses a start past LIVE_LIMITS.startsPerMinute with rate_limited and no ticket; another socket of the player starts', async () => {
    const hub = newHub();
    const owner = { userId: null, guestId: 'guest-who-restarts' };
    const { conn, sent } = liveConnection(owner, A);
    for (let i = 0; i < LIVE_LIMITS.startsPerMinute; i++) conn.mayStart(performance.now());
    await dispatch(hub, conn, start);
    expect(sent).toEqual([{ t: 'error', code: 'rate_limited', message: `At most ${LIVE_LIMITS.startsPerMinute} new games a minute.` }]);
    expect(await (await getDb()).gameTicket.count()).toBe(0);
    expect(hub.gamesByAddress.count(A)).toBe(0); // the slot the start took is given back

    const tab = liveConnection(owner, A);
    await dispatch(hub, tab.conn, start);
    expect(tab.sent[0]).toMatchObject({ t: 'started' });
  });
});

/** The stand-in socket closes, as a real one does under a start or resume still awaiting the database. */
const closeSocket = (conn: { ws: WebSocket }) => ((conn.ws as { readyState: number }).readyState = 3);

describe('a start or resume still awaiting the database', () => {
  it('two starts in flight on one connection leave one game, the later: the earlier is given up', async () => {
    const hub = newHub();
    const { conn, sent } = guestAt(A);
    await Promise.all([dispatch(hub, conn, start), dispatch(hub, conn, start)]);
    expect(sent.filter((m) => m.t === 'started')).toHaveLength(2);
    // The earlier game leaves the hub once its giving up is written.
    await until(() => hub.hosts.size === 1);
    expect([...hub.hosts.values()]).toEqual([conn.host]);
    expect(conn.host!.seated(conn)).toBe(true);
    expect(hub.gamesByAddress.count(A)).toBe(1);
  });

  it('a socket that closes while its start is written gets no game, and its slot is given back', async () => {
    const hub = newHub();
    const { conn, sent } = guestAt(A);
    const starting = dispatch(hub, conn, start);
    closeSocket(conn);
    await starting;
    expect(sent).toEqual([]);
    expect(conn.host).toBeNull();
    expect(hub.hosts.size).toBe(0);
    expect(hub.gamesByAddress.count(A)).toBe(0);
  });
});

describe('the live channel, per handshake', () => {
  it('a handshake ws refuses takes its new guest cookie with it: the next visitor gets only its own', async () => {
    const { port } = await liveServer();
    // An upgrade without Sec-WebSocket-Key, from a visitor with no cookie: a guest cookie is made for it, then ws answers 400.
    const raw = connect(port, '127.0.0.1');
    raw.write(`GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nx-address: ${A}\r\n\r\n`);
    const [answer] = await once(raw, 'data');
    expect(String(answer)).toMatch(/^HTTP\/1\.1 400/);
    raw.destroy();

    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, { headers: { 'x-address': B } });
    clients.push(ws);
    const [res] = await once(ws, 'upgrade');
    const cookies = (res as { headers: Record<string, string[] | undefined> }).headers['set-cookie'] ?? [];
    expect(cookies).toHaveLength(1);
  });
});

describe('the live channel, per address', () => {
  it('refuses a socket past LIVE_LIMITS.socketsPerAddress with 429, from that address only, until one of its sockets closes', async () => {
    const { dial } = await liveServer();
    const sockets: WebSocket[] = [];
    for (let i = 0; i < LIVE_LIMITS.socketsPerAddress; i++) sockets.push(opened(await dial(A)));
    expect(await dial(A)).toBe(429);
    expect(await dial(B)).toBeInstanceOf(WebSocket);
    sockets[0]!.close();
    await until(async () => (await dial(A)) instanceof WebSocket);
  });

  it('holds LIVE_LIMITS.socketsPerAddress when the upgrades from one address reach the hub together', async () => {
    const { dial, gatherUpgrades } = await liveServer();
    const burst = LIVE_LIMITS.socketsPerAddress + 6;
    gatherUpgrades(burst);
    const dialed = await Promise.all(Array.from({ length: burst }, () => dial(A)));
    expect(dialed.filter((d) => d instanceof WebSocket)).toHaveLength(LIVE_LIMITS.socketsPerAddress);
    expect(dialed.filter((d) => d === 429)).toHaveLength(6);
    gatherUpgrades(1);
    expect(await dial(B)).toBeInstanceOf(WebSocket);
  });

  it('refuses a start past LIVE_LIMITS.gamesPerAddress with too_many_games, from that address only, until one of its games closes', async () => {
    const hub = newHub();
    for (let i = 0; i < LIVE_LIMITS.gamesPerAddress; i++) {
      const { conn, sent } = guestAt(A);
      await dispatch(hub, conn, start);
      expect(sent[0]).toMatchObject({ t: 'started' });
    }
    const refused = guestAt(A);
    await dispatch(hub, refused.conn, start);
    expect(refused.sent).toEqual([{ t: 'error', code: 'too_many_games', message: `At most ${LIVE_LIMITS.gamesPerAddress} live games at once from one network.` }]);
    expect(refused.conn.host).toBeNull();
    const elsewhere = guestAt(B);
    await dispatch(hub, elsewhere.conn, start);
    expect(elsewhere.sent[0]).toMatchObject({ t: 'started' });

    [...hub.hosts.values()][0]!.close('hand_over');
    await dispatch(hub, refused.conn, start);
    expect(refused.sent.at(-1)).toMatchObject({ t: 'started' });
  });

  it('holds LIVE_LIMITS.gamesPerAddress when starts from one address arrive together', async () => {
    const hub = newHub();
    const players = Array.from({ length: LIVE_LIMITS.gamesPerAddress + 6 }, () => guestAt(A));
    await Promise.all(players.map(({ conn }) => dispatch(hub, conn, start)));
    const first = players.map(({ sent }) => sent[0]?.t === 'error' ? sent[0].code : sent[0]?.t);
    expect(first.filter((t) => t === 'started')).toHaveLength(LIVE_LIMITS.gamesPerAddress);
    expect(first.filter((t) => t === 'too_many_games')).toHaveLength(6);
    expect(hub.hosts.size).toBe(LIVE_LIMITS.gamesPerAddress);
    expect(hub.gamesByAddress.count(A)).toBe(LIVE_LIMITS.gamesPerAddress);
    const elsewhere = guestAt(B);
    await dispatch(hub, elsewhere.conn, start);
    expect(elsewhere.sent[0]).toMatchObject({ t: 'started' });
  });
});
