import 'server-only';
import { LIVE_PROTOCOL_VERSION, type ClientMessage, type InputsMessage, type RoomClientMessage, type TeamClientMessage, type VersusClientMessage } from '@/lib/live/protocol';
import { START_COUNTDOWN_MS } from '@/lib/live/pace';
import { adoptLiveGame, endedGameOver } from '@/lib/server/live/solo/adopt';
import { issueTicket } from '@/lib/server/games/tickets';
import { hit } from '@/lib/server/limits/limiter';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { mayWatchMore, type Connection } from '@/lib/server/live/connection';
import { GameHost } from '@/lib/server/live/solo/game-host';
import { guarded } from '@/lib/server/live/guarded';
import type { LiveHere } from '@/lib/server/live/here';
import { identityOf } from '@/lib/server/live/identity';
import { isVersusMessage } from '@/lib/server/live/match/versus-lobby';
import { isRoomMessage } from '@/lib/server/live/rooms/room-lobby';
import { isTeamMessage } from '@/lib/server/live/rooms/team-queue';
import { spectating, watchElsewhere } from '@/lib/server/live/watch';

/** One message; a bug in its handling, thrown at once or later, answers server_error and harms nothing else. */
export function runMessage(hub: LiveHere, conn: Connection, m: ClientMessage): void {
  guarded(() => dispatch(hub, conn, m), (error) => {
    console.error('[live] a message failed:', error);
    conn.error('server_error', 'The server could not handle this message.');
  });
}

/**
 * What each client message does. Every write re-checks who the connection belongs to. Only the
 * messages whose handling waits return a promise (on the database or the bus: a resume, a start,
 * a watch of a game elsewhere; in versus, a quick-match entry, or any message relayed to the
 * versus home): a batch, the message a server reads ten thousand times a second, is handled at
 * once and leaves no promise behind.
 */
export function dispatch(hub: LiveHere, conn: Connection, m: ClientMessage): Promise<void> | void {
  if (isVersusMessage(m)) return versus(hub, conn, m);
  if (isRoomMessage(m)) return room(hub, conn, m);
  if (isTeamMessage(m)) return teams(hub, conn, m);
  // Shutting down (hub.ts drain): a game started or taken up now would not be handed over.
  if (hub.draining && (m.t === 'start' || (m.t === 'resume' && m.of.kind === 'game')))
    return conn.error('server_error', 'The server is restarting; connect again in a moment.');
  switch (m.t) {
    case 'hello':
      return conn.send({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: conn.player });
    case 'start':
      return start(hub, conn, m);
    case 'inputs':
      return batch(hub, conn, m);
    case 'pause':
    case 'unpause': {
      const host = soloHost(hub, conn, m.gameId);
      if (!host) return;
      const fail = m.t === 'pause' ? host.pause() : host.unpause();
      if (fail) conn.error(fail.code, fail.message, { gameId: m.gameId });
      return;
    }
    case 'watch':
    case 'unwatch':
    case 'resume':
    case 'leave':
      return stream(hub, conn, m);
    case 'ping':
      return conn.send({ t: 'pong', n: m.n });
    default:
      m satisfies never;
  }
}

type StreamMessage = Extract<ClientMessage, { t: 'watch' | 'unwatch' | 'resume' | 'leave' }>;

/**
 * Watching, resuming and leaving are one message each whatever they name (protocol 3): a solo game
 * is watched here; a match, a room or a set goes on as the command of the part that holds it (the
 * versus lobby's, the room lobby's, here or at the instance holding it), under its budgets.
 */
function stream(hub: LiveHere, conn: Connection, m: StreamMessage): Promise<void> | void {
  switch (m.t) {
    case 'watch':
    case 'unwatch': {
      const on = m.t === 'watch';
      switch (m.of.kind) {
        case 'game':
          return on ? watchGame(hub, conn, m.of.id) : unwatchGame(hub, conn, m.of.id);
        case 'match':
          return versus(hub, conn, { t: on ? 'vwatch' : 'vunwatch', matchId: m.of.id });
        case 'room':
          return room(hub, conn, { t: on ? 'rwatch' : 'runwatch', code: m.of.id });
        default:
          return m.of satisfies never;
      }
    }
    case 'resume':
      switch (m.of.kind) {
        case 'game':
          // A resume sends the game so far again: a catch-up. One socket asking over and over is
          // closed (the browser dials again, a little later); a browser resumes once per connection.
          // The seat's own: never held back by a crowd of watchers spending the game's budget, as a
          // match's or a set's is not (a crowd could otherwise keep its player out until given up).
          if (conn.catchUps.take(performance.now()) !== 'ok') return conn.close(1013, 'Too many catch-ups: connect again in a moment.');
          return resume(hub, conn, { gameId: m.of.id, token: m.token, setup: m.setup });
        case 'match':
          return versus(hub, conn, { t: 'vresume', matchId: m.of.id, token: m.token });
        case 'set':
          return room(hub, conn, { t: 'rresume', matchId: m.of.id, token: m.token });
        default:
          return m.of satisfies never;
      }
    case 'leave':
      switch (m.of.kind) {
        case 'match':
          return versus(hub, conn, { t: 'vleave', matchId: m.of.id });
        case 'room':
          return room(hub, conn, { t: 'rleave', code: m.of.id });
        default:
          return m.of satisfies never;
      }
    default:
      m satisfies never;
  }
}

