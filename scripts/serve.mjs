#!/usr/bin/env node
// The production server: Next's request handler behind a plain node:http server, for one
// reason: only the socket knows who is really calling. `next start` hands route handlers
// whatever X-Forwarded-For the client sent, so rate limits keyed on it could be dodged by
// sending a new header with every request. Here the client address is decided once, from the
// socket and TRUST_PROXY_HOPS, and passed on in a header no client can set.
// The header carries a token made here for this process, so route handlers can tell it from a
// header a client sent to a server that does not overwrite it (plain `next start`/`next dev`).
// `npm run dev` runs this script too (LINEFALL_DEV=1: Next's development server inside).
//   PORT (3000), HOST (0.0.0.0), TRUST_PROXY_HOPS (0: the socket is the client; 1: one reverse
//   proxy in front appends the client to X-Forwarded-For; n: n proxies)
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import next from 'next';
import { CLIENT_IP_HEADER, CLIENT_IP_TOKEN_ENV, clientAddress, stampAddress } from '../lib/client-address.js';
import { MAX_REQUEST_BODY_BYTES } from '../lib/request-limits.js';

const port = Number(process.env.PORT ?? 3000);
const LISTEN_BACKLOG = 4096;
const host = process.env.HOST ?? '0.0.0.0';
const hops = Number(process.env.TRUST_PROXY_HOPS ?? 0);
if (!Number.isInteger(hops) || hops < 0) {
  console.error(`TRUST_PROXY_HOPS must be a whole number of proxies in front of the site, not "${process.env.TRUST_PROXY_HOPS}".`);
  process.exit(1);
}

// Set before Next loads: route handlers run in this process and read it (lib/server/limits/http.ts).
const token = randomBytes(16).toString('hex');
process.env[CLIENT_IP_TOKEN_ENV] = token;

const dev = process.env.LINEFALL_DEV === '1';
// On its first request Next adds its own 'upgrade' listener to the server the request came
// through (or to `httpServer`), and that listener ends sockets it has no route for, the live
// channel's included. Given this stand-in, it listens there instead; the 'upgrade' handler
// below decides which upgrades are Next's.
const nextUpgradeSink = new EventEmitter();
const app = next({ dev, hostname: host === '0.0.0.0' ? 'localhost' : host, port, httpServer: nextUpgradeSink });
const handle = app.getRequestHandler();
await app.prepare();

let warned = false;
const server = createServer((req, res) => {
  if (hops === 0 && req.headers['x-forwarded-for'] && !warned) {
    // Behind a proxy with hops = 0 every client looks like the proxy: one shared rate limit.
    warned = true;
    console.warn('[serve] requests carry X-Forwarded-For but TRUST_PROXY_HOPS is 0: if a reverse proxy is in front, set it to the number of proxies.');
  }
  req.headers[CLIENT_IP_HEADER] = stampAddress(clientAddress(req.headers['x-forwarded-for'], req.socket.remoteAddress, hops), token);
  // Next waits for the whole body before any route runs: a declared length no route accepts is
  // answered now, not after the client has sent (or failed to send) it all.
  if (Number(req.headers['content-length'] ?? 0) > MAX_REQUEST_BODY_BYTES) {
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify({ error: { code: 'payload_too_large', message: `Body exceeds ${MAX_REQUEST_BODY_BYTES} bytes` } }));
    return;
  }
  void handle(req, res);
});
// A client that declares a body and sends it slowly (or never) holds a socket at most 60 s (Node's
// default is 300 s). The clock runs while a request is being received, not while it waits for its
// answer, so a slow database under a burst never trips it (the load test's bursts hold).
server.requestTimeout = 60_000;
// An idle kept-alive connection stays open longer than any client keeps one to reuse: nginx keeps
// its upstream connections up to 60 s (keepalive_timeout), browsers and fetch a few seconds. Node's
// 5 s closed them under clients that sent on them as it did: the request was reset, unlogged.
// (A request's own headers and body still have requestTimeout above; an idle socket costs a file
// descriptor and a few kilobytes.)
server.keepAliveTimeout = 65_000;
// WebSockets: /api/live goes to the live hub (lib/server/live/hub.ts), which instrumentation.ts
// starts inside Next's server code and publishes on globalThis; in development, every other
// upgrade is the hot reload's. The hub normally exists before the first upgrade; a short wait
// covers a development server still compiling instrumentation.
const LIVE_PATH = '/api/live'; // lib/live/protocol.ts LIVE_PATH
const nextUpgrade = dev ? app.getUpgradeHandler() : null;
async function liveHub() {
  for (let waited = 0; !globalThis.__linefallLive && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  return globalThis.__linefallLive;
}
server.on('upgrade', (req, socket, head) => {
  if ((req.url ?? '').split('?')[0] === LIVE_PATH) {
    const address = clientAddress(req.headers['x-forwarded-for'], req.socket.remoteAddress, hops);
    socket.on('error', () => socket.destroy());
    void liveHub()
      .then((hub) => (hub ? hub.handleUpgrade(req, socket, head, address) : socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')))
      .catch((error) => {
        console.error('[serve] live upgrade failed:', error);
        socket.destroy();
      });
    return;
  }
  if (nextUpgrade) nextUpgrade(req, socket, head);
  else socket.destroy();
});
// A port already taken must stop this server, not leave it running beside the one that holds it.
server.on('error', (error) => {
  console.error(`[serve] ${error.message}`);
  process.exit(1);
});
// Connections not yet accepted wait in the kernel's queue, Node's default 511 long. A burst that
// overflows it while the event loop is busy (the load test opens ~2,100 at once; a crowd after a
// tournament) has the handshake's last packet dropped: the client believes it is connected and
// resends its request with doubling pauses (0.2, 0.4 … 25 s) while the server may sit idle, and a
// resend that comes after the kernel gave up on the half-open connection is answered with a
// reset (ECONNRESET, nothing in the server's log). Linux caps this at net.core.somaxconn.
server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => console.log(`[serve] ready on http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`));

// Finish the requests in flight (a replay being stored) and hand the live games over (their last
// checkpoints written, their sockets closed: lib/server/live/hub.ts drain), then exit; a second
// signal exits at once. Either way short of a finished drain exits 1, so a supervisor's log
// tells a clean stop from one that may have left games to be taken up from older checkpoints.
const STOP_WAIT_MS = 10_000;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    setTimeout(() => {
      console.error(`[serve] still stopping after ${STOP_WAIT_MS / 1000} s: exiting with what is not handed over left to the next instance`);
      process.exit(1);
    }, STOP_WAIT_MS).unref();
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    const drained = (globalThis.__linefallLive?.drain() ?? Promise.resolve(true)).then(
      (all) => all || (console.error('[serve] some live games were not handed over (database or Redis away): they are taken up from their last checkpoints'), false),
      (error) => (console.error('[serve] handing the live games over failed:', error), false),
    );
    void Promise.all([closed, drained]).then(([, handedOver]) => process.exit(handedOver ? 0 : 1));
  });
}
