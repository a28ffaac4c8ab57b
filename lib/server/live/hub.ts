import 'server-only';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { LIVE_BUNDLES_PARAM, LIVE_PROTOCOL_VERSION, MAX_LIVE_MESSAGE_BYTES, parseClientMessage, type ClientMessage, type LiveGameSummary } from '@/lib/live/protocol';
import { foreignPageReason, siteOrigin } from '@/lib/security/csrf';
import { onSessionStateForgotten } from '@/lib/server/account/sessions';
import { sessionUserFromCookies } from '@/lib/server/auth';
import { requestIsHttps } from '@/lib/server/cookies';
import { env } from '@/lib/server/env';
import { guestOfCookies } from '@/lib/server/guest';
import { CLEANUP_THROTTLE_MS, cleanupInBackground } from '@/lib/server/games/cleanup';
import { guestTag } from '@/lib/server/games/guest-tag';
import { deviceIdOf } from '@/lib/server/limits/device';
import { addressKeyOf } from '@/lib/server/limits/http';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { AddressSlots, type Slot } from '@/lib/server/live/address-slots';
import { Buckets, BudgetsById } from '@/lib/server/live/budgets';
import type { LiveBus } from '@/lib/server/live/cluster/bus';
import { Connection } from '@/lib/server/live/connection';
import { PlayerSockets } from '@/lib/server/live/identity';
import type { GameHost } from '@/lib/server/live/solo/game-host';
import type { GameLeases } from '@/lib/server/live/cluster/lease';
import type { LiveHere } from '@/lib/server/live/here';
import { runMessage } from '@/lib/server/live/messages';
import { processStalls } from '@/lib/server/live/stalls';
import { VersusLobby } from '@/lib/server/live/match/versus-lobby';
import { localDoor, VersusRelay, type VersusDoor } from '@/lib/server/live/match/versus-relay';
import { MatchLeases } from '@/lib/server/live/cluster/match-leases';
import { RedisSparringLedger } from '@/lib/server/live/cluster/redis-sparring';
import { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import { TeamQueue } from '@/lib/server/live/rooms/team-queue';
import { RedisMatchCheckpoints } from '@/lib/server/live/cluster/match-checkpoints';
import { createSharedState, type SharedState } from '@/lib/server/live/cluster/shared-state';

/** How long a shutdown waits for one game's last checkpoint or store (serve.mjs exits after 10 s). */
const DRAIN_WAIT_MS = 5_000;
/** How long a socket closed by drain() may take to answer the close before it is cut. */
const CLOSE_WAIT_MS = 1_000;
/** Heartbeat: a socket that answers no ping within one interval is dead and closed; every player's session is looked at again. */
const HEARTBEAT_MS = 15_000;

/**
 * The live channel: takes WebSocket upgrades for /api/live from scripts/serve.mjs, decides who
 * the socket belongs to (the session cookie, or the guest cookie, minted on the 101 when absent),
 * enforces the per-address and per-connection limits, and routes messages (messages.ts).
 */
export class LiveHub implements LiveHere {
  readonly hosts = new Map<string, GameHost>();
  /** Set by drain(): no new sockets, games or adoptions; the process is about to exit. */
  draining = false;
  /** In memory, or on Redis shared with the other instances (shared-state.ts). */
  readonly shared: SharedState;
  readonly bus: LiveBus;
  readonly leases: GameLeases;
  /** Quick match, rooms and the versus matches being played (versus-lobby.ts): used on the versus home. */
  readonly versus: VersusLobby;
  /** Where this instance's versus messages go: its own lobby, or the versus home (versus-relay.ts). */
  readonly door: VersusDoor;
  /** Rooms of 2–16 held on this instance (rooms/room-lobby.ts; decision 0034). */
  readonly rooms = new RoomLobby();
  /** Ranked 2v2's parties and queue, used on the versus home as rooms are (rooms/team-queue.ts; decision 0036). */
  readonly teams = new TeamQueue({
    rooms: this.rooms,
    // Its own 1v1 match, or its account's ranked one on any tab (one account, one ranked game at a time).
    busy: (peer) => (peer as Connection).match?.host.ended === false || (peer.owner.userId !== null && this.versus.playsRanked(peer.owner.userId)),
  });
  /** Games hosted here per address: a start or an adoption takes a slot, the host gives it back when it closes. */
  readonly gamesByAddress = new AddressSlots(LIVE_LIMITS.gamesPerAddress);
  /** Catch-ups given per game or match, from every connection here together. */
  readonly catchUpsByGame = new BudgetsById(LIVE_LIMITS.catchUpsPerGamePerSecond, 1_000);
  readonly ticketReadsByAddress = new BudgetsById(LIVE_LIMITS.ticketReadsPerAddressPerSecond, 1_000);
  /** Adoptions under way in this process, by game: a second one for the same game waits (adopt.ts). */
  readonly adoptions = new Map<string, Promise<GameHost | null>>();
  /** Signed-in players' sockets here, checked again whenever their session changes (identity.ts). */
  readonly players = new PlayerSockets();
  private readonly socketsByAddress = new AddressSlots(LIVE_LIMITS.socketsPerAddress);
  private readonly upgradesByAddress = new Buckets(LIVE_LIMITS.upgradesPerAddress.burst, LIVE_LIMITS.upgradesPerAddress.perSecond);
  /**
   * A frame longer than any message is closed with 1009 at its header (ws's maxPayload), before
   * its payload is buffered or unmasked: no honest client sends one.
   */
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_LIVE_MESSAGE_BYTES, perMessageDeflate: false });
  /**
   * A new guest's cookie, by the upgrade request it answers: ws's one 'headers' listener (below)
   * adds it to that request's handshake only. A listener per upgrade, removed once the upgrade
   * succeeded, outlived a refused handshake and put its cookie on the next visitor's.
   */
  private readonly guestCookies = new WeakMap<IncomingMessage, string>();
  private readonly heartbeat: NodeJS.Timeout;
  /**
   * The periodic cleanup runs with each new ticket; on a quiet site this runs it anyway, so a live
   * game whose host was lost after its end is stored without waiting for someone to start one.
   */
  private readonly sweeper = setInterval(() => cleanupInBackground(new Date()), CLEANUP_THROTTLE_MS).unref();
  private readonly stopHearing: () => void;

  /** Options are for tests that run several instances in one process. */
  constructor(o: HubOptions = {}) {
    this.shared = createSharedState({
      snapshot: (gameId) => {
        const host = this.hosts.get(gameId);
        return host && !host.ended ? host.watching() : null;
      },
      watchersChanged: (gameId) => this.hosts.get(gameId)?.spectatorsChanged(),
      release: (gameId) => this.handOver(gameId, true),
      hosted: () => [...this.hosts.keys()],
      lost: (gameId) => this.handOver(gameId, false),
      versus: (wire) => (this.door instanceof VersusRelay ? this.door.receive(wire) : undefined),
      sessionChanged: (userId) => this.players.changed(userId),
    }, o.redisUrl === undefined ? env.REDIS_URL : o.redisUrl);
    this.bus = this.shared.bus;
    this.leases = this.shared.leases;
    const remote = this.shared.remote;
    // Several instances: each match is leased to the instance hosting it and checkpointed, so another takes it up if this one goes.
    const stop = (id: string) => this.versus.stop(id);
    const routing = remote ? { leases: new MatchLeases(remote.link, () => [...this.versus.matches.keys()], stop), checkpoints: new RedisMatchCheckpoints(remote.link, stop) } : null;
    const cluster = routing
      ? { checkpoints: routing.checkpoints, claim: (id: string) => routing.leases.claim(id), release: (id: string) => routing.leases.release(id), held: (id: string) => routing.leases.held(id) }
      : undefined;
    const rankedElsewhere = (userId: string) => (this.rooms.playsRanked(userId) ? 'playing' : this.teams.queuedUser(userId) ? 'queued' : null);
    // Several instances: a player's and an address's sparring budgets are the site's, not each instance's.
    const sparring = routing && remote ? { sparring: new RedisSparringLedger(remote.link, (id) => routing.leases.held(id)) } : {};
    this.versus = new VersusLobby({ bus: this.bus, rankedElsewhere, ...(cluster ? { cluster } : {}), ...sparring });
    this.door = remote ? new VersusRelay(remote.link, remote.bus, this.versus, { rooms: this.rooms, teams: this.teams }, o.versusHomeKey, routing) : localDoor(this.versus, { rooms: this.rooms, teams: this.teams });
    // A ban, a sign-out everywhere, a new password or role, a deletion: this instance's sockets of
    // that player are checked now, and every other instance's through the bus.
    this.stopHearing = o.localSessionEvents === false ? () => {} : onSessionStateForgotten((userId) => {
      this.players.changed(userId);
      remote?.bus.sessionChanged(userId);
    });
    this.wss.on('headers', (headers, req) => {
      const cookie = this.guestCookies.get(req);
      if (cookie) headers.push(`Set-Cookie: ${cookie}`);
    });
    this.heartbeat = setInterval(() => {
      for (const ws of this.wss.clients) {
        const conn = (ws as WebSocket & { conn?: Connection }).conn;
        if (conn && !conn.alive) ws.terminate();
        else if (conn) {
          conn.alive = false;
          ws.ping();
        }
      }
      void this.players.sweep();
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** `address` is the client address serve.mjs decided from the socket and TRUST_PROXY_HOPS. */
  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, address: string): Promise<void> {
    if (this.draining) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    // Gone while serve.mjs waited for the hub: nothing to upgrade, and its close would not come
    // again to give a slot back.
    if (socket.destroyed) return;
    const key = addressKeyOf(address);
    const slot = this.upgradesByAddress.take(key, performance.now()) ? this.socketsByAddress.take(key) : null;
    if (!slot) {
      socket.end('HTTP/1.1 429 Too Many Requests\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    // Held while the TCP socket is open, whatever comes of the upgrade: the session lookup below
    // waits, a handshake ws refuses is destroyed, and a WebSocket closes its socket when it goes.
    socket.once('close', slot);
    const headers = toHeaders(req);
    const https = requestIsHttps({ url: `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, headers }, {
      publicUrl: env.NEXTAUTH_URL, trustProxyHops: env.TRUST_PROXY_HOPS,
    });
    // Another site's page must not open a socket that carries this browser's cookies (the same
    // rule as every HTTP write, proxy.ts): refused before the session is looked up.
    const origin = siteOrigin({ https, publicUrl: env.NEXTAUTH_URL, trustProxyHops: env.TRUST_PROXY_HOPS, headers, host: 'localhost' });
    if (foreignPageReason(headers, origin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const cookies = parseCookies(req.headers.cookie);
    const user = await sessionUserFromCookies(cookies).catch(() => null);
    const guest = user ? null : guestOfCookies(cookies, https);
    if (guest?.setCookie) this.guestCookies.set(req, guest.setCookie);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const owner = user ? { userId: user.id, guestId: null } : { userId: null, guestId: guest!.id };
      const bundles = new URL(req.url ?? '/', 'http://live').searchParams.get(LIVE_BUNDLES_PARAM) === '1';
      const player = user ? { name: user.name ?? null, guest: false } : { name: null, guest: true, tag: guestTag(guest!.id) };
      const conn = new Connection(ws, key, owner, player, bundles, deviceIdOf(cookies));
      if (user) conn.session = { version: user.version, role: user.role, banned: user.banReason !== null };
      this.players.add(conn);
      (ws as WebSocket & { conn?: Connection }).conn = conn;
      ws.on('pong', (data) => {
        conn.alive = true;
        conn.roundTrip.pong(data);
      });
      ws.on('message', (data, isBinary) => this.onMessage(conn, data as Buffer, isBinary));
      ws.on('close', () => this.onClose(conn));
      ws.on('error', () => ws.terminate());
    });
  }

  list(): LiveGameSummary[] {
    return this.bus.list();
  }

  addGame(host: GameHost): void {
    this.hosts.set(host.gameId, host);
    this.leases.claim(host.gameId);
    host.onRecordingChange = (on) => this.leases.setRecording(host.gameId, on);
  }

  /**
   * Called by a host when it closes (game stored, refused, given up after the resume window, or
   * handed over to another instance), with the slot of gamesByAddress its start or adoption took.
   */
  removeGame(host: GameHost, slot: Slot): void {
    slot();
    if (this.hosts.get(host.gameId) !== host) return;
    this.hosts.delete(host.gameId);
    void this.leases.release(host.gameId);
  }

  /**
   * Gives a game up to another instance: asked for (its player reconnected there), with what the
   * ticket does not hold so the pause budget and a lost rank go with it; or found taken already.
   * A game past its end stays here: it is being recorded and stored. One asked for past its
   * resume window is given up instead (its lease goes once that is written, so the other instance
   * then finds the ticket given up).
   */
  private handOver(gameId: string, asked: boolean): boolean {
    const host = this.hosts.get(gameId);
    if (!host || host.ended) return false;
    if (asked) {
      const carried = host.handOver();
      if (!carried) return false;
      void this.leases.release(gameId, carried);
    }
    host.close('hand_over');
    return true;
  }

  private onMessage(conn: Connection, data: Buffer, isBinary: boolean): void {
    // Closed already (over its budget, not reading, signed out): nothing more it sends is read.
    if (!conn.open) return;
    conn.alive = true;
    const spent = conn.spend(performance.now(), processStalls());
    if (spent === 'close') return conn.close(1008, `More than ${LIVE_LIMITS.closeAtMessagesPerSecond} messages in a second.`);
    if (spent === 'notice') return conn.error('rate_limited', `At most ${LIVE_LIMITS.messagesPerSecond} messages a second.`);
    if (spent === 'drop') return;
    if (isBinary) return conn.error('bad_message', 'Messages are JSON text frames.');
    const parsed = parseClientMessage(data.toString('utf8'));
    if (!parsed.ok) return conn.error(parsed.code, parsed.message);
    this.run(conn, parsed.message);
  }

  private run(conn: Connection, message: ClientMessage): void {
    if (message.t === 'hello' && message.v !== LIVE_PROTOCOL_VERSION) {
      conn.error('unsupported_version', `This server speaks live protocol version ${LIVE_PROTOCOL_VERSION}.`);
      conn.close(4000, 'unsupported version');
      return;
    }
    runMessage(this, conn, message);
  }

  private onClose(conn: Connection): void {
    this.players.remove(conn);
    for (const stop of conn.watches.values()) stop();
    for (const gameId of conn.watches.keys()) this.hosts.get(gameId)?.spectatorsChanged();
    this.door.drop(conn);
    this.rooms.closed(conn);
    this.teams.closed(conn);
    conn.watches.clear();
    conn.host?.detach(conn);
  }

  /**
   * Before the process exits (SIGTERM: a deploy, a scale-in): every game in play writes its last
   * checkpoint and is handed over with what it carries, games past their end are stored from their
   * streams, then every socket closes with 1012 (service restart), so browsers dial again and take
   * their games up here after the restart or on another instance. Versus matches in play are
   * checkpointed and let go the same way (docs/decisions/0018-several-instances.md); one that has
   * ended is stored before the exit.
   */
  async drain(): Promise<boolean> {
    this.draining = true;
    clearInterval(this.heartbeat);
    clearInterval(this.sweeper);
    try {
      // A versus match or room set that ended is stored before the exit, its store started or waiting its turn.
      // One in play is checkpointed and let go: the instance its players reconnect to takes it up (0018).
      const matches = inTime(Promise.all([this.versus.stored(), this.rooms.stored()])).then((stored) => stored !== TIMED_OUT);
      // The home's room sets too: written for the next home, which takes them up (0034).
      if (this.door instanceof VersusRelay) {
        this.door.stopSweeping();
        await inTime(this.door.handOverRooms());
      }
      if (this.versus.handOver() > 0 && this.door instanceof VersusRelay) await inTime(this.door.flushed());
      const done = await Promise.allSettled([matches, ...[...this.hosts.values()].map(async (host) => {
        // A game whose database is away is not waited for past DRAIN_WAIT_MS: it is left as a crash leaves it.
        const carried = await inTime(host.shutDown());
        if (carried === TIMED_OUT) return false;
        if (!carried) return true;
        // Redis has the carry before the process exits (the host is frozen meanwhile: shutDown).
        const released = await this.leases.release(host.gameId, carried);
        host.close('hand_over');
        return released;
      })]);
      return done.every((r) => r.status === 'fulfilled' && r.value);
    } finally {
      for (const ws of this.wss.clients) {
        const conn = (ws as WebSocket & { conn?: Connection }).conn;
        if (conn) conn.close(1012, 'The server is restarting.');
        else ws.close(1012, 'The server is restarting.');
      }
      // A client that never answers the close (a phone gone to sleep) would hold the exit for ws's 30 s.
      setTimeout(() => {
        for (const ws of this.wss.clients) ws.terminate();
      }, CLOSE_WAIT_MS).unref();
    }
  }

  close(): void {
    clearInterval(this.heartbeat);
    clearInterval(this.sweeper);
    this.stopHearing();
    this.players.close();
    this.door.close();
    this.versus.close();
    this.rooms.close();
    this.teams.close();
    this.shared.close();
    for (const ws of this.wss.clients) ws.terminate();
  }
}

/** For tests that run several instances in one process (in production every option is the environment's). */
export type HubOptions = {
  /** Default: REDIS_URL; null for none. */
  redisUrl?: string | null;
  /** The versus home's lease key (versus-relay.ts), so such a test's hubs keep to themselves. */
  versusHomeKey?: string;
  /** False: this hub hears of session changes only through the bus, as another process would. */
  localSessionEvents?: boolean;
};

const TIMED_OUT = Symbol('timed out');

/** What `work` comes to, or TIMED_OUT if that takes longer than DRAIN_WAIT_MS. */
async function inTime<T>(work: Promise<T>): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const out = await Promise.race([work, new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), DRAIN_WAIT_MS)))]);
  clearTimeout(timer);
  return out;
}

function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    try {
      out.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // A cookie that is not valid percent-encoding is none of ours.
    }
  }
  return out;
}

function toHeaders(req: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') h.set(k, v);
  return h;
}