function watchGame(hub: LiveHere, conn: Connection, gameId: string): Promise<void> | void {
  if (conn.watches.has(gameId) || !mayWatchMore(conn, hub.door.watchingElsewhere(conn), gameId)) return;
  if (!allowed(conn, catchUp(hub, conn, gameId), CATCH_UPS, gameId)) return;
  const host = hub.hosts.get(gameId);
  if (!host || host.ended) return watchElsewhere(hub, conn, gameId);
  // Subscribed first, then the catch-up: nothing published in between is lost, and frames
  // repeat nothing the catch-up had (both are built from the host's state on this one thread).
  conn.watches.set(gameId, hub.bus.subscribe(gameId, spectating(conn, gameId)));
  conn.send(host.watching());
  return host.spectatorsChanged();
}

function unwatchGame(hub: LiveHere, conn: Connection, gameId: string): void {
  // Counted, so churning watches spends the budget twice as fast, but always done.
  conn.catchUps.take(performance.now());
  conn.watches.get(gameId)?.();
  conn.watches.delete(gameId);
  hub.hosts.get(gameId)?.spectatorsChanged();
}

/**
 * A seat's batch goes to the stream it names (protocol 2): the socket's solo game, or a match or
 * room seat the socket was told it plays (streams.ts). One naming any other stream is answered
 * here as a solo game's would be, whatever it was meant for: nothing crosses to another instance.
 */
function batch(hub: LiveHere, conn: Connection, m: InputsMessage): Promise<void> | void {
  const kind = conn.host?.gameId === m.stream ? 'solo' : (conn.streams.kindOf(m.stream) ?? 'solo');
  switch (kind) {
    case 'solo': {
      const host = soloHost(hub, conn, m.stream);
      if (!host) return;
      if (m.game !== undefined || m.targets !== undefined) return conn.error('bad_message', 'A solo game\'s batch names no game of a set and no targets.', { gameId: m.stream, seq: m.seq });
      const fail = host.inputs(m.seq, m.tick, m.events, m.hash);
      if (fail) conn.error(fail.code, fail.message, { gameId: m.stream, seq: m.seq });
      return;
    }
    case 'match':
      return hub.door.handle(conn, m);
    case 'room':
      return hub.door.room(conn, m);
    default:
      kind satisfies never;
  }
}

/** The solo game this connection plays with this id, or null once it is told why not. */
function soloHost(hub: LiveHere, conn: Connection, gameId: string): GameHost | null {
  // A later resume (another tab, a reconnect) took the seat: this connection plays it no more.
  const host = conn.host?.seated(conn) ? conn.host : null;
  if (host && host.gameId === gameId) return host;
  const other = hub.hosts.get(gameId);
  if (other && !sameOwner(other, conn)) conn.error('not_your_game', 'This game is played by someone else.', { gameId });
  else conn.error('unknown_game', 'No live game or seat with this id on this connection.', { gameId });
  return null;
}

const CATCH_UPS = `At most ${LIVE_LIMITS.catchUpsPerMinute} catch-ups a minute per connection, and ${LIVE_LIMITS.catchUpsPerGamePerSecond} a second per game, match or room.`;

/**
 * Spends a catch-up of game (match, room) `id` from the connection's budget and the game's
 * (LIVE_LIMITS). A refusal for the game's sake (a crowd arriving) is always told: the spectator
 * page asks again a little later. One for the connection's is told once a window (WindowBudget).
 */
function catchUp(hub: LiveHere, conn: Connection, id: string): 'ok' | 'refuse' | 'quiet' {
  const now = performance.now();
  const mine = conn.catchUps.take(now);
  if (mine !== 'ok') return mine;
  return hub.catchUpsByGame.take(id, now) ? 'ok' : 'refuse';
}

/** Whether a budget lets a request through; a refusal is told to the client, a quiet one is not. */
function allowed(conn: Connection, spent: 'ok' | 'refuse' | 'quiet', message: string, gameId?: string): boolean {
  if (spent === 'refuse') conn.error('rate_limited', message, gameId === undefined ? {} : { gameId });
  return spent === 'ok';
}

