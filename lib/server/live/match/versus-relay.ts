import 'server-only';
import { LIVE_PROTOCOL_VERSION, type LiveErrorCode, type RoomMessage, type ServerMessage, type TeamClientMessage, type VersusMessage } from '@/lib/live/protocol';
import type { LivePlayer } from '@/lib/live/wire';
import type { Owner } from '@/lib/server/games/owner';
import { CLUSTER, KEYS, LEASE_SCRIPTS } from '@/lib/server/live/cluster/cluster';
import { guarded } from '@/lib/server/live/guarded';
import { mayWatchMore, type Connection, type VersusPeer } from '@/lib/server/live/connection';
import type { MatchHost } from '@/lib/server/live/match/match-host';
import type { RedisBus } from '@/lib/server/live/cluster/redis-bus';
import type { VersusWire } from '@/lib/server/live/cluster/wires';
import { Placements } from '@/lib/server/live/match/placements';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import type { VersusLobby } from '@/lib/server/live/match/versus-lobby';
import { isRoomMessage, type RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import { isTeamMessage, type TeamQueue } from '@/lib/server/live/rooms/team-queue';
import { RedisRoomCheckpoints } from '@/lib/server/live/cluster/room-checkpoints';
import { RoomSetKeeper } from '@/lib/server/live/cluster/room-sets';
import { RoomHome, type LineSender } from '@/lib/server/live/cluster/room-home';
import { CLOSED, MatchHosts, type MatchRouting } from '@/lib/server/live/match/match-hosts';
import { WatchesElsewhere } from '@/lib/server/live/match/watches-elsewhere';

/** The messages that name a match and go to wherever it is hosted; the rest (queue, rooms, rematch offers) go to the home; `spar` stays on this instance (handle). */
function matchOf(m: VersusMessage): string | null {
  switch (m.t) {
    case 'inputs':
      return m.stream;
    case 'vleave':
    case 'vresume':
    case 'vwatch':
    case 'vunwatch':
      return m.matchId;
    case 'queue':
    case 'unqueue':
    case 'room_create':
    case 'room_join':
    case 'room_set':
    case 'ready':
    case 'room_leave':
    case 'rematch':
    case 'spar':
      return null;
    default:
      m satisfies never;
      return null; // a wire from a newer instance (a deploy under way) names a type this one does not know
  }
}

const ALREADY_PLAYING = 'This connection is already in a match, a room or the queue.';

/** The messages that would seat a socket at the home: queueing, making or joining a room, being ready, accepting a rematch. */
function joins(m: VersusMessage): boolean {
  if (m.t === 'ready') return m.ready;
  if (m.t === 'rematch') return m.want;
  return m.t === 'queue' || m.t === 'room_create' || m.t === 'room_join';
}

/** Messages held on the home besides versus's own: rooms of 2–16 (their seats' batches too) and ranked 2v2. */
type HomeMessage = RoomMessage | TeamClientMessage;

/**
 * A relayed message for the rooms and the 2v2 queue at the home, or null for the versus lobby's;
 * a batch is a room seat's when its sender said so (`home`: its type names no family).
 */
function forHome(m: VersusMessage | HomeMessage, home: boolean): HomeMessage | null {
  if (isRoomMessage(m) || isTeamMessage(m)) return m;
  return home && m.t === 'inputs' ? m : null;
}

/** The versus lobby's message among those relayed (forHome found it none of the home's). */
function forLobby(m: VersusMessage | HomeMessage): VersusMessage | null {
  return isRoomMessage(m) || isTeamMessage(m) ? null : m;
}
/** Rooms of 2–16 and ranked 2v2's queue, held on the home (one instance: on it). */
export type HomeLobbies = { rooms: RoomLobby; teams: TeamQueue };

function atHome(homes: HomeLobbies, peer: Parameters<RoomLobby['handle']>[0], m: HomeMessage): Promise<void> | void {
  return isTeamMessage(m) ? homes.teams.handle(peer, m) : homes.rooms.handle(peer, m);
}

/** Where a connection's versus and room messages go: the lobbies here, or the versus home elsewhere. */
export type VersusDoor = {
  /** A promise only when the message waits (a rating read, where versus runs): most are handled at once. */
  handle(conn: Connection, m: VersusMessage): Promise<void> | void;
  /** A room's or ranked 2v2's message: rooms of 2–16 and the 2v2 queue are held where the quick-match queue is. */
  room(conn: Connection, m: HomeMessage): Promise<void> | void;
  drop(conn: Connection): void;
  close(): void;
  /** Matches this socket watches on other instances, or waits to watch: they count against its watch budget here (watch.ts). */
  watchingElsewhere(conn: Connection): number;
  /** Whether the socket sits in a private room of two, here or (as told through the relay) at the home. */
  inPairRoom(conn: Connection): boolean;
};

/** One instance: every versus message goes to its own lobby. */
export const localDoor = (lobby: VersusLobby, homes: HomeLobbies): VersusDoor => ({
  handle: (conn, m) => lobby.handle(conn, m),
  room: (conn, m) => atHome(homes, conn, m),
  drop: (conn) => lobby.drop(conn),
  close: () => {},
  watchingElsewhere: () => 0,
  inPairRoom: (conn) => lobby.rooms.seats(conn),
});

/**
 * Versus across instances (docs/decisions/0018-several-instances.md). A match needs its two
 * players, and the quick-match queue all who wait, in one process: one instance, the versus home,
 * runs the lobby (queue, rooms, matches, their spectators), chosen by a lease on Redis like a live
 * game's host. The others relay their sockets' versus messages to it in order, and its answers
 * back, so a player may be connected to any instance, and come back to another after a drop.
 */
export class VersusRelay implements VersusDoor {
  private home: string | null = null;
  private claiming: Promise<string | null> | null = null;
  private readonly timer: NodeJS.Timeout;
  /** On the home: the players of other instances, by `${instance}:${connection id}`. */
  private readonly peers = new Map<string, RelayedPeer>();
  /** Here: this instance's sockets whose versus messages went to another instance, by connection id. */
  private readonly relayed = new Map<string, Connection>();
  /** Each relayed socket's instances (the home, and the hosts of its matches): each hears of its close. */
  private readonly relayedTo = new Map<string, Set<string>>();
  /** Where new matches are hosted: on seat 0's instance, asked by the home (placements.ts). */
  private readonly placements: Placements | null;
  /** Where each match is hosted, and the take-up here of one whose host died (with routing only). */
  private readonly hosts: MatchHosts | null;
  /** On the home: its own sockets whose match it placed elsewhere, by connection id (named so in the report back). */
  private readonly locals = new Map<string, Connection>();
  /** Here: sockets queued or in a room at the home, by connection id: told to queue again if the home goes. */
  private readonly waiting = new Map<string, Connection>();
  /** Here: the room each socket sits in or watches at the home, by connection id (told it closed if the home goes). */
  private readonly roomCodes = new Map<string, string>();
  /** Instances whose relayed peers were missing from the list at the last look (forgetGone). */
  private missing = new Set<string>();
  /** Sockets here seated in a private versus room of two at the home: its next home takes it up, so they dial again if it goes. */
  private readonly inPairRooms = new Set<string>();
  /** Here: the matches each socket watches on another instance or waits to (watched again if that instance goes), counted against its budget. */
  private readonly watches = new WatchesElsewhere();
  /** The home's room sets on Redis, taken up by the next home, and room messages' order meanwhile (with routing only: no versus home for matches). */
  private readonly roomSets: RoomHome | null;
  /** When this instance last renewed (or took) the home: a home that cannot for a lease's time is one no more. */
  private renewedAt = 0;
  /** Handed over (the server stops): this instance takes the home no more. */
  private leaving = false;
  /** The home a relayed message last found gone, until the next is known: what homeGone is told of. */
  private wentAway: string | null = null;

  constructor(
    private readonly link: RedisLink,
    private readonly bus: RedisBus,
    private readonly lobby: VersusLobby,
    /** Rooms of 2–16 and ranked 2v2: held on the home, as the queue is, so a room's code or a party's works through any instance. */
    private readonly homes: HomeLobbies,
    /** Tests give each cluster of relays a home of its own. */
    private readonly homeKey: string = KEYS.versusHome,
    /** Without it, matches live on the home like its queue (the relay's tests of the home alone). */
    private readonly routing: MatchRouting | null = null,
  ) {
    this.placements = routing ? new Placements(this.parts()) : null;
    this.hosts = routing ? new MatchHosts({ routing, lobby, instance: link.instance, placements: this.placements, relay: (c, m, to, id) => this.relay(c, m, to, id) }) : null;
    const isHome = () => this.home === link.instance;
    this.roomSets = routing
      ? new RoomHome({ keeper: new RoomSetKeeper(new RedisRoomCheckpoints(link, homeKey), homes.rooms, isHome, lobby.rooms), rooms: homes.rooms, versus: lobby.rooms, isHome, claim: () => this.claim() })
      : null;
    if (this.placements) lobby.setPlacer((p) => this.placements!.place(p));
    if (routing) lobby.rooms.setHeld(isHome);
    if (routing) lobby.setLetGo((matchId, spectators, rewatchHere) => this.letGo(matchId, spectators, rewatchHere));
    this.timer = setInterval(() => void this.claim().then(() => this.forgetGone()), CLUSTER.renewEveryMs);
    this.timer.unref();
    void this.claim();
  }

  private parts(): ConstructorParameters<typeof Placements>[0] {
    return {
      instance: this.link.instance, bus: this.bus, lobby: this.lobby,
      home: () => this.link.cmd.get(this.homeKey).catch(() => null),
      inPlay: (matchId) => this.routing?.checkpoints.exists(matchId).catch(() => false) ?? Promise.resolve(false),
      local: (peer, to) => {
        const conn = this.relayed.get(peer);
        return conn && this.relayedTo.get(peer)?.has(to) ? conn : null;
      },
      remote: (ref, who) => {
        const key = `${ref.instance}:${ref.peer}`;
        const known = this.peers.get(key);
        if (known) return known;
        const peer = this.peerFor(ref.instance, ref.peer, who);
        this.peers.set(key, peer);
        return peer;
      },
      find: (ref) => (ref.instance === this.link.instance ? (this.locals.get(ref.peer) ?? this.relayed.get(ref.peer) ?? null) : (this.peers.get(`${ref.instance}:${ref.peer}`) ?? null)),
      refOf: (p) => {
        if (p instanceof RelayedPeer) return { instance: p.from, peer: p.peer };
        if (!('id' in p) || typeof p.id !== 'string') return null;
        this.locals.set(p.id, p as Connection);
        return { instance: this.link.instance, peer: p.id };
      },
      notStarted: (ref, message) => {
        if (ref.instance === this.link.instance) return void this.relayed.get(ref.peer)?.error('server_error', message);
        void this.bus.tell(ref.instance, { k: 'vout', from: this.link.instance, peer: ref.peer, m: { t: 'error', code: 'server_error', message }, v: LIVE_PROTOCOL_VERSION });
      },
    };
  }

  private peerFor(from: string, peer: string, who: Extract<VersusWire, { k: 'vin' }>['who']): RelayedPeer {
    return new RelayedPeer(
      from, peer, who.owner, who.player, who.address, who.device ?? null,
      (m) => void this.bus.tell(from, { k: 'vout', from: this.link.instance, peer, m, v: LIVE_PROTOCOL_VERSION }),
      (code, reason) => void this.bus.tell(from, { k: 'vkick', from: this.link.instance, peer, code, reason }),
    );
  }

  async handle(conn: Connection, m: VersusMessage): Promise<void> {
    // A match against the bot is the player's own instance's: it never needs the home.
    if (m.t === 'spar' && this.routing) {
      // This lobby cannot see the home's queue and rooms: a socket waiting there is not seated here too.
      if (this.waiting.has(conn.id)) return conn.error('already_playing', 'This connection is already in a match, a room or the queue.');
      return this.lobby.handle(conn, m);
    }
    const hosts = this.hosts;
    const matchId = hosts ? matchOf(m) : null;
    if (hosts && matchId !== null) {
      if (m.t === 'vresume' && hosts.refused(conn)) {
        return conn.error('rate_limited', 'Too many resumes of matches that are not yours on this connection: reconnect to resume your match.', { gameId: matchId });
      }
      // A batch or a leave names a match this socket was told it sits in (streams.ts), or one hosted here:
      // any other is answered here, so a flood of made-up ids costs Redis nothing.
      if ((m.t === 'inputs' || m.t === 'vleave') && !hosts.hostedHere(matchId) && conn.streams.kindOf(matchId) !== 'match') return this.lobby.handle(conn, m);
      const to = await hosts.hostOf(conn, m, matchId);
      if (!conn.open || to === CLOSED) return;
      if (m.t === 'vunwatch') this.watches.unwatch(conn.id, matchId);
      if (to === this.link.instance) {
        if (m.t === 'vwatch') {
          this.watches.end(conn.id, matchId);
          if (!conn.watches.has(matchId) && !this.withinWatchBudget(conn, matchId)) return;
        }
        return this.lobby.handle(conn, m);
      }
      if (to !== null) {
        if (m.t === 'vwatch' && !this.watchElsewhere(conn, matchId, to)) return;
        return this.relay(conn, m, to, matchId);
      }
      // A watch of a match whose host died waits for a player to take it up; nobody holds it, so this is its first look.
      if (m.t === 'vwatch') return this.watchNext(conn, matchId, null);
      // Nobody hosts it (over, never was, or not this player's to take up): answered here as by any lobby that does not hold it.
      return this.lobby.handle(conn, m);
    }
    const home = this.home ?? (await this.claim());
    if (!conn.open) return; // closed while the home was being looked up: nothing to relay or undo
    if (!home) return conn.error('server_error', 'Versus is unavailable for a moment (the instances cannot agree where it runs): try again.');
    if (home === this.link.instance) return this.atHome(conn, conn.id, m);
    // The home cannot see a match hosted here (a sparring one, one taken up, or about to start): a socket in one is not paired there too.
    if (joins(m) && this.playsHere(conn)) return conn.error('already_playing', ALREADY_PLAYING);
    return this.relay(conn, m, home, null);
  }

  /**
   * A room message goes to the home, as a queue's does: the room (and a set it plays) is held
   * there, its answers and frames come back through Redis.
   */
  async room(conn: Connection, m: HomeMessage): Promise<void> {
    const home = this.home ?? (await this.claim());
    if (!conn.open) return;
    if (!home) return conn.error('server_error', 'Rooms are unavailable for a moment (the instances cannot agree where they run): try again.');
    if (m.t === 'runwatch') this.roomSets?.forget(conn.id);
    if (home === this.link.instance) return this.roomSets ? this.roomSets.inOrder(() => atHome(this.homes, conn, m), conn, conn.id, this.heldHere(m)) : atHome(this.homes, conn, m);
    // The home cannot see a match hosted here (a sparring one, one taken up): a player in one is not queued for ranked 2v2 there too.
    if ((m.t === 'tqueue' || m.t === 'tparty' || m.t === 'tjoin') && this.playsHere(conn)) return conn.error('already_playing', ALREADY_PLAYING);
    // A batch names a set this socket was told it sits in (streams.ts): any other is answered here, so a flood of made-up ids costs Redis nothing.
    if (m.t === 'inputs' && conn.streams.kindOf(m.stream) !== 'room') return atHome(this.homes, conn, m);
    // Its leave answers nothing to the leaver (the room is told): it waits at the home no more.
    if (m.t === 'rleave' && this.roomCodes.get(conn.id) === m.code) this.notWaiting(conn.id);
    return this.relay(conn, m, home, null, true);
  }

  /**
   * A versus message at the home: the lobby's (queue, rooms of two, offers) wait, in order, behind
   * a take-up under way (room-home.ts), so a page dialling again finds its room rebuilt and a
   * socket's leave and queue are heard in the order sent; a match's at once.
   */
  private atHome(peer: VersusPeer & LineSender, key: string, m: VersusMessage): Promise<void> | void {
    if (!this.roomSets || matchOf(m) !== null) return this.lobby.handle(peer, m);
    return this.roomSets.inOrder(() => this.lobby.handle(peer, m), peer, key);
  }

  /** In a match hosted here (a sparring one, one taken up) or starting one: the home, which cannot see it, would seat the socket twice. */
  private playsHere(conn: Connection): boolean {
    return (conn.match !== null && !conn.match.host.ended) || this.lobby.startingSpar(conn);
  }

  /** A socket here now speaks with another instance: its answers come back to it, and its close goes there. */
  private track(conn: Connection, to: string): void {
    conn.relayedTo = to;
    this.relayed.set(conn.id, conn);
    const all = this.relayedTo.get(conn.id) ?? new Set<string>();
    this.relayedTo.set(conn.id, all.add(to));
  }

  /**
   * An instance that speaks to this socket holds a peer for it (the home offering a rematch to a
   * socket that came back through here): its close must reach that instance too. Where the
   * socket's messages go is left as it is.
   */
  private heardBy(conn: Connection, from: string): void {
    const all = this.relayedTo.get(conn.id) ?? new Set<string>();
    if (all.has(from)) return;
    this.relayedTo.set(conn.id, all.add(from));
    this.relayed.set(conn.id, conn);
    conn.relayedTo ??= from;
  }

  /** `rooms`: the message is for the rooms at the home (room()); a batch's type alone does not say whose stream it is. */
  private async relay(conn: Connection, m: VersusMessage | HomeMessage, to: string, matchId: string | null, rooms = false): Promise<void> {
    this.track(conn, to);
    // Sent at once (the order of a socket's messages is the order of these calls); checked after.
    const home = rooms && m.t === 'inputs' ? { home: true as const } : {};
    const heard = await this.bus.tell(to, { k: 'vin', from: this.link.instance, peer: conn.id, who: { owner: conn.owner, player: conn.player, address: conn.address, device: conn.device }, m, ...home, v: LIVE_PROTOCOL_VERSION });
    if (heard !== 0) return;
    if (matchId !== null) {
      // The match's host is gone (its lease has not expired yet). A resume waits for the lease to
      // go and takes the match up here; a batch from a socket still open closes it, so the browser
      // reconnects and resumes with its token (only a seated player's resume takes a match up).
      this.routing?.leases.forget(matchId);
      if (m.t === 'vresume') return this.hosts!.resumeOrphan(conn, m);
      if (m.t === 'inputs') return conn.close(1012, 'The server hosting your match has gone: reconnecting takes it up elsewhere.');
      if (m.t === 'vwatch') return this.watchNext(conn, matchId, to);
      if (m.t === 'vunwatch') return this.watches.end(conn.id, matchId); // nothing watched there any more, and no answer to wait for
      return conn.error('server_error', 'The server hosting this match has just gone; try again in a few seconds.', { gameId: matchId });
    }
    // The home is gone (its lease has not expired yet): look again from the next message on, and
    // once another holds it, its sockets here that waited there hear it (homeGone).
    if (this.home === to) {
      this.home = null;
      this.wentAway = to;
    }
    if (this.roomSets && rooms && m.t === 'inputs') return conn.close(1012, 'The server holding your room has gone: reconnecting takes your set up again.');
    // A page dialling again to its set, or to its room (a lobby's seat is kept for it there): it waits for the next home.
    if (this.roomSets && (m.t === 'rresume' || m.t === 'rwatch' || m.t === 'rjoin')) return this.atNextHome(conn, to, () => this.room(conn, m));
    if (this.roomSets && m.t === 'room_join') return this.atNextHome(conn, to, () => this.handle(conn, m));
    conn.error('server_error', 'The server running versus has just gone; try again in a few seconds.');
  }

  /**
   * A spectator's match whose host (`gone`) died: it is watched again where a player's resume takes
   * it up, the catch-up then from its checkpoint; a match nobody takes up is answered as over. A
   * wait counts against the socket's watch budget with its other watches (a match it watched
   * already keeps its place, so a move is never refused).
   */
  private async watchNext(conn: Connection, matchId: string, gone: string | null): Promise<void> {
    if (this.watches.waiting(conn.id, matchId)) return;
    // Unwatched while its host was found gone: nothing to wait for.
    if (this.watches.unwatchedEarly(conn.id, matchId) || !this.withinWatchBudget(conn, matchId)) return this.watches.end(conn.id, matchId);
    this.watches.wait(conn.id, matchId);
    const to = await this.hosts!.nextHost(matchId, gone);
    // Unwatched (or closed) meanwhile: nothing more to do.
    if (!this.watches.stopWaiting(conn.id, matchId) || !conn.open) return;
    const m = { t: 'vwatch', matchId } as const;
    // Nobody took it up (the page is told), or taken up here: it is watched elsewhere no more.
    if (to === null || to === this.link.instance) {
      this.watches.end(conn.id, matchId);
      return this.lobby.handle(conn, m);
    }
    // Counted from here on, as any watch relayed (the wait held its place until now).
    this.watches.asked(conn.id, matchId, to);
    return this.relay(conn, m, to, matchId);
  }

  /** Whether a room message names a set or room held here (it need not wait on a take-up); the 2v2 queue's always wait. */
  private heldHere(m: HomeMessage): boolean {
    return !isTeamMessage(m) && this.homes.rooms.holds(m);
  }

  /** A room set's resume (or watch), or a room's join, whose home did not answer: once another instance holds the home (at most a lease's time), it goes there (`again`). */
  private async atNextHome(conn: Connection, was: string, again: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + CLUSTER.leaseMs + 2 * CLUSTER.renewEveryMs;
    while (conn.open && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const home = await this.claim();
      if (conn.open && home !== null && home !== was) return again();
    }
    if (conn.open) conn.error('server_error', 'The server holding rooms has just gone; try again in a few seconds.');
  }

  /**
   * The server stops: the home's room sets are written for the next home, stop here unstored (every
   * socket is closed as the drain ends), and the home is let go, so the next instance to look takes
   * it and the sets up at once. This instance takes the home no more.
   */
  async handOverRooms(): Promise<void> {
    if (!this.roomSets) return;
    await this.roomSets.handOver();
    this.leaving = true;
    if (this.home !== this.link.instance) return;
    this.home = null;
    this.homes.rooms.stopSets();
    await this.link.cmd.eval(LEASE_SCRIPTS.drop, 1, this.homeKey, this.link.instance).catch(() => {});
  }

  /** Settles once Redis has every write sent before it (checkpoints, leases let go): a shutdown waits for it. */
  async flushed(): Promise<void> {
    await this.link.cmd.ping().catch(() => {});
  }

  drop(conn: Connection): void {
    this.lobby.drop(conn);
    this.placements?.drop(conn);
    this.locals.delete(conn.id);
    this.waiting.delete(conn.id);
    this.roomCodes.delete(conn.id);
    this.inPairRooms.delete(conn.id);
    this.roomSets?.forget(conn.id);
    this.watches.drop(conn.id);
    if (!conn.relayedTo) return;
    this.relayed.delete(conn.id);
    const all = this.relayedTo.get(conn.id) ?? new Set([conn.relayedTo]);
    this.relayedTo.delete(conn.id);
    for (const to of all) void this.bus.tell(to, { k: 'vclose', from: this.link.instance, peer: conn.id });
  }

  /** A wire from another instance (redis-bus.ts hands it over). */
  receive(w: VersusWire): void {
    if ((w.k === 'vin' || w.k === 'vout') && w.v !== LIVE_PROTOCOL_VERSION) return this.otherVersion(w);
    if (w.k === 'vhost') return void this.placements?.host(w).catch((error: unknown) => console.error('[live] hosting a placed match failed:', error));
    if (w.k === 'vafter') return this.placements?.after(w);
    if (w.k === 'vtaken') return this.placements?.taken(w);
    if (w.k === 'vhosting') return this.placements?.hosting(w);
    if (w.k === 'vmoved') return this.watchOn(w.from, w.matchId);
    if (w.k === 'vout') {
      // On the home, its own sockets whose match it placed elsewhere hear from that match's host too.
      const conn = this.relayed.get(w.peer) ?? this.locals.get(w.peer);
      if (conn) {
        // A match hosted there now names this socket: its close must reach that instance too.
        if (w.m.t === 'match') this.track(conn, w.from);
        else this.heardBy(conn, w.from);
        this.noteWaiting(conn, w.m);
        if (this.watches.heard(conn.id, w.from, w.m)) conn.send(w.m);
        // Ended here before this catch-up came (the one asked for, or a new game's): ended there too (the
        // page's own `vunwatch` may have gone elsewhere, as its match moved; a second is harmless).
        else if (w.m.t === 'vwatching') void this.relay(conn, { t: 'vunwatch', matchId: w.m.matchId }, w.from, w.m.matchId);
        return;
      }
      // An answer for a socket gone from here: its `vclose` was lost, so it is said again.
      void this.bus.tell(w.from, { k: 'vclose', from: this.link.instance, peer: w.peer });
      return;
    }
    // Only an instance this socket speaks with (the home, its match's host) may close it.
    if (w.k === 'vkick') return void (this.relayedTo.get(w.peer)?.has(w.from) && this.relayed.get(w.peer)?.close(w.code, w.reason));
    const key = `${w.from}:${w.peer}`;
    if (w.k === 'vclose') return this.dropPeer(key);
    const atHomeM = forHome(w.m, w.home === true);
    const m = atHomeM ? null : forLobby(w.m);
    // A message for a match hosted here whose lease lapsed (a stall): stopped before anything is done with it.
    const matchId = m ? matchOf(m) : null;
    if (matchId !== null) this.hosts?.hostedHere(matchId);
    // A batch for a match not hosted here any more (handed over or stopped a moment ago; its sender's
    // instance sends only a seat's own): that instance's routing is a second old. Its socket dials
    // again and resumes where the match is now, rather than hearing it is unknown.
    if (m?.t === 'inputs' && this.hosts && !this.lobby.matches.has(m.stream))
      return void this.bus.tell(w.from, { k: 'vkick', from: this.link.instance, peer: w.peer, code: 1012, reason: 'Your match moved to another server: reconnecting resumes it there.' });
    let peer = this.peers.get(key);
    if (!peer) {
      peer = this.peerFor(w.from, w.peer, w.who);
      this.peers.set(key, peer);
    }
    const home = this.roomSets;
    guarded(() => {
      if (atHomeM) return home ? home.inOrder(() => atHome(this.homes, peer, atHomeM), peer, key, this.heldHere(atHomeM)) : atHome(this.homes, peer, atHomeM);
      if (m) return this.atHome(peer, key, m);
    }, (error) => {
      console.error('[live] a relayed versus message failed:', error);
      peer.error('server_error', 'The server could not handle this message.');
    });
  }

  /**
   * A player's message, or an answer, from an instance of another protocol version (a deploy under
   * way): neither side would read the other's batches and answers, so nothing is half-heard. The
   * socket is closed 1012 and dials again; a server of another version than its page's tells the
   * page to reload (unsupported_version), and the old instances are soon gone.
   */
  private otherVersion(w: Extract<VersusWire, { k: 'vin' | 'vout' }>): void {
    const reason = 'The servers are being updated: reconnecting finds one of your page\'s version.';
    if (w.k === 'vin') return void this.bus.tell(w.from, { k: 'vkick', from: this.link.instance, peer: w.peer, code: 1012, reason });
    (this.relayed.get(w.peer) ?? this.locals.get(w.peer))?.close(1012, reason);
  }

  /** A relayed socket closed (or its instance is gone): the lobby drops it, as it would its own. */
  private dropPeer(key: string): void {
    const peer = this.peers.get(key);
    if (!peer) return;
    this.peers.delete(key);
    peer.open = false;
    this.placements?.drop(peer);
    for (const stop of peer.watches.values()) stop();
    this.lobby.drop(peer);
    this.homes.rooms.closed(peer);
    this.homes.teams.closed(peer);
    peer.watches.clear();
  }

  /**
   * On the home: the players of an instance that stopped (it no longer lists itself, every second,
   * in redis-bus.ts) are dropped, so a dead instance's players leave the queue and their rooms,
   * and their match seats start their resume window, instead of waiting there for ever.
   */
  private async forgetGone(): Promise<void> {
    // On the home, on any instance hosting matches for other instances' players, and where sockets watch matches elsewhere.
    if (this.peers.size === 0 && !this.placements?.placing && !this.watches.any) return;
    const now = Date.now();
    this.watches.expire(now, 2 * CLUSTER.leaseMs);
    const alive = new Set(await this.link.cmd.zrangebyscore(KEYS.listers, now - CLUSTER.listTtlMs, '+inf').catch(() => null));
    if (alive.size === 0) return; // Redis away or the list not written yet: nothing to go by
    // An instance missing at two looks in a row (one may fall between Redis's restart and its next listing).
    const missing = new Set([...this.peers.values()].map((p) => p.from).filter((from) => !alive.has(from)));
    const gone = new Set([...missing].filter((from) => this.missing.has(from)));
    this.missing = missing;
    // A peer newer than the list's expiry may come from an instance that has not listed itself yet.
    for (const [key, peer] of this.peers) {
      if (!gone.has(peer.from) || now - peer.since <= CLUSTER.listTtlMs) continue;
      // Its instance may only be late to list itself (a stalled loop, Redis slow), its socket alive:
      // closed, the page dials again and takes its seat and room back, rather than speaking on to a
      // lobby that no longer seats it. A dead instance hears nothing.
      peer.close(1012, 'The server lost track of your connection: reconnecting sits you back where you were.');
      this.dropPeer(key);
    }
    this.placements?.gone(alive, now - CLUSTER.listTtlMs);
    this.watchAgain(alive, now - CLUSTER.listTtlMs);
  }

  /** Stores here the decided matches whose host went before it stored them (MatchHosts.sweep; on a timer too). */
  sweepDecided(): Promise<number> {
    return this.hosts?.sweep() ?? Promise.resolve(0);
  }

  /** The server stops: it takes no decided match up to store any more (another instance will). */
  stopSweeping(): void {
    this.hosts?.close();
  }

  close(): void {
    clearInterval(this.timer);
    this.hosts?.close();
    this.roomSets?.close();
    this.routing?.leases.close();
    if (this.home === this.link.instance) void this.link.cmd.eval(LEASE_SCRIPTS.drop, 1, this.homeKey, this.link.instance).catch(() => {});
  }

  private noteWaiting(conn: Connection, m: ServerMessage): void {
    // A seat's set names its room too: a ranked 2v2 set's players saw no rroom before it.
    if (m.t === 'rroom' || (m.t === 'rmatch' && m.seat !== null)) this.roomCodes.set(conn.id, m.code);
    if (m.t === 'room') this.inPairRooms.add(conn.id);
    else if (m.t === 'room_closed' || m.t === 'match') this.inPairRooms.delete(conn.id);
    // In a set (its seat, or watching): told to dial again if the home goes, and resumes it at the next.
    this.roomSets?.note(conn, m);
    if (m.t === 'rclosed') return this.notWaiting(conn.id);
    // A watcher's view of the room (no seat of its own): it is told if the home goes, but sits in nothing there.
    if (m.t === 'rroom' && m.you === null) return;
    const waits = WAITS[m.t];
    if (waits === true) this.waiting.set(conn.id, conn);
    else if (waits === false) this.waiting.delete(conn.id);
  }

  /**
   * A watch relayed to another instance is counted here from its request on, with the socket's
   * watches here and those waiting for a take-up: each host counts only its own, so one socket
   * would otherwise watch the budget on every instance. False (and the socket told) past the budget.
   */
  private watchElsewhere(conn: Connection, matchId: string, at: string): boolean {
    if (!this.withinWatchBudget(conn, matchId)) return false;
    this.watches.asked(conn.id, matchId, at);
    return true;
  }

  watchingElsewhere(conn: Connection): number {
    return this.watches.count(conn.id);
  }

  inPairRoom(conn: Connection): boolean {
    return this.inPairRooms.has(conn.id) || this.lobby.rooms.seats(conn);
  }

  /** Whether the socket may watch this match: one it watches or waits for already, or a new one within its budget (the socket is told if not). */
  private withinWatchBudget(conn: Connection, matchId: string): boolean {
    return this.watches.holds(conn.id, matchId) || mayWatchMore(conn, this.watches.count(conn.id), matchId);
  }

  /** Sockets here watching a match on an instance no longer listed: the next look finds it gone (nobody hears), and waits for its take-up. */
  private watchAgain(alive: Set<string>, listedSince: number): void {
    for (const { id, matchId } of this.watches.lost(alive, listedSince)) {
      const conn = this.relayed.get(id);
      if (conn?.open) this.rewatch(conn, matchId);
      else this.watches.drop(id);
    }
  }

  /**
   * A match hosted here let go, still in play: the instances of its relayed spectators hear it at
   * once (`vmoved`); those with a socket here look for where it goes on, as after its host died
   * (the lease may still name this instance: it is the one gone).
   */
  private letGo(matchId: string, spectators: VersusPeer[], rewatchHere: boolean): void {
    const to = new Set<string>();
    this.routing?.leases.forget(matchId);
    for (const peer of spectators) {
      if (peer instanceof RelayedPeer) to.add(peer.from);
      else if (rewatchHere && socketHere(peer)) void this.watchNext(peer, matchId, this.link.instance).catch((error: unknown) => console.error('[live] watching a match again failed:', error));
    }
    for (const instance of to) void this.bus.tell(instance, { k: 'vmoved', from: this.link.instance, matchId });
  }

  /** `from` let a match go that sockets here watch there: they look for where it goes on, as after its host died. */
  private watchOn(from: string, matchId: string): void {
    this.routing?.leases.forget(matchId);
    for (const id of this.watches.watchersAt(from, matchId)) {
      const conn = this.relayed.get(id);
      if (conn?.open) this.rewatch(conn, matchId);
    }
  }

  /** Asked again where the match is now: a host that lives (unlisted a moment) ignores the watch it has and answers nothing. */
  private rewatch(conn: Connection, matchId: string): void {
    if (!this.watches.again(conn.id, matchId)) return;
    void this.handle(conn, { t: 'vwatch', matchId }).catch((error: unknown) => console.error('[live] watching a match again failed:', error));
  }

  private notWaiting(id: string): void {
    this.roomSets?.forget(id);
    this.roomCodes.delete(id);
    this.inPairRooms.delete(id);
    this.waiting.delete(id);
  }

  /**
   * The home moved (it died, or lost Redis): its queue went with it, but no match did (they are
   * hosted on their players' instances) and its rooms are taken up by the next home. Sockets here
   * that queued there hear it and queue again (the new home's queue is rebuilt from those
   * re-queues); those in a room dial again and find it at the next home.
   */
  private homeGone(was: string): void {
    // A room's set is taken up by the next home from its checkpoint: the page dials again and resumes it there.
    this.roomSets?.gone((id) => {
      if (!this.relayedTo.get(id)?.has(was)) return false;
      this.notWaiting(id);
      return true;
    });
    for (const [id, conn] of this.waiting) {
      if (!this.relayedTo.get(id)?.has(was) || (conn.match && !conn.match.host.ended)) continue;
      // A room in its lobby (a room of two too) is taken up by the next home, its seat kept: the page dials again and sits back in it.
      if (this.roomSets && (this.roomCodes.has(id) || this.inPairRooms.has(id))) {
        this.notWaiting(id);
        if (conn.open) conn.close(1012, 'The server holding your room has gone: reconnecting sits you in it again.');
        continue;
      }
      this.waiting.delete(id);
      if (conn.open) conn.error('server_error', 'The server holding the quick-match queue and rooms went away: queue again (or make a new room).');
      // A room's page shows it closed (a set in play there is lost with it, decision 0034).
      const code = this.roomCodes.get(id);
      this.roomCodes.delete(id);
      if (conn.open && code) conn.send({ t: 'rclosed', code, reason: 'refused' });
    }
    // A room's watcher (in its lobby): the page dials again and watches it at the next home.
    for (const id of this.roomSets ? this.roomCodes.keys() : []) {
      if (!this.relayedTo.get(id)?.has(was)) continue;
      const conn = this.relayed.get(id);
      this.notWaiting(id);
      if (conn?.open) conn.close(1012, 'The server holding the room you watch has gone: reconnecting watches it again.');
    }
  }

  /** Takes the home if nobody holds it, renews it if this instance does; returns the holder. */
  private claim(): Promise<string | null> {
    this.claiming ??= (async () => {
      const { cmd, instance } = this.link;
      try {
        if (this.home === instance && (await cmd.eval(LEASE_SCRIPTS.renew, 1, this.homeKey, instance, CLUSTER.leaseMs)) === 1) {
          this.renewedAt = Date.now();
          return instance;
        }
        const set = this.leaving ? null : await cmd.set(this.homeKey, instance, 'PX', CLUSTER.leaseMs, 'NX');
        const was = this.home ?? this.wentAway;
        this.home = set === 'OK' ? instance : await cmd.get(this.homeKey);
        if (this.home === instance && (set === 'OK' || was !== instance)) this.renewedAt = Date.now();
        // Just made the home (at start too): the sets the last home checkpointed are taken up here before any room message is handled.
        if (this.home === instance && was !== instance) void this.roomSets?.takeUp();
        else if (was === instance && this.home !== instance) this.roomSets?.lost();
        if (was !== null && was !== this.home) this.homeGone(was);
        if (this.home !== null) this.wentAway = null;
      } catch {
        // Redis away: the last home known stays the guess; a relayed message may then be lost.
      }
      // This instance could not renew the home for a lease's time (Redis away, or a stall): another
      // may hold it and take its sets up, so they stop here; taking the home again is a take-up.
      if (this.roomSets && this.home === instance && Date.now() - this.renewedAt > CLUSTER.leaseMs) {
        this.home = null;
        this.roomSets.lost();
      }
      return this.home;
    })().finally(() => (this.claiming = null));
    return this.claiming;
  }
}

/**
 * Whether a socket waits at the home (queued, in a room, playing a room's set), by the home's
 * answers it relays. A room's set ends with `rover`: a room's lobby then sends `rroom` again, a
 * ranked 2v2 set's (which follows `tqueued`, no `tunqueued`) nothing.
 */
const WAITS: Partial<Record<ServerMessage['t'], boolean>> = {
  queued: true, room: true, unqueued: false, room_closed: false, match: false, rroom: true, rclosed: false, rover: false, tqueued: true, tunqueued: false,
};

/** A peer of the lobby's that is a socket on this instance: neither relayed here nor the sparring bot (which has no id). */
const socketHere = (peer: VersusPeer): peer is Connection => !(peer instanceof RelayedPeer) && 'id' in peer;

/** A player connected to another instance, as the lobby on the home (or a match's host) sees it. */
class RelayedPeer implements VersusPeer {
  open = true;
  readonly since = Date.now();
  match: { host: MatchHost; seat: 0 | 1 } | null = null;
  readonly watches = new Map<string, () => void>();

  constructor(
    /** The instance the player's socket is on. */
    readonly from: string,
    /** The socket's id there. */
    readonly peer: string,
    readonly owner: Owner,
    readonly player: LivePlayer,
    readonly address: string,
    readonly device: string | null,
    private readonly relay: (m: ServerMessage) => void,
    private readonly kick: (code: number, reason: string) => void,
  ) {}

  close(code: number, reason: string): void {
    if (this.open) this.kick(code, reason);
  }

  send(message: ServerMessage): void {
    if (this.open) this.relay(message);
  }

  error(code: LiveErrorCode, message: string, extra: { gameId?: string; seq?: number } = {}): void {
    this.send({ t: 'error', code, message, ...extra });
  }
}
