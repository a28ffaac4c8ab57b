import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { encode } from 'next-auth/jwt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createDealtGame, DEFAULT_HANDLING, type PieceType, type VersusMode } from '@/lib/engine';
import { LIVE_PROTOCOL_VERSION, MAX_LIVE_MESSAGE_BYTES, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';
import { SpectatorFeed } from '@/lib/client/live/spectator';
import { bumpSessionVersion } from '@/lib/server/account/sessions';
import { authOptions } from '@/lib/server/auth';
import { getDb } from '@/lib/server/db';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { CONSOLE } from '@/lib/server/moderation/audit';
import { banPlayer } from '@/lib/server/moderation/bans';
import { issueTicket } from '@/lib/server/games/tickets';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { resumeTokenOf } from '@/lib/server/live/solo/resume-token';
import { GameHost } from '@/lib/server/live/solo/game-host';
import { LiveHub } from '@/lib/server/live/hub';
import { dispatch } from '@/lib/server/live/messages';
import { VersusLobby } from '@/lib/server/live/match/versus-lobby';
import { resetDb } from '@/tests/data/db';
import { liveConnection, lostAt, msAt, wire } from '@/tests/data/live-site';
import { player } from '@/tests/data/play';
import { botGame } from '@/tests/support/replays';
import { rules } from '@/tests/support/room-site';
import { redisUp, redisUrl } from '@/tests/support/redis';

// One client that does not play by the rules must not stall or exhaust the live server
// (issue: hostile clients): what it makes the server hold, answer and build is bounded.
beforeEach(resetDb);

const hubs: LiveHub[] = [];
const servers: Server[] = [];
const clients: WebSocket[] = [];
const raws: Socket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  for (const r of raws.splice(0)) r.destroy();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  for (const hub of hubs.splice(0)) {
    for (const host of hub.hosts.values()) host.close('hand_over');
    hub.close();
  }
});

const A = '203.0.113.7';

function newHub(): LiveHub {
  const hub = new LiveHub();
  hubs.push(hub);
  return hub;
}

/** A hub behind an HTTP server, as scripts/serve.mjs runs it; `dial` opens a real socket to it. */
async function liveServer(hub = newHub()) {
  const server = createServer();
  servers.push(server);
  server.on('upgrade', (req, socket, head) => void hub.handleUpgrade(req, socket, head, String(req.headers['x-address'] ?? A)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const dial = async (headers: Record<string, string> = {}) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, { headers: { 'x-address': A, ...headers } });
    clients.push(ws);
    await once(ws, 'open');
    return ws;
  };
  /** The sockets as the server holds them. */
  const held = () => [...(hub as unknown as { wss: { clients: Set<WebSocket> } }).wss.clients];
  return { hub, port, dial, held };
}

function inbox(ws: WebSocket): ServerMessage[] {
  const got: ServerMessage[] = [];
  ws.on('message', (data) => {
    const value = JSON.parse(String(data)) as ServerMessage | ServerMessage[];
    got.push(...(Array.isArray(value) ? value : [value]));
  });
  return got;
}