const LOBBY = `At most ${LIVE_LIMITS.lobbyMessagesPerMinute} queue, room, rematch and sparring messages a minute.`;
const BANNED = 'This account is banned: it may watch games, not play them.';

/**
 * Versus messages go to the lobby (here, or on the versus home: versus-relay.ts) once this
 * socket's own limits allow them: the lobby's per connection, catch-ups as for solo games, and a
 * banned player plays no match (the flag the socket keeps up to date, identity.ts: this stays
 * in step with the socket's order of messages, which the relay keeps).
 */
function versus(hub: LiveHere, conn: Connection, m: VersusClientMessage): Promise<void> | void {
  const now = performance.now();
  switch (m.t) {
    case 'queue':
    case 'unqueue':
    case 'room_create':
    case 'room_join':
    case 'room_set':
    case 'ready':
    case 'rematch':
    case 'spar':
      if (!allowed(conn, conn.lobby.take(now), LOBBY)) return;
      if (conn.session?.banned && (m.t === 'queue' || m.t === 'room_create' || m.t === 'room_join' || m.t === 'spar' || (m.t === 'rematch' && m.want))) return conn.error('banned', BANNED);
      break;
    case 'vwatch':
      if (!allowed(conn, catchUp(hub, conn, m.matchId), CATCH_UPS, m.matchId)) return;
      break;
    case 'vunwatch':
      conn.catchUps.take(now);
      break;
    case 'room_leave': {
      // Past the budget, only from a socket in a room of two: a leave refused would leave its page in
      // the lobby and its seat kept. Any other (a made-up code) went on to the home, across Redis
      // from any other instance, up to 40 a second per socket.
      const spent = conn.lobby.take(now);
      if (spent !== 'ok' && !hub.door.inPairRoom(conn)) return void allowed(conn, spent, LOBBY);
      break;
    }
    case 'vresume':
      if (!allowed(conn, conn.catchUps.take(now), CATCH_UPS, m.matchId)) return;
      if (conn.session?.banned) return conn.error('banned', BANNED, { gameId: m.matchId });
      break;
    case 'vleave':
      break;
    default:
      m satisfies never;
  }
  return hub.door.handle(conn, m);
}

/**
 * Room messages (decision 0034) go to this instance's room lobby. Making, joining, readying and
 * starting rooms spend the lobby budget, as versus rooms do; watching and resuming the catch-up
 * budget; a banned player watches only.
 */
function room(hub: LiveHere, conn: Connection, m: RoomClientMessage): Promise<void> | void {
  const now = performance.now();
  switch (m.t) {
    case 'rcreate':
    case 'rjoin':
    case 'rready':
    case 'rstart':
    case 'rleave':
    case 'rkick':
    case 'rhost':
    case 'rrules':
    case 'rbot':
      if (!allowed(conn, conn.lobby.take(now), LOBBY)) return;
      if (conn.session?.banned && (m.t === 'rcreate' || m.t === 'rjoin')) return conn.error('banned', BANNED);
      break;
    case 'rwatch':
      // A watch's catch-up is every seat's whole log: a crowd arriving is held per room, as per game.
      if (!allowed(conn, catchUp(hub, conn, `room:${m.code}`), CATCH_UPS, m.code)) return;
      break;
    case 'rresume':
      // A seat's own catch-up: never held back by a crowd of watchers.
      if (!allowed(conn, conn.catchUps.take(now), CATCH_UPS)) return;
      if (conn.session?.banned) return conn.error('banned', BANNED);
      break;
    case 'runwatch':
      conn.catchUps.take(now);
      break;
    default:
      m satisfies never;
  }
  if (hub.draining && (m.t === 'rcreate' || m.t === 'rstart')) return conn.error('server_error', 'The server is restarting; connect again in a moment.');
  // Out for the set at the home (0034): its batches to that set are answered on this socket from now on.
  if (m.t === 'rleave') conn.streams.leftRoom(m.code);
  return hub.door.room(conn, m);
}

/**
 * Ranked 2v2 (decision 0035): every message spends the lobby budget (a party code is guessed no
 * faster than a room's), a banned player neither makes, joins nor queues, and nobody queues into
 * a server about to restart.
 */
function teams(hub: LiveHere, conn: Connection, m: TeamClientMessage): Promise<void> | void {
  if (!allowed(conn, conn.lobby.take(performance.now()), LOBBY)) return;
  if (conn.session?.banned && m.t !== 'tleave') return conn.error('banned', BANNED);
  if (hub.draining && m.t === 'tqueue') return conn.error('server_error', 'The server is restarting; connect again in a moment.');
  return hub.door.room(conn, m);
}

