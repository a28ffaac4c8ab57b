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
import { createServer } from 'node:http';
import next from 'next';
import { CLIENT_IP_HEADER, CLIENT_IP_TOKEN_ENV, clientAddress, stampAddress } from '../lib/client-address.js';
import { MAX_REQUEST_BODY_BYTES } from '../lib/request-limits.js';

const port = Number(process.env.PORT ?? 3000);
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
const app = next({ dev, hostname: host === '0.0.0.0' ? 'localhost' : host, port });
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
// A client that declares a body and sends it slowly (or never) holds a socket at most Node's
// default requestTimeout (300 s). A 60 s bound was tried; it stays at the default while the
// slower PGlite load burst (see scripts/test.mjs) is understood.
// The development server's hot reload talks over a WebSocket.
if (dev) server.on('upgrade', app.getUpgradeHandler());
// A port already taken must stop this server, not leave it running beside the one that holds it.
server.on('error', (error) => {
  console.error(`[serve] ${error.message}`);
  process.exit(1);
});
server.listen(port, host, () => console.log(`[serve] ready on http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`));

// Finish the requests in flight (a replay being stored), then exit; a second signal exits at once.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