const until = async (ok: () => boolean, ms = 5_000) => {
  for (const end = Date.now() + ms; !ok(); ) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

let guests = 0;
/**
 * An Ultra game hosted by `hub` (7,200 ticks, played by the test bot), on a clock that moves
 * with the game; `playTo` streams it on in batches of 6 ticks, as a browser at pace would.
 */
async function hostedGame(hub: LiveHub) {
  const owner = { userId: null, guestId: `guest-player-${++guests}` };
  const ticket = await issueTicket({ live: true, mode: 'ultra', owner });
  const { replay } = botGame('ultra', ticket.seed);
  let now = 0;
  const host = new GameHost({
    gameId: ticket.gameId, seed: ticket.seed, mode: 'ultra', rulesVersion: ticket.rulesVersion, handling: replay.handling, nextCount: 5,
    owner, player: { name: null, guest: true }, bus: hub.bus, now: () => now, finalizeAfterMs: null, onClose: () => {},
  });
  hub.addGame(host);
  const dealt: PieceType[] = [];
  host.attach({ send: (m) => (m.t === 'started' ? dealt.push(...m.pieces) : m.t === 'deal' ? (dealt.length = m.from, dealt.push(...m.pieces)) : 0) });
  let tick = 0;
  let seq = 1;
  const playTo = (to: number) => {
    for (; tick < to; seq++) {
      const upTo = Math.min(to, tick + 6);
      now = msAt(upTo);
      const fail = host.inputs(seq, upTo, wire(replay.events, tick, upTo));
      if (fail) throw new Error(`${fail.code}: ${fail.message}`);
      tick = upTo;
    }
  };
  return { host, replay, dealt, playTo, gameId: ticket.gameId };
}

describe('a socket that stops reading', () => {
  it('is closed (1013) once its unsent data passes LIVE_LIMITS.maxBufferedBytes: the server never holds more than that and a frame', async () => {
    const { hub, dial, held } = await liveServer();
    const game = await hostedGame(hub);
    game.playTo(600);
    const reader = await dial();
    const closed = once(reader, 'close');
    reader.send(JSON.stringify({ t: 'watch', of: { kind: 'game', id: game.gameId } }));
    await until(() => hub.bus.subscribers(game.gameId) === 1);
    // It reads nothing from here on: the kernel's buffers fill, then the server's.
    (reader as unknown as { _socket: Socket })._socket.pause();
    const [socket] = held();
    // A busy game's frames, as the server sends every spectator: ~16 KB each, 64 MB in all.
    const frame: ServerMessage = {
      t: 'frame', gameId: game.gameId, from: 0, pieces: Array.from({ length: 4_000 }, () => 'T'), events: [], tick: 600, stats: game.host.stats(), paused: false,
    };
    const frameBytes = JSON.stringify(frame).length;
    let most = 0;
    for (let i = 0; i < 4_000 && socket!.readyState === WebSocket.OPEN; i++) {
      hub.bus.publish(game.gameId, frame);
      await new Promise((r) => setImmediate(r));
      most = Math.max(most, socket!.bufferedAmount);
    }
    expect(most).toBeLessThanOrEqual(LIVE_LIMITS.maxBufferedBytes + frameBytes);
    expect(socket!.readyState).not.toBe(WebSocket.OPEN);
    (reader as unknown as { _socket: Socket })._socket.resume();
    const [code] = (await closed) as [number];
    expect(code).toBe(1013);
    await until(() => hub.bus.subscribers(game.gameId) === 0);
  });
});

describe('a connection over its message budget', () => {
  it('is closed (1008) rather than answered: one rate_limited at most, nothing for the rest', async () => {
    const { dial } = await liveServer();
    const flood = await dial();
    const got = inbox(flood);
    const closed = once(flood, 'close');
    for (let n = 0; n < 3 * LIVE_LIMITS.messagesPerSecond; n++) flood.send(JSON.stringify({ t: 'ping', n }));
    const [code] = (await closed) as [number];
    expect(code).toBe(1008);
    expect(got.filter((m) => m.t === 'pong').length).toBeLessThanOrEqual(LIVE_LIMITS.messagesPerSecond);
    expect(got.filter((m) => m.t === 'error')).toHaveLength(1);
  });
});

describe('a frame past the message bound', () => {
  it('closes the socket (1009) at its header: nothing of it is read, nothing answered', async () => {
    const { dial } = await liveServer();
    const ws = await dial();
    const got = inbox(ws);
    const closed = once(ws, 'close');
    ws.send(JSON.stringify({ t: 'ping', n: 1, pad: 'x'.repeat(MAX_LIVE_MESSAGE_BYTES) }));
    const [code] = (await closed) as [number];
    expect(code).toBe(1009);
    expect(got).toEqual([]);
  });
});

describe('upgrades from one address', () => {
  it(`are refused with 429 past LIVE_LIMITS.upgradesPerAddress (a burst, then so many a second), however quickly each socket closes`, async () => {
    const { port, dial } = await liveServer();
    const statuses: number[] = [];
    for (let i = 0; i < LIVE_LIMITS.upgradesPerAddress.burst + 60; i++) {
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, { headers: { 'x-address': A } });
        ws.once('open', () => (ws.terminate(), resolve(101)));
        ws.once('unexpected-response', (req, res) => (req.destroy(), resolve(res.statusCode ?? 0)));
        ws.once('error', () => resolve(0));
      });
      statuses.push(status);
    }
    expect(statuses.slice(0, LIVE_LIMITS.upgradesPerAddress.burst).every((s) => s === 101)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect((await dial({ 'x-address': '198.51.100.9' })).readyState).toBe(WebSocket.OPEN);
  });
});

