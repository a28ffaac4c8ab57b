import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, type WebSocketServer } from 'ws';
import { DEFAULT_HANDLING } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import type { Connection } from '@/lib/server/live/connection';
import { LiveHub } from '@/lib/server/live/hub';
import { PACING } from '@/lib/server/live/pacing';
import { resetDb } from '@/tests/data/db';

// The round trip a wait for pieces is credited with, measured by a real hub over real sockets.
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

/**
 * A hub behind an HTTP server and one guest socket that starts a Sprint; `pongAfterMs` null
 * answers pings at once, as a browser does, a number holds each pong back that long. The
 * server's side of the socket, whose round trip the test reads.
 */
async function playing(pongAfterMs: number | null): Promise<Connection> {
  const hub = new LiveHub();
  hubs.push(hub);
  const server = createServer();
  servers.push(server);
  server.on('upgrade', (req, socket, head) => void hub.handleUpgrade(req, socket, head, '192.0.2.9'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, { autoPong: pongAfterMs === null });
  clients.push(ws);
  if (pongAfterMs !== null) ws.on('ping', (payload) => setTimeout(() => ws.readyState === ws.OPEN && ws.pong(payload), pongAfterMs));
  await once(ws, 'open');
  const started = new Promise<void>((resolve) => ws.on('message', (data) => (JSON.parse(String(data)) as ServerMessage).t === 'started' && resolve()));
  ws.send(JSON.stringify({ t: 'start', mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 1 }));
  await started;
  // The hub's side of the one socket (not exported: read here for the test only).
  const [server0] = (hub as unknown as { wss: WebSocketServer }).wss.clients;
  return (server0 as WebSocket & { conn: Connection }).conn;
}

const measured = async (conn: Connection) => {
  for (const end = Date.now() + 5_000; conn.roundTrip.ms === null; await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > end) throw new Error('no round trip measured');
  return conn.roundTrip.ms;
};

describe('the round trip of a live connection', () => {
  it('is measured from the first pieces on, with a ping the socket answers by itself', async () => {
    expect(await measured(await playing(null))).toBeLessThan(100);
  });

  it('is capped for a client that holds its pongs back', async () => {
    // A pong 600 ms late measures as the cap, not as 600 ms.
    expect(await measured(await playing(600))).toBe(PACING.starveCreditMaxMs);
  });
});