type SoloResume = { gameId: string; token: string; setup: Extract<ClientMessage, { t: 'resume' }>['setup'] };

/**
 * A resume of a solo game: the one held here, or one adopted from its ticket and log. Answered
 * `resumed`, or refused (`banned`, `resume_failed`, the adoption's refusal); a game that ended
 * meanwhile sends its `over` with the seed instead, so the page never says the game lost its rank.
 */
async function resume(hub: LiveHere, conn: Connection, r: SoloResume): Promise<void> {
  const who = await identityOf(conn);
  if (who === 'gone') return;
  if (who === 'banned') return conn.error('banned', BANNED, { gameId: r.gameId });
  const known = hub.hosts.get(r.gameId);
  const { setup } = r;
  const adopted = known ?? (setup ? await adoptLiveGame(hub, conn, { gameId: r.gameId, token: r.token, setup }) : null);
  const host = adopted instanceof GameHost ? adopted : null;
  if (!host || !sameOwner(host, conn) || (known && !host.resume(conn, r.token))) {
    const over = known ? null : await endedGameOver(conn, r.gameId, r.token);
    if (over) return conn.send(over);
    if (adopted && !(adopted instanceof GameHost)) return conn.error(adopted.code, adopted.message, { gameId: r.gameId });
    return conn.error('resume_failed', 'That game cannot be taken up again (over, given up, or not yours).', { gameId: r.gameId });
  }
  // Closed while the game was taken up from its ticket: its close found no game to leave, so the
  // game gets its resume window now, as if it had dropped after the resume.
  if (!conn.open) return host.detach(conn);
  // One game per connection: one it played before gets its resume window, as if its
  // connection had dropped, instead of living on with nobody to give it up.
  if (conn.host && conn.host !== host) conn.host.detach(conn);
  conn.host = host;
  return conn.send(host.resumed());
}

/**
 * A new live game: limits first, then its ticket, then its host. The network's game slot is taken
 * before anything is awaited (address-slots.ts) and given back unless a host comes of it.
 */
async function start(hub: LiveHere, conn: Connection, m: Extract<ClientMessage, { t: 'start' }>): Promise<void> {
  giveUpRunning(conn);
  const slot = hub.gamesByAddress.take(conn.address);
  if (!slot) return conn.error('too_many_games', `At most ${LIVE_LIMITS.gamesPerAddress} live games at once from one network.`);
  let hosted = false;
  try {
    if (!conn.mayStart(performance.now())) return conn.error('rate_limited', `At most ${LIVE_LIMITS.startsPerMinute} new games a minute.`);
    const who = await identityOf(conn);
    if (who === 'gone') return;
    if (who === 'banned') return conn.error('banned', BANNED);
    const player = conn.owner.userId ?? conn.owner.guestId!;
    const verdict = await hit([{ rule: 'ticketAddress', subject: conn.address }, { rule: 'ticketPlayer', subject: player }]);
    if (!verdict.ok) return conn.error('rate_limited', `Too many new games; try again in ${verdict.retryAfterSeconds} s.`);
    const ticket = await issueTicket({
      mode: m.mode, owner: conn.owner, live: true, setup: { handling: m.handling, nextCount: m.nextCount, ...(m.countdown ? { countdown: true } : {}) },
    });
    // The socket may have closed while the ticket was written (its close found no game to leave),
    // and another start on it may have finished meanwhile: a host seated on either would play on
    // with nobody to give it up, holding its slot and its lease for good. The unused ticket expires.
    if (!conn.open) return;
    giveUpRunning(conn);
    const host = new GameHost({
      gameId: ticket.gameId, seed: ticket.seed, mode: m.mode, rulesVersion: ticket.rulesVersion, handling: m.handling, nextCount: m.nextCount,
      owner: conn.owner, player: conn.player, bus: hub.bus, onClose: (h) => hub.removeGame(h, slot),
      ...(m.countdown ? { countdownMs: START_COUNTDOWN_MS } : {}),
    });
    hub.addGame(host);
    hosted = true;
    conn.host = host;
    return host.attach(conn);
  } finally {
    if (!hosted) slot();
  }
}

/** A restart gives the running game up, as a new ticket does. */
function giveUpRunning(conn: Connection): void {
  if (conn.host?.seated(conn) && !conn.host.ended) conn.host.close();
}

function sameOwner(host: GameHost, conn: Connection): boolean {
  const a = host.owner;
  const b = conn.owner;
  return a.userId !== null ? a.userId === b.userId : b.userId === null && a.guestId === b.guestId;
}