describe('catch-ups', () => {
  it('cost the same at the end of a long game as near its start: a state and the recent inputs, not the whole log', async () => {
    const hub = newHub();
    const game = await hostedGame(hub);
    game.playTo(600);
    const early = JSON.stringify(game.host.watching()).length;
    game.playTo(6_600);
    const late = JSON.stringify(game.host.watching()).length;
    expect(late).toBeLessThan(4_000);
    expect(late).toBeLessThan(early * 1.5);
  });

  it('are built once per tick of the game, however many ask', async () => {
    const hub = newHub();
    const game = await hostedGame(hub);
    game.playTo(1_200);
    const first = game.host.watching();
    expect(game.host.watching()).toBe(first);
    game.playTo(1_206);
    expect(game.host.watching()).not.toBe(first);
  });

  it('let a spectator draw the player\'s field from the state on, exactly', async () => {
    const hub = newHub();
    const game = await hostedGame(hub);
    game.playTo(3_000);
    const { conn, sent } = liveConnection({ userId: null, guestId: 'guest-who-watches' });
    await dispatch(hub, conn, { t: 'watch', of: { kind: 'game', id: game.gameId } });
    const watching = sent.find((m): m is Extract<ServerMessage, { t: 'watching' }> => m.t === 'watching')!;
    const feed = new SpectatorFeed(watching);
    game.playTo(3_600);
    for (const m of sent) if (m.t === 'frame') feed.push(m);
    feed.runTo(3_600);
    // The player's own browser at the same tick: every piece dealt, every input.
    const player = createDealtGame({ mode: 'ultra', handling: game.replay.handling, nextCount: 5 }, game.dealt.slice(0, 1));
    for (let t = 0; t < 3_600; t++) {
      player.deal(player.dealt, game.dealt.slice(player.dealt, player.taken + 8));
      player.tick(game.replay.events.filter((e) => e.tick === t));
    }
    expect(feed.tick).toBe(3_600);
    expect(feed.snapshot()).toEqual(player.snapshot());
  });

  it(`are counted per connection, watches and unwatches alike: past LIVE_LIMITS.catchUpsPerMinute, rate_limited once, then nothing`, async () => {
    const hub = newHub();
    const game = await hostedGame(hub);
    game.playTo(60);
    const { conn, sent } = liveConnection({ userId: null, guestId: 'guest-who-churns' });
    for (let i = 0; i < LIVE_LIMITS.catchUpsPerMinute + 4; i++) await dispatch(hub, conn, { t: i % 2 === 0 ? 'watch' : 'unwatch', of: { kind: 'game', id: game.gameId } });
    expect(sent.filter((m) => m.t === 'watching')).toHaveLength(LIVE_LIMITS.catchUpsPerMinute / 2);
    // The watches past it are refused, told once; the unwatches between them are done, unanswered as ever.
    expect(sent.filter((m) => m.t === 'error' && m.code === 'rate_limited')).toHaveLength(1);
    expect(sent.filter((m) => m.t === 'watching' || m.t === 'error')).toHaveLength(LIVE_LIMITS.catchUpsPerMinute / 2 + 1);
  });

  it('are counted per game too: past LIVE_LIMITS.catchUpsPerGamePerSecond from all connections, rate_limited', async () => {
    const hub = newHub();
    const game = await hostedGame(hub);
    game.playTo(60);
    const answers: string[] = [];
    for (let i = 0; i < LIVE_LIMITS.catchUpsPerGamePerSecond + 3; i++) {
      const { conn, sent } = liveConnection({ userId: null, guestId: `guest-crowd-${i}` });
      await dispatch(hub, conn, { t: 'watch', of: { kind: 'game', id: game.gameId } });
      answers.push(sent[0]?.t === 'error' ? sent[0].code : (sent[0]?.t ?? 'nothing'));
    }
    expect(answers.filter((a) => a === 'watching')).toHaveLength(LIVE_LIMITS.catchUpsPerGamePerSecond);
    expect(answers.filter((a) => a === 'rate_limited')).toHaveLength(3);
  });

  it("never hold back the player's own resume: a crowd spending the game's budget leaves its seat to its own connection's", async () => {
    const hub = newHub();
    const game = await hostedGame(hub);
    game.playTo(60);
    for (let i = 0; i < LIVE_LIMITS.catchUpsPerGamePerSecond + 3; i++) {
      const { conn } = liveConnection({ userId: null, guestId: `guest-griefer-${i}` });
      await dispatch(hub, conn, { t: 'watch', of: { kind: 'game', id: game.gameId } });
    }
    const back = liveConnection(game.host.owner);
    await dispatch(hub, back.conn, { t: 'resume', of: { kind: 'game', id: game.gameId }, token: resumeTokenOf(game.gameId) });
    expect(back.sent.at(-1)).toMatchObject({ t: 'resumed', gameId: game.gameId });
    expect(back.conn.open).toBe(true);
  });

  it('are counted per room too: a crowd watching one room gets past LIVE_LIMITS.catchUpsPerGamePerSecond a second rate_limited, naming the room (the page asks again)', async () => {
    const hub = newHub();
    const chair = liveConnection({ userId: null, guestId: 'guest-room-chair' });
    await dispatch(hub, chair.conn, { t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [{ seat: 1, pps: 1, style: 'tidy' }], handling: DEFAULT_HANDLING });
    const room = chair.sent.find((m) => m.t === 'rroom');
    expect(room?.t).toBe('rroom');
    const code = (room as Extract<ServerMessage, { t: 'rroom' }>).code;
    const answers: Array<ServerMessage | undefined> = [];
    for (let i = 0; i < LIVE_LIMITS.catchUpsPerGamePerSecond + 3; i++) {
      const { conn, sent } = liveConnection({ userId: null, guestId: `guest-room-crowd-${i}` });
      await dispatch(hub, conn, { t: 'watch', of: { kind: 'room', id: code } });
      answers.push(sent[0]);
    }
    expect(answers.filter((m) => m?.t === 'rroom')).toHaveLength(LIVE_LIMITS.catchUpsPerGamePerSecond);
    const refused = answers.filter((m) => m?.t === 'error');
    expect(refused).toHaveLength(3);
    expect(refused.every((m) => m?.t === 'error' && m.code === 'rate_limited' && m.gameId === code)).toBe(true);
  });
});

