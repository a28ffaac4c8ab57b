/**
 * bench:hostile's attacker (a process of its own, started by bench/hostile/run.ts): 64 sockets
 * from one address, each doing one of the things issue 34 found an instance could not bear:
 *
 * - 1 padder plays a Marathon whose batches carry 256 inputs each (key presses that do nothing
 *   much), to ~95,000 inputs: the longest log a game can hold, for the watchers;
 * - 16 churners watch and unwatch the padded game and honest games as fast as the message budget lets;
 * - 16 slow readers watch 8 games each and ping, and never read (their TCP socket paused);
 * - 16 lobby spammers create rooms, change them, ready and unready, queue and unqueue;
 * - 15 senders of oversized frames (past the 16 KB message bound, now and then past ws's 64 KB).
 *
 * Every socket the server closes dials again at once, as an attacker would; frames the attacker
 * would pay for (the oversized ones) are built once and written raw. It prints ATTACKING
 * once the padded game is long (`--warmup` seconds), and on SIGTERM one JSON line of what it saw.
 */
import WebSocket from 'ws';
import { connect, type Socket } from 'node:net';
import { DEFAULT_HANDLING, keyId } from '@/lib/engine';
import { LIVE_PATH, messagesOfFrame, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';

const url = process.argv.find((a) => a.startsWith('--url='))!.split('=')[1]!;
const WARMUP_S = Number(process.argv.find((a) => a.startsWith('--warmup='))?.split('=')[1] ?? 30);
const ADDRESS = '10.66.0.1';
const PAD_TO = 95_000;

type Role = 'padder' | 'churner' | 'slow' | 'lobby' | 'oversized';
const seen = {
  dials: {} as Record<Role, number>,
  refused: 0,
  closes: {} as Record<string, number>,
  errors: {} as Record<string, number>,
  sent: 0,
  receivedBytes: 0,
  padded: 0,
  watchings: 0,
  watchingBytesMax: 0,
};
const count = (o: Record<string, number>, k: string) => (o[k] = (o[k] ?? 0) + 1);
let stopping = false;
let paddedGame: string | null = null;
let honest: string[] = [];

async function dial(role: Role): Promise<WebSocket> {
  for (;;) {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${LIVE_PATH}`, { headers: { 'x-forwarded-for': ADDRESS }, perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });
    const opened = await new Promise<boolean>((resolve) => {
      ws.once('open', () => resolve(true));
      ws.once('unexpected-response', (req) => (req.destroy(), resolve(false)));
      ws.once('error', () => resolve(false));
    });
    if (opened) {
      count(seen.dials, role);
      ws.on('close', (code) => count(seen.closes, `${role}:${code}`));
      ws.on('error', () => {});
      return ws;
    }
    seen.refused++;
    await sleep(200);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const send = (ws: WebSocket, m: ClientMessage | string) => {
  if (ws.readyState !== WebSocket.OPEN) return;
  seen.sent++;
  ws.send(typeof m === 'string' ? m : JSON.stringify(m));
};
const listen = (ws: WebSocket, on?: (m: ServerMessage) => void) =>
  ws.on('message', (data) => {
    const text = String(data);
    seen.receivedBytes += text.length;
    for (const v of messagesOfFrame(text)) {
      const m = v as ServerMessage;
      if (m.t === 'error') count(seen.errors, m.code);
      if (m.t === 'watching') {
        seen.watchings++;
        seen.watchingBytesMax = Math.max(seen.watchingBytesMax, text.length);
      }
      on?.(m);
    }
  });
const closed = (ws: WebSocket) => new Promise<void>((resolve) => (ws.readyState === WebSocket.CLOSED ? resolve() : ws.once('close', () => resolve())));

/** Plays Marathon at the wall clock's pace, every batch full of inputs, until the log holds PAD_TO. */
async function padder(): Promise<void> {
  const ROT = keyId('rotateCW');
  while (!stopping) {
    const ws = await dial('padder');
    let over = false;
    let gameId: string | null = null;
    listen(ws, (m) => {
      if (m.t === 'started') gameId = m.gameId;
      if (m.t === 'over') over = true;
    });
    send(ws, { t: 'start', mode: 'marathon', handling: DEFAULT_HANDLING, nextCount: 5 });
    for (let i = 0; i < 50 && !gameId; i++) await sleep(100);
    if (!gameId) continue;
    paddedGame = gameId;
    seen.padded = 0;
    const t0 = performance.now();
    let tick = 0;
    for (let seq = 1; !stopping && !over && ws.readyState === WebSocket.OPEN; seq++) {
      await sleep(100);
      const upTo = Math.floor(((performance.now() - t0) * 60) / 1000) - 2;
      if (upTo <= tick) continue;
      const events: Array<[number, number, 0 | 1]> = [];
      if (seen.padded < PAD_TO) for (let i = 0; i < 256; i++) events.push([tick + Math.floor((i * (upTo - tick)) / 256), ROT, (i % 2 === 0 ? 1 : 0) as 0 | 1]);
      send(ws, { t: 'inputs', stream: gameId, seq, tick: upTo, events });
      seen.padded += events.length;
      tick = upTo;
    }
    ws.close();
  }
}

/** Watch, unwatch, watch another: 40 messages a second, the padded game first. */
async function churner(i: number): Promise<void> {
  while (!stopping) {
    const ws = await dial('churner');
    listen(ws);
    for (let n = 0; !stopping && ws.readyState === WebSocket.OPEN; n++) {
      const games = [paddedGame, ...honest].filter((g): g is string => g !== null);
      const gameId = games[(i + (n >> 1)) % Math.max(1, games.length)];
      if (gameId) send(ws, { t: n % 2 === 0 ? 'watch' : 'unwatch', of: { kind: 'game', id: gameId } });
      await sleep(25);
    }
    await closed(ws);
  }
}

/** Watches 8 games and pings 20 times a second, reading nothing. */
async function slowReader(i: number): Promise<void> {
  while (!stopping) {
    const ws = await dial('slow');
    listen(ws);
    const games = [paddedGame, ...honest.slice(i * 7, i * 7 + 7)].filter((g): g is string => g !== null);
    for (const gameId of games) send(ws, { t: 'watch', of: { kind: 'game', id: gameId } });
    await sleep(200);
    (ws as unknown as { _socket: Socket })._socket.pause();
    for (let n = 0; !stopping && ws.readyState === WebSocket.OPEN; n++) {
      send(ws, { t: 'ping', n });
      await sleep(50);
    }
    // Closed by the server: what it had sent is read now, and the close with it.
    (ws as unknown as { _socket: Socket })._socket.resume();
    await Promise.race([closed(ws), sleep(3_000)]);
    ws.terminate();
  }
}

/** Rooms and the queue, 40 messages a second. */
async function lobby(): Promise<void> {
  while (!stopping) {
    const ws = await dial('lobby');
    let code: string | null = null;
    listen(ws, (m) => {
      if (m.t === 'room') code = m.room.code;
    });
    const setup = { handling: DEFAULT_HANDLING, nextCount: 5 };
    for (let n = 0; !stopping && ws.readyState === WebSocket.OPEN; n++) {
      const step = n % 6;
      if (step === 0) send(ws, { t: 'room_create', mode: 'battle', firstTo: 3, ...setup });
      else if (step === 1 && code) send(ws, { t: 'room_set', code, mode: 'race30', firstTo: 2 });
      else if (step === 2 && code) send(ws, { t: 'ready', code, ready: true });
      else if (step === 3 && code) send(ws, { t: 'ready', code, ready: false });
      else if (step === 4) send(ws, { t: 'queue', mode: 'battle', ranked: true, ...setup });
      else send(ws, { t: 'unqueue' });
      await sleep(25);
    }
    await closed(ws);
  }
}

/**
 * A client frame as an attacker writes it: built once, masked with the key 0 (legal, and the
 * payload is then its own masked form), so sending costs the attacker nothing but the write.
 */
function rawFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x81, 0x80 | n]) : n < 65_536 ? Buffer.from([0x81, 0x80 | 126, n >> 8, n & 255]) : Buffer.from([0x81, 0x80 | 127, 0, 0, 0, 0, n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255]);
  return Buffer.concat([head, Buffer.alloc(4), payload]);
}

/** An upgraded socket written raw (what it is sent is read and dropped); null if refused. */
async function rawDial(): Promise<Socket | null> {
  const { host, port } = new URL(url);
  const sock = connect(Number(port), host.replace(/:.*$/, ''));
  sock.on('error', () => {});
  sock.write(`GET ${LIVE_PATH} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nx-forwarded-for: ${ADDRESS}\r\n\r\n`);
  const answer = await new Promise<string>((resolve) => {
    sock.once('data', (d) => resolve(String(d)));
    sock.once('close', () => resolve(''));
  });
  if (!answer.startsWith('HTTP/1.1 101')) {
    sock.destroy();
    return null;
  }
  sock.on('data', (d: Buffer) => (seen.receivedBytes += d.length));
  return sock;
}

/** 20 KB frames (past the 16 KB bound) 60 times a second; every 20th past ws's 64 KB payload cap. */
async function oversized(): Promise<void> {
  const big = rawFrame(JSON.stringify({ t: 'ping', n: 1, pad: 'x'.repeat(20_000) }));
  const huge = rawFrame(JSON.stringify({ t: 'ping', n: 1, pad: 'x'.repeat(70_000) }));
  while (!stopping) {
    const sock = await rawDial();
    if (!sock) {
      seen.refused++;
      await sleep(200);
      continue;
    }
    count(seen.dials, 'oversized');
    let open = true;
    sock.once('close', () => ((open = false), count(seen.closes, 'oversized')));
    for (let n = 1; !stopping && open; n++) {
      seen.sent++;
      sock.write(n % 20 === 0 ? huge : big);
      await sleep(16);
    }
    sock.destroy();
  }
}

async function refreshHonest(): Promise<void> {
  while (!stopping) {
    const r = await fetch(`${url}/api/live`, { headers: { 'x-forwarded-for': '10.66.0.2' } }).catch(() => null);
    if (r?.ok) honest = ((await r.json()) as { games: Array<{ gameId: string }> }).games.map((g) => g.gameId).filter((g) => g !== paddedGame).slice(0, 200);
    await sleep(5_000);
  }
}

/** `--only=churner` (etc.) runs one kind, beside the padder: to see what each costs the server. */
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1] ?? 'all';
const runs = (role: Role) => ONLY === 'all' || ONLY === role;
void refreshHonest();
void padder();
// The rest start once the padded game exists.
while (!paddedGame) await sleep(100);
for (let i = 0; i < 16 && runs('churner'); i++) void churner(i);
for (let i = 0; i < 16 && runs('slow'); i++) void slowReader(i);
for (let i = 0; i < 16 && runs('lobby'); i++) void lobby();
for (let i = 0; i < 15 && runs('oversized'); i++) void oversized();
await sleep(WARMUP_S * 1000);
console.log('ATTACKING');
process.on('SIGTERM', () => {
  stopping = true;
  console.log(JSON.stringify(seen));
  process.exit(0);
});