describe('lobby messages', () => {
  it('are limited per connection: past LIVE_LIMITS.lobbyMessagesPerMinute, rate_limited once, then nothing', async () => {
    const hub = newHub();
    const { conn, sent } = liveConnection({ userId: null, guestId: 'guest-who-spams' });
    const room: ClientMessage = { t: 'unqueue' };
    for (let i = 0; i < LIVE_LIMITS.lobbyMessagesPerMinute + 2; i++) await dispatch(hub, conn, room);
    expect(sent.filter((m) => m.t === 'unqueued')).toHaveLength(LIVE_LIMITS.lobbyMessagesPerMinute);
    expect(sent.filter((m) => m.t === 'error' && m.code === 'rate_limited')).toHaveLength(1);
    expect(sent).toHaveLength(LIVE_LIMITS.lobbyMessagesPerMinute + 1);
  });

  it('read the player\'s rating once per connection, not once per queue', async () => {
    let reads = 0;
    const lobby = new VersusLobby({ bus: createLocalBus(), ratingOf: async () => (reads++, { rating: 1500, band: null }) });
    const { conn } = liveConnection({ userId: 'a-player', guestId: null });
    const queue: Extract<ClientMessage, { t: 'queue' }> = { t: 'queue', mode: 'battle' satisfies VersusMode, ranked: true, handling: DEFAULT_HANDLING, nextCount: 5 };
    for (let i = 0; i < 5; i++) {
      await lobby.handle(conn, queue);
      await lobby.handle(conn, { t: 'unqueue' });
    }
    lobby.close();
    expect(reads).toBe(1);
  });
});

describe('the upgrade', () => {
  const upgrade = async (port: number, headers: string) => {
    const raw = connect(port, '127.0.0.1');
    raws.push(raw);
    raw.write(`GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${headers}\r\n`);
    const [answer] = await once(raw, 'data');
    return String(answer).split('\r\n')[0];
  };

  it('is refused with 403 from another site\'s page (Origin or Sec-Fetch-Site), before any handshake', async () => {
    const { port } = await liveServer();
    expect(await upgrade(port, 'Origin: https://evil.example\r\n')).toMatch(/^HTTP\/1\.1 403/);
    expect(await upgrade(port, `Origin: http://127.0.0.1:${port}\r\nSec-Fetch-Site: cross-site\r\n`)).toMatch(/^HTTP\/1\.1 403/);
    expect(await upgrade(port, 'Origin: null\r\n')).toMatch(/^HTTP\/1\.1 403/);
    // Our own pages, and clients that are not pages (no Origin: scripts, the load test).
    expect(await upgrade(port, `Origin: http://127.0.0.1:${port}\r\nSec-Fetch-Site: same-origin\r\n`)).toMatch(/^HTTP\/1\.1 101/);
    expect(await upgrade(port, '')).toMatch(/^HTTP\/1\.1 101/);
  });
});

/** A session cookie for the player, as next-auth writes it at sign-in (`sv`: the session version then). */
const sessionCookie = async (userId: string, name: string, sv = 0) =>
  `next-auth.session-token=${await encode({ token: { uid: userId, name, sv, sub: userId }, secret: authOptions.secret ?? '' })}`;

const setup = { handling: DEFAULT_HANDLING, nextCount: 5 };
const asPlayer: ClientMessage[] = [
  { t: 'start', mode: 'sprint', ...setup },
  { t: 'queue', mode: 'battle', ranked: true, ...setup },
  { t: 'queue', mode: 'battle', ranked: false, ...setup },
  { t: 'room_create', mode: 'battle', firstTo: 2, ...setup },
  { t: 'room_join', code: 'ABCDEF', ...setup },
  { t: 'rematch', matchId: 'abcdef0123456789', want: true },
];

describe('who a socket plays as, in live play', () => {
  it('a ban closes the player\'s open sockets (1008); a banned player cannot start, queue, open or join a room, or accept a rematch', async () => {
    const { dial } = await liveServer();
    const { userId } = await player('Cheater');
    const cookie = await sessionCookie(userId!, 'Cheater');
    const open = await dial({ cookie });
    const got = inbox(open);
    open.send(JSON.stringify({ t: 'hello', v: LIVE_PROTOCOL_VERSION }));
    await until(() => got.some((m) => m.t === 'welcome'));
    expect(got[0]).toMatchObject({ t: 'welcome', player: { name: 'Cheater', guest: false } });
    const closed = once(open, 'close');
    expect(await banPlayer({ username: 'Cheater', reason: 'a bot', actor: CONSOLE })).toMatchObject({ ok: true });
    expect(((await closed) as [number])[0]).toBe(1008);

    const again = await dial({ cookie });
    const answers = inbox(again);
    for (const m of asPlayer) again.send(JSON.stringify(m));
    await until(() => answers.length >= asPlayer.length);
    expect(answers.map((m) => (m.t === 'error' ? m.code : m.t))).toEqual(asPlayer.map(() => 'banned'));
    expect(await (await getDb()).gameTicket.count()).toBe(0);
  });

  it('a change made where nothing tells the hub (another process: npm run admin, a lost message) closes the socket at the next sweep', async () => {
    const { hub, dial } = await liveServer();
    const { userId } = await player('Demoted');
    const db = await getDb();
    await db.user.update({ where: { id: userId! }, data: { role: 'moderator' } });
    const ws = await dial({ cookie: await sessionCookie(userId!, 'Demoted') });
    const bystander = await dial({ cookie: await sessionCookie((await player('Bystander')).userId!, 'Bystander') });
    const closed = once(ws, 'close');
    // As another process would: the row changes, and this process hears nothing of it.
    await db.user.update({ where: { id: userId! }, data: { role: 'player' } });
    await hub.players.sweep();
    expect(((await closed) as [number])[0]).toBe(1008);
    expect(bystander.readyState).toBe(WebSocket.OPEN);
  });

  it('a socket whose session still holds stays open when the player\'s account changes otherwise', async () => {
    const { dial } = await liveServer();
    const { userId } = await player('Renamed');
    const open = await dial({ cookie: await sessionCookie(userId!, 'Renamed') });
    const { forgetSessionState } = await import('@/lib/server/account/sessions');
    forgetSessionState(userId!);
    await new Promise((r) => setTimeout(r, 300));
    expect(open.readyState).toBe(WebSocket.OPEN);
  });
});

describe('a rematch over real sockets', () => {
  it('two guests, each with a tag, end a quick match; a third socket naming it is refused; both ask and a new match starts', { timeout: 20_000 }, async () => {
    const { dial } = await liveServer();
    const sockets = await Promise.all([dial(), dial(), dial()]);
    const [a, b, e] = sockets.map(inbox) as [ServerMessage[], ServerMessage[], ServerMessage[]];
    const [ann, ben, eve] = sockets as [WebSocket, WebSocket, WebSocket];
    const say = (ws: WebSocket, m: ClientMessage) => ws.send(JSON.stringify(m));
    const all = <T extends ServerMessage['t']>(got: ServerMessage[], t: T) => got.filter((m) => m.t === t) as Array<Extract<ServerMessage, { t: T }>>;
    for (const ws of sockets) say(ws, { t: 'hello', v: LIVE_PROTOCOL_VERSION });
    await until(() => [a, b, e].every((got) => all(got, 'welcome').length > 0));
    const [tagA, tagB] = [all(a, 'welcome')[0]!.player.tag, all(b, 'welcome')[0]!.player.tag];
    expect(tagA).toMatch(/^[0-9A-F]{4}$/);
    expect(tagB).toMatch(/^[0-9A-F]{4}$/);

    const queue: ClientMessage = { t: 'queue', mode: 'race30', ranked: false, ...setup };
    say(ann, queue);
    say(ben, queue);
    await until(() => all(a, 'match').length === 1 && all(b, 'match').length === 1);
    const first = all(a, 'match')[0]!;
    expect(first.players.map((p) => p.tag).sort()).toEqual([tagA, tagB].sort());
    say(ben, { t: 'leave', of: { kind: 'match', id: first.matchId } });
    await until(() => all(a, 'rematch_state').length === 1 && all(b, 'rematch_state').length === 1, 10_000);

    say(eve, { t: 'rematch', matchId: first.matchId, want: true });
    await until(() => all(e, 'error').length === 1);
    expect(all(e, 'error')[0]!.code).toBe('not_your_match');
    for (const ws of [ann, ben]) say(ws, { t: 'rematch', matchId: first.matchId, want: true });
    await until(() => all(a, 'match').length === 2 && all(b, 'match').length === 2);
    const second = all(a, 'match')[1]!.matchId;
    expect(second).not.toBe(first.matchId);
    expect(all(b, 'match')[1]!.matchId).toBe(second);
    expect(all(a, 'rematch_over')).toEqual([]);
  });
});


describe.skipIf(!redisUp)('several instances on one Redis', () => {
  it('"sign out everywhere" through one instance closes the player\'s socket on another', async () => {
    const versusHomeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const here = new LiveHub({ redisUrl: redisUrl.toString(), versusHomeKey });
    // Another process: it hears of the change only through Redis.
    const there = new LiveHub({ redisUrl: redisUrl.toString(), versusHomeKey, localSessionEvents: false });
    hubs.push(here, there);
    const { dial } = await liveServer(there);
    const { userId } = await player('Roamer');
    const ws = await dial({ cookie: await sessionCookie(userId!, 'Roamer') });
    const bystander = await dial({ cookie: await sessionCookie((await player('Bystander')).userId!, 'Bystander') });
    await new Promise((r) => setTimeout(r, 300)); // both hubs subscribed on Redis
    const closed = once(ws, 'close');
    await bumpSessionVersion(await getDb(), userId!);
    expect(((await closed) as [number])[0]).toBe(1008);
    expect(bystander.readyState).toBe(WebSocket.OPEN);
  });

  it('matches watched through another instance count against the socket’s watch budget here: a game watched here past it is refused', { timeout: 30_000 }, async () => {
    const versusHomeKey = `linefall:test:versus-home:${randomBytes(6).toString('hex')}`;
    const there = new LiveHub({ redisUrl: redisUrl.toString(), versusHomeKey });
    const here = new LiveHub({ redisUrl: redisUrl.toString(), versusHomeKey });
    hubs.push(there, here);
    const [far, near] = [await liveServer(there), await liveServer(here)];
    const say = (ws: WebSocket, m: ClientMessage) => ws.send(JSON.stringify(m));
    const ofType = (got: ServerMessage[], t: ServerMessage['t']) => got.filter((m) => m.t === t);
    // Matches hosted there: both players' sockets are there (a match is hosted on seat 0's instance).
    const matchIds: string[] = [];
    for (let i = 0; i < LIVE_LIMITS.watchesPerConnection; i++) {
      const pair = await Promise.all([far.dial({ 'x-address': `198.51.100.${2 * i + 10}` }), far.dial({ 'x-address': `198.51.100.${2 * i + 11}` })]);
      const got = pair.map(inbox);
      for (const ws of pair) say(ws, { t: 'hello', v: LIVE_PROTOCOL_VERSION });
      await until(() => got.every((g) => ofType(g, 'welcome').length > 0));
      for (const ws of pair) say(ws, { t: 'queue', mode: 'battle', ranked: false, handling: DEFAULT_HANDLING, nextCount: 5 });
      await until(() => got.every((g) => ofType(g, 'match').length > 0), 10_000);
      matchIds.push((ofType(got[0]!, 'match')[0] as { matchId: string }).matchId);
    }
    const spectator = await near.dial({ 'x-address': '198.51.100.99' });
    const seen = inbox(spectator);
    say(spectator, { t: 'hello', v: LIVE_PROTOCOL_VERSION });
    await until(() => ofType(seen, 'welcome').length > 0);
    for (const matchId of matchIds) say(spectator, { t: 'watch', of: { kind: 'match', id: matchId } });
    await until(() => ofType(seen, 'vwatching').length === matchIds.length, 10_000);
    // A solo game's watch on this instance: its budget is spent on the matches watched there.
    say(spectator, { t: 'watch', of: { kind: 'game', id: randomBytes(10).toString('hex') } });
    await until(() => ofType(seen, 'error').length > 0);
    expect(ofType(seen, 'error').map((m) => (m as { code: string }).code)).toEqual(['rate_limited']);
  });

  it('a watch of a game hosted nowhere reads its ticket only within its address’s budget: past it, a new socket buys no more reads', { timeout: 20_000 }, async () => {
    const hub = new LiveHub({ redisUrl: redisUrl.toString(), versusHomeKey: `linefall:test:versus-home:${randomBytes(6).toString('hex')}` });
    hubs.push(hub);
    const { dial } = await liveServer(hub);
    // A game whose host died and whose lease ran out: its ticket is open, so a spectator would wait for its player's resume.
    const orphan = await lostAt(600);
    const errors = (got: ServerMessage[]) => got.filter((m) => m.t === 'error' && m.code === 'unknown_game');
    const attacker = '198.51.100.9';
    const first = await dial({ 'x-address': attacker });
    const firstGot = inbox(first);
    const made = Array.from({ length: LIVE_LIMITS.ticketReadsPerAddressPerSecond }, () => randomBytes(10).toString('hex'));
    for (const gameId of made) first.send(JSON.stringify({ t: 'watch', of: { kind: 'game', id: gameId } }));
    await until(() => errors(firstGot).length === made.length);
    // Another socket from that address, the same second: told at once, its ticket unread.
    const second = await dial({ 'x-address': attacker });
    const secondGot = inbox(second);
    second.send(JSON.stringify({ t: 'watch', of: { kind: 'game', id: orphan.ticket.gameId } }));
    await until(() => errors(secondGot).length === 1, 2_000);
    // Someone else's is read: it waits for the take-up.
    const honest = await dial({ 'x-address': '203.0.113.50' });
    const honestGot = inbox(honest);
    honest.send(JSON.stringify({ t: 'watch', of: { kind: 'game', id: orphan.ticket.gameId } }));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(honestGot.filter((m) => m.t === 'error')).toEqual([]);
    orphan.lost.close('hand_over');
  });
});
