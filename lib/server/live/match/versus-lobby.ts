import 'server-only';
import { randomBytes } from 'node:crypto';
import { DEFAULT_HANDLING, MODES, type Handling, type VersusMode } from '@/lib/engine';
import { isSetBatch, VERSUS_CLIENT_TYPES, type ClientMessage, type ServerMessage, type VersusClientMessage, type VersusMessage } from '@/lib/live/protocol';
import type { Seat } from '@/lib/live/versus';
import type { LiveBus } from '@/lib/server/live/cluster/bus';
import { mayWatchMore, sameOwner, type VersusPeer } from '@/lib/server/live/connection';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { BotPeer } from '@/lib/server/live/match/bot-peer';
import type { BotSpec } from '@/lib/bot/spec';
import { LocalSparringLedger, sparrer, type SparringLedger, type SparRefusal } from '@/lib/server/live/match/sparring-ledger';
import { MatchHost, realTimers, type MatchHostOptions, type Timers } from '@/lib/server/live/match/match-host';
import type { MatchCheckpoint, MatchCheckpoints, Placed } from '@/lib/server/live/match/match-checkpoint';
import { Rematches, type Offer, type SeatSetup, type Verdict } from '@/lib/server/live/match/rematches';
import { PairRooms, type PairRoom } from '@/lib/server/live/match/pair-rooms';
import type { MatchSeatInfo } from '@/lib/server/live/match/match-seat';
import { MATCHMAKING, pairUp, type Waiting } from '@/lib/server/versus/matchmaking';
import type { RankedEntry } from '@/lib/server/versus/pairing';
import type { QueueStanding } from '@/lib/server/versus/bands';
import { setLengthOf } from '@/lib/versus/bands';

type Entry = Waiting & { conn: VersusPeer; mode: VersusMode; ranked: boolean; handling: Handling; nextCount: number };

/** The browser's messages the lobby answers (messages.ts hands them over before its own switch; the door's commands it makes itself). */
export const isVersusMessage = (m: ClientMessage): m is Extract<ClientMessage, VersusClientMessage> => VERSUS_CLIENT_TYPES.has(m.t);

/** How long a standing read without a band is kept before it is read again: the band edges' cache (BAND_RULES.cacheMs). */
const UNBANDED_REREAD_MS = 60_000;
/** A peer's standing in a mode as read (`at`, lobby time), and whether it came without a band. */
type HeldStanding = { standing: Promise<QueueStanding>; at: number; unbanded?: boolean };
/** Pairing runs on every join and this often, so windows widen while people wait. */
const PAIR_EVERY_MS = 1_000;

export type LobbyOptions = {
  bus: LiveBus;
  now?: () => number;
  timers?: Timers;
  /** A signed-in player's rating in a mode and its band (the matchmaking keys); tests pass their own. */
  ratingOf?: (userId: string, mode: VersusMode) => Promise<QueueStanding>;
  /** Where a finished match goes (MatchHost's `store`); the database's by default. */
  store?: MatchHostOptions['store'];
  /** Ranked only: whether the player may queue and whom they must not meet (versus/pairing.ts); tests pass their own. */
  rankedEntry?: (who: { userId: string; address: string; device: string | null }) => Promise<RankedEntry>;
  /** Several instances: each match (the bot's too) is leased to this instance and checkpointed as it goes (versus-relay.ts). */
  cluster?: LobbyCluster;
  /**
   * Whether the account plays a ranked 2v2 set now, or waits in its queue (the hub's rooms and
   * team queue, held beside this lobby): one account plays one ranked game at a time, on any tab.
   * Both refuse a ranked entry; only a set being played ends one already waiting or a rematch
   * (the 2v2 side refuses an account in a ranked match when its set would start).
   */
  rankedElsewhere?: (userId: string) => 'playing' | 'queued' | null;
  /** Sparring budgets of players and addresses: this instance's in memory by default, the site's on Redis (redis-sparring.ts). */
  sparring?: SparringLedger;
};

const RESTARTING = 'The server is restarting; connect again in a moment.';
const ALL_BOTS_BUSY = 'Every sparring bot on this server is busy; try again in a minute.';
const ELSEWHERE = 'You are in a ranked 2v2 set or its queue: finish or leave it before a ranked match.';
const REMATCH_ELSEWHERE = 'One of you plays ranked 2v2 now. A private room (unranked) is open to you.';

export type LobbyCluster = {
  checkpoints: MatchCheckpoints;
  claim(matchId: string): void;
  release(matchId: string): void;
  /** Whether this instance may still act for the match (match-leases.ts `held`). */
  held(matchId: string): boolean;
};

/** Told when a match ends here (not when it is handed over): its id and who sits in its seats now. */
export type AfterMatch = (matchId: string, links: [VersusPeer | null, VersusPeer | null]) => void;

/** A pair the home made (queue, room, rematch): everything the instance that will host its match needs. No seed: the host draws it. */
export type Placement = { mode: VersusMode; firstTo: number; ranked: boolean; conns: [VersusPeer, VersusPeer]; setup: [SeatSetup, SeatSetup]; room: string | null };
/** What comes back to the home when a match it placed closes: its two players' offer or room. */
export type Aftermath = Omit<Placement, 'conns'> & { matchId: string };

/**
 * Versus on the live hub: the quick-match queue (matchmaking.ts decides the pairs), private rooms
 * (create → share the link → join → both ready → the match), and the matches being played. Every
 * message re-checks that the connection owns the seat, room or queue entry it acts on.
 */
export class VersusLobby {
  readonly matches = new Map<string, MatchHost>();
  private readonly queue = new Map<VersusPeer, Entry>();
  /** The private rooms of two (held only on the versus home when there are several instances). */
  readonly rooms: PairRooms;
  /** Players whose match the home placed on another instance (versus-relay.ts), and whether it is ranked: busy here until it closes there. */
  private readonly placed = new Map<VersusPeer, boolean>();
  /** Several instances: asks the instance of seat 0's socket to host a new match; false to host it here. */
  private placer: ((p: Placement) => boolean) | null = null;
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly pairTimer: NodeJS.Timeout;
  /** A peer's ratings by mode, read at its first ranked queue and kept until a match of its ends (a read per queue was 40 a second per socket). */
  private readonly ratings = new WeakMap<VersusPeer, Map<VersusMode, HeldStanding>>();
  /** A match's catch-up, built once for every spectator arriving while its seats stand where they are. */
  private readonly caughtUp = new WeakMap<MatchHost, { key: string; message: ServerMessage }>();
  private readonly rematches: Rematches;
  /** The matches against the sparring bot here (their bot is seat 1): at most LIVE_LIMITS.sparringMatches. */
  private readonly bots = new WeakSet<MatchHost>();
  private readonly sparring: SparringLedger;
  /** Sockets whose `spar` waits for the ledger's answer. */
  private readonly sparPending = new WeakSet<VersusPeer>();
  /** Set by handOver (a shutdown): no bot match starts here any more. */
  private leaving = false;
  private letGo: (matchId: string, spectators: VersusPeer[], rewatchHere: boolean) => void = () => {};
  /** Who watches each match hosted here (sockets here, and relayed ones): moved on if the match is let go while in play. */
  private readonly spectators = new Map<string, Set<VersusPeer>>();

  constructor(private readonly o: LobbyOptions) {
    this.now = o.now ?? (() => performance.now());
    this.timers = o.timers ?? realTimers;
    this.sparring = o.sparring ?? new LocalSparringLedger(this.now);
    this.rematches = new Rematches({
      now: this.now, timers: this.timers, busy: (c, ranked) => this.busy(c) || (ranked && this.playsTeams(c)), recheck: (offer) => this.rankedAgain(offer),
      start: (offer, firstTo) => void this.startMatch({ mode: offer.mode, firstTo, ranked: offer.ranked, conns: offer.peers, setup: offer.setup }),
    });
    this.rooms = new PairRooms({
      timers: this.timers, busy: (c) => this.busy(c),
      start: (room) => void this.startMatch({ mode: room.mode, firstTo: room.firstTo, ranked: false, conns: [room.seats[0], room.seats[1]], setup: [room.setup[0], room.setup[1]], room }),
    });
    this.pairTimer = setInterval(() => this.pair(), PAIR_EVERY_MS);
    this.pairTimer.unref();
  }

  /** A promise only for a quick-match entry (it reads the rating): a batch is handled at once. */
  handle(conn: VersusPeer, m: VersusMessage): Promise<void> | void {
    switch (m.t) {
      case 'queue':
        return this.enqueue(conn, m);
      case 'unqueue':
        this.queue.delete(conn);
        return conn.send({ t: 'unqueued' });
      case 'room_create':
      case 'room_join':
        // A room ends the rematch offer its socket had.
        this.rematches.leave(conn);
        return this.rooms.handle(conn, m);
      case 'room_set':
      case 'ready':
      case 'room_leave':
        return this.rooms.handle(conn, m);
      case 'inputs': {
        const m2 = conn.match;
        if (!m2 || m2.host.matchId !== m.stream) return this.refuseMatch(conn, m.stream);
        if (!isSetBatch(m) || m.targets !== undefined) return conn.error('bad_message', 'A versus batch names its game of the set, and no targets.', { gameId: m.stream, seq: m.seq });
        // A second tab that resumed the seat took it over: this socket no longer plays it.
        if (!m2.host.holds(m2.seat, conn)) return conn.error('not_your_match', 'This seat is played from another connection now.', { gameId: m.stream });
        const fail = m2.host.inputs(m2.seat, m);
        if (fail) conn.error(fail.code, fail.message, { gameId: m.stream, seq: m.seq });
        return;
      }
      case 'vleave': {
        const m2 = conn.match;
        if (!m2 || m2.host.matchId !== m.matchId) return this.refuseMatch(conn, m.matchId);
        // Nor does it give the seat up: its leave would forfeit the match the other tab plays (an older page reads seat_taken as an error and keeps its Leave button).
        if (!m2.host.holds(m2.seat, conn)) return conn.error('not_your_match', 'This seat is played from another connection now.', { gameId: m.matchId });
        return m2.host.leave(m2.seat);
      }
      case 'vresume': {
        const host = this.matches.get(m.matchId);
        const seat = host ? ([0, 1] as const).find((s) => sameOwner(host.owner(s), conn)) : undefined;
        if (!host || seat === undefined || !host.resume(seat, conn, m.token))
          return conn.error('resume_failed', 'That match cannot be taken up again (over, or not yours).', { gameId: m.matchId });
        conn.match = { host, seat };
        return;
      }
      case 'vwatch': {
        const host = this.matches.get(m.matchId);
        if (!host || host.ended) return conn.error('unknown_match', 'No live match with this id is being played now.', { gameId: m.matchId });
        if (conn.watches.has(m.matchId)) return;
        // The same budget as solo games; subscribed first, then the catch-up (see messages.ts).
        if (!mayWatchMore(conn, 0, m.matchId)) return;
        const unsubscribe = this.o.bus.subscribe(m.matchId, (msg) => conn.send(msg));
        // Whoever ends the watch (`vunwatch`, a solo `unwatch` naming it, the socket closing) ends it here too.
        conn.watches.set(m.matchId, () => {
          unsubscribe();
          this.unspectate(m.matchId, conn);
        });
        this.spectators.set(m.matchId, (this.spectators.get(m.matchId) ?? new Set()).add(conn));
        conn.send(this.catchUp(host));
        return host.spectatorsChanged();
      }
      case 'vunwatch':
        conn.watches.get(m.matchId)?.();
        conn.watches.delete(m.matchId);
        return this.matches.get(m.matchId)?.spectatorsChanged();
      case 'spar':
        return this.spar(conn, m);
      case 'rematch': {
        const done = this.rematches.want(conn, m.matchId, m.want);
        if (done !== false) return done;
        if (this.matches.has(m.matchId)) return conn.error('unknown_match', 'This match is not over yet: a rematch is offered at its end.', { gameId: m.matchId });
        return conn.error('unknown_match', 'No quick match with this id can be played again now (its offer ended, or it was a room’s).', { gameId: m.matchId });
      }
      default:
        m satisfies never;
    }
  }

  /**
   * A match against the sparring bot, at once: unranked, first-to as asked, the bot's seat a peer
   * like any other (bot-peer.ts). Within its player's and address's budgets (the ledger's, the
   * site's on several instances), and at most LIVE_LIMITS.sparringMatches on this instance: each
   * bot piece is a search on this event loop. None once the instance hands its matches over.
   */
  private spar(conn: VersusPeer, m: Extract<VersusClientMessage, { t: 'spar' }>): Promise<void> | void {
    this.rematches.leave(conn);
    if (this.leaving) return conn.error('server_error', RESTARTING);
    if (this.busy(conn)) return conn.error('already_playing', 'This connection is already in a match, a room or the queue.');
    if (this.sparringHere() >= LIVE_LIMITS.sparringMatches) return conn.error('too_many_games', ALL_BOTS_BUSY);
    const entry = { matchId: randomBytes(12).toString('hex'), who: sparrer(conn), address: conn.address };
    const refused = this.sparring.start(entry);
    if (!(refused instanceof Promise)) return this.startSparring(conn, m, entry.matchId, refused);
    // Asked of Redis: the socket counts as busy meanwhile, so it joins nothing else here or at the home (versus-relay.ts).
    this.sparPending.add(conn);
    return refused.finally(() => this.sparPending.delete(conn)).then((r) => this.startSparring(conn, m, entry.matchId, r));
  }

  private startSparring(conn: VersusPeer, m: Extract<VersusClientMessage, { t: 'spar' }>, matchId: string, refused: SparRefusal | null): void {
    if (refused) return conn.error(refused.code, refused.message);
    // Redis answered a moment later: the socket may have closed (nothing to say), the instance begun
    // to hand its matches over, or its bots filled up. No match then, but its start stays spent.
    if (!conn.open || this.busy(conn) || this.leaving || this.sparringHere() >= LIVE_LIMITS.sparringMatches) {
      this.sparring.end(matchId);
      if (!conn.open || this.busy(conn)) return;
      return this.leaving ? conn.error('server_error', RESTARTING) : conn.error('too_many_games', ALL_BOTS_BUSY);
    }
    try {
      const bot = this.newBot(m.bot);
      const host = this.hostMatch({
        matchId, mode: m.mode, firstTo: m.firstTo, ranked: false, conns: [conn, bot],
        setup: [{ handling: m.handling, nextCount: m.nextCount }, { handling: DEFAULT_HANDLING, nextCount: m.nextCount }], bot,
      });
      this.bots.add(host);
    } catch (error) {
      // No match: nothing would ever end its hold.
      if (!this.matches.has(matchId)) this.sparring.end(matchId);
      throw error;
    }
  }

  /** Whether the socket's `spar` waits for the site's budgets (Redis): it is about to sit in a match here. */
  startingSpar(conn: VersusPeer): boolean {
    return this.sparPending.has(conn);
  }

  /** A bot match closed here: over (held no more), or played on elsewhere (held there from its take-up). */
  private sparringClosed(h: MatchHost): void {
    if (h.goesOn) this.sparring.handedOver(h.matchId);
    else this.sparring.end(h.matchId);
  }

  private sparringHere(): number {
    let n = 0;
    for (const h of this.matches.values()) if (this.bots.has(h) && !h.ended) n++;
    return n;
  }

  private newBot(spec: BotSpec): BotPeer {
    return new BotPeer(spec, { play: (peer, message) => void this.handle(peer, message), timers: this.timers, now: this.now });
  }

  private async enqueue(conn: VersusPeer, m: Extract<VersusClientMessage, { t: 'queue' }>): Promise<void> {
    this.rematches.leave(conn);
    if (this.busy(conn)) return conn.error('already_playing', 'This connection is already in a match, a room or the queue.');
    if (m.ranked && !conn.owner.userId) return conn.error('sign_in_required', 'Ranked matches need an account; guests may play unranked.');
    const userId = m.ranked ? conn.owner.userId : null;
    if (userId && this.elsewhere(userId) !== null) return conn.error('already_playing', ELSEWHERE);
    const [standing, entry] = userId
      ? await Promise.all([this.ratingFor(conn, userId, m.mode), this.rankedEntry({ userId, address: conn.address, device: conn.device })])
      : [{ rating: 1500, band: null }, null];
    if (entry && !entry.ok) return conn.error(entry.code, entry.message);
    if (!conn.open || this.busy(conn)) return;
    if (userId && this.elsewhere(userId) !== null) return conn.error('already_playing', ELSEWHERE);
    const who = conn.owner.userId ?? `guest:${conn.owner.guestId}`;
    // Ranked: never two entries from one address, nor players the pairing rules keep apart.
    const apart = entry ? { apart: [`address:${conn.address}`], avoid: entry.avoid } : {};
    const band = standing.band ? { band: standing.band } : {};
    this.queue.set(conn, { id: randomBytes(8).toString('hex'), who, rating: standing.rating, ...band, since: this.now(), conn, mode: m.mode, ranked: m.ranked, handling: m.handling, nextCount: m.nextCount, ...apart });
    conn.send({ t: 'queued', mode: m.mode, ranked: m.ranked, waiting: this.waiting(m.mode, m.ranked) });
    return this.pair();
  }

  /**
   * The socket closed: out of the queue and any open room; a match seat waits the resume window.
   * A match placed elsewhere stays `placed` until it reports back (settlePlaced; Placements forgets
   * it when both its sockets are gone): it plays on there, so its account still plays ranked.
   */
  drop(conn: VersusPeer): void {
    this.queue.delete(conn);
    this.rematches.leave(conn);
    this.rooms.drop(conn);
    for (const gameId of conn.watches.keys()) this.matches.get(gameId)?.spectatorsChanged();
    conn.match?.host.detach(conn.match.seat, conn);
  }

  private unspectate(matchId: string, conn: VersusPeer): void {
    const set = this.spectators.get(matchId);
    if (set?.delete(conn) && set.size === 0) this.spectators.delete(matchId);
  }

  /** A match let go here: its spectators here stop watching it here, and are handed to the relay to watch it where it goes on. */
  private moveSpectators(matchId: string, rewatchHere: boolean): void {
    const spectators = [...(this.spectators.get(matchId) ?? [])];
    this.spectators.delete(matchId);
    for (const peer of spectators) {
      peer.watches.get(matchId)?.();
      peer.watches.delete(matchId);
    }
    this.letGo(matchId, spectators, rewatchHere);
  }

  /** A shutdown: every match in play here is checkpointed and let go for another instance to take up (versus-relay.ts); how many. */
  handOver(): number {
    this.leaving = true;
    let n = 0;
    for (const host of [...this.matches.values()]) {
      if (!host.handOver()) continue;
      n++;
      // Sockets here close with the instance (their pages dial again): only those relayed here are moved on.
      this.moveSpectators(host.matchId, false);
    }
    return n;
  }

  /**
   * This instance no longer holds the match's lease (another took it up, or no renewal succeeded
   * for a lease's time): the host closes without another write or a store, and its seats' sockets
   * are closed with 1012, so the browsers reconnect and resume where the match is hosted now.
   */
  stop(matchId: string): void {
    const host = this.matches.get(matchId);
    if (!host) return;
    console.error(`[live] match ${matchId} stopped here: its lease is lost`);
    const links = ([0, 1] as const).map((s) => host.link(s) as VersusPeer | null);
    const decided = host.ended;
    // Another instance holds it now: it plays on there, and the end is that instance's to report.
    host.letGo();
    // Decided, a store may be on its way here still: its spectators stay to hear the result.
    if (decided) this.spectators.delete(matchId);
    else this.moveSpectators(matchId, true);
    for (const link of links) link?.close?.(1012, 'The server hosting your match lost it: reconnecting resumes it where it is hosted now.');
  }

  /** Settles once every match that ended here is stored (or its store failed): a shutdown waits for it (hub.ts drain). */
  async stored(): Promise<void> {
    await Promise.allSettled([...this.matches.values()].map((host) => host.finished));
  }

  close(): void {
    clearInterval(this.pairTimer);
    this.rooms.clearTimers();
    this.rematches.close();
    for (const host of this.matches.values()) host.close();
    this.sparring.close();
  }

  /** Runs matchmaking in each pool (mode × ranked) and starts a match per pair: a ranked one as long as the lower band's set (lib/versus/bands.ts). */
  pair(): void {
    const pools = new Map<string, Entry[]>();
    for (const e of [...this.queue.values()]) {
      // Its 2v2 set started from another tab while it waited here.
      if (e.ranked && this.playsTeams(e.conn)) {
        this.queue.delete(e.conn);
        e.conn.error('already_playing', ELSEWHERE);
        e.conn.send({ t: 'unqueued' });
        continue;
      }
      const key = `${e.mode}:${e.ranked}`;
      pools.set(key, [...(pools.get(key) ?? []), e]);
    }
    for (const entries of pools.values()) {
      for (const [a, b] of pairUp(entries, this.now(), MATCHMAKING)) {
        const [x, y] = [a as Entry, b as Entry];
        this.queue.delete(x.conn);
        this.queue.delete(y.conn);
        const firstTo = x.ranked && x.band && y.band ? setLengthOf(x.band, y.band) : MODES[x.mode].firstTo;
        // The setups alone, not the entries: a placement crosses the bus as JSON, and an entry holds its socket.
        const setup: [SeatSetup, SeatSetup] = [{ handling: x.handling, nextCount: x.nextCount }, { handling: y.handling, nextCount: y.nextCount }];
        void this.startMatch({ mode: x.mode, firstTo, ranked: x.ranked, conns: [x.conn, y.conn], setup });
      }
    }
  }

  /** Set by the relay when matches are leased one by one: a pair made here is played where a player is. */
  setPlacer(placer: (p: Placement) => boolean): void {
    this.placer = placer;
  }

  /**
   * Several instances: told of each match let go here still in play (handed over at a shutdown, or
   * its lease lost), with who watched it here (unsubscribed): the relay moves them on, those with a
   * socket here too if `rewatchHere`.
   */
  setLetGo(letGo: (matchId: string, spectators: VersusPeer[], rewatchHere: boolean) => void): void {
    this.letGo = letGo;
  }

  /** A pair made here: its match is hosted on seat 0's instance (placer), or here. */
  private startMatch(o: { mode: VersusMode; firstTo: number; ranked: boolean; conns: [VersusPeer, VersusPeer]; setup: [SeatSetup, SeatSetup]; room?: PairRoom }): MatchHost | null {
    const placement: Placement = { mode: o.mode, firstTo: o.firstTo, ranked: o.ranked, conns: o.conns, setup: o.setup, room: o.room?.code ?? null };
    if (!this.placer?.(placement)) return this.hostMatch(o);
    for (const c of o.conns) this.placed.set(c, o.ranked);
    return null;
  }

  /**
   * Another instance asked (versus-relay.ts): the match is hosted here; when it ends, `after`
   * reports back instead of an offer here. `placed` goes into its checkpoints, so whoever takes it
   * up reports its end to the same home.
   */
  hostPlaced(p: Placement, after: AfterMatch, placed: Placed): MatchHost {
    return this.hostMatch({ ...p, room: undefined, after, placed });
  }

  /** A match placed elsewhere closed (or never started: `then` null): its players are free here, and get their offer or room. */
  settlePlaced(seats: Array<VersusPeer | null>, then: Aftermath | null, links: [VersusPeer | null, VersusPeer | null]): void {
    for (const c of seats) if (c) this.placed.delete(c);
    if (!then) return;
    if (then.room !== null) return this.rooms.reopen({ code: then.room, mode: then.mode, firstTo: then.firstTo, setup: then.setup }, links);
    this.rematches.open({ matchId: then.matchId, mode: then.mode, ranked: then.ranked, firstTo: then.firstTo, setup: then.setup }, links);
  }

  private hostMatch(o: { matchId?: string; mode: VersusMode; firstTo: number; ranked: boolean; conns: [VersusPeer, VersusPeer]; setup: [SeatSetup, SeatSetup]; room?: PairRoom | undefined; bot?: BotPeer; after?: AfterMatch; placed?: Placed }): MatchHost {
    const seat = (s: Seat): MatchSeatInfo => ({
      owner: o.conns[s].owner, player: o.conns[s].player, handling: o.setup[s].handling, nextCount: o.setup[s].nextCount,
      ...(o.conns[s] === o.bot ? { bot: o.bot.spec } : {}),
    });
    const ranked = o.ranked && o.conns[0].owner.userId !== o.conns[1].owner.userId;
    const host = new MatchHost({
      matchId: o.matchId ?? randomBytes(12).toString('hex'), seed: randomBytes(16).toString('hex'), mode: o.mode, firstTo: o.firstTo,
      ranked, seats: [seat(0), seat(1)], bus: this.o.bus,
      ...this.hostOptions(), ...(this.o.cluster ? this.leased(this.o.cluster) : {}), ...(o.placed ? { placed: o.placed } : {}),
      onClose: (h) => {
        this.matches.delete(h.matchId);
        if (!h.goesOn) this.spectators.delete(h.matchId);
        this.o.cluster?.release(h.matchId);
        // Over, or played on elsewhere (where its seat is rebuilt, adopt): this instance's bot plays no more.
        o.bot?.stop();
        if (o.bot) this.sparringClosed(h);
        const links = ([0, 1] as const).map((s) => h.link(s) as VersusPeer | null) as [VersusPeer | null, VersusPeer | null];
        for (const c of [...o.conns, ...links]) if (c) this.ratings.delete(c); // a ranked match moved them
        for (const c of [...o.conns, ...links]) if (c?.match?.host === h) c.match = null;
        // It plays on elsewhere (handed over, or its lease lost): no offer or room, and the home still counts its pair busy.
        if (h.goesOn) return;
        // Against the bot, "again" is one click on the page (a new `spar`), not an offer to a peer that cannot answer.
        if (o.bot) return;
        if (o.after) return o.after(h.matchId, links);
        if (o.room) this.rooms.reopen(o.room, links);
        else this.rematches.open({ matchId: h.matchId, mode: o.mode, ranked, firstTo: o.firstTo, setup: o.setup }, links);
      },
    });
    this.matches.set(host.matchId, host);
    this.o.cluster?.claim(host.matchId);
    o.conns[0].match = { host, seat: 0 };
    o.conns[1].match = { host, seat: 1 };
    host.begin([o.conns[0], o.conns[1]]);
    return host;
  }

  /**
   * A match another instance hosted, taken up from its checkpoint (versus-relay.ts) for `by`, the
   * player whose resume reached this instance: its seats are away until they `vresume` here, but
   * for the sparring bot's, rebuilt here at once (BotPeer.rejoin). Its end is told to `after` (a
   * placed match's home, through the relay), never answered with an offer or room here. Without
   * `by` (a decided match nobody resumed, match-hosts.ts sweep) it is only stored. Throws
   * MatchRestoreError for a checkpoint that does not replay.
   */
  adopt(cp: MatchCheckpoint, by: VersusPeer | null, after?: AfterMatch): MatchHost {
    const bots = cp.seats.map((seat) => (seat.bot ? this.newBot(seat.bot) : null));
    const host = MatchHost.restore(cp, {
      bus: this.o.bus, ...this.hostOptions(), ...(this.o.cluster ? this.leased(this.o.cluster) : {}),
      onClose: (h) => {
        this.matches.delete(h.matchId);
        if (!h.goesOn) this.spectators.delete(h.matchId);
        this.o.cluster?.release(h.matchId);
        for (const bot of bots) bot?.stop();
        if (bots.some((b) => b !== null)) this.sparringClosed(h);
        const links = ([0, 1] as const).map((s) => h.link(s) as VersusPeer | null) as [VersusPeer | null, VersusPeer | null];
        for (const c of links) if (c?.match?.host === h) c.match = null;
        if (!h.goesOn) after?.(h.matchId, links);
      },
    });
    this.matches.set(host.matchId, host);
    host.awaitSeats();
    if (by && bots.some((b) => b !== null)) {
      // A sparring match counts against its player's sparring here from now on (another `spar` is
      // refused beside it), but is taken up even past this instance's caps (LIVE_LIMITS.sparring*):
      // losing a player's match in play is worse than a few bot seats over a cap for its last minutes.
      this.bots.add(host);
      this.sparring.hold({ matchId: host.matchId, who: sparrer({ owner: host.owner(0), address: by.address }), address: by.address });
      for (const s of [0, 1] as const) if (!host.ended) bots[s]?.rejoin(host, s);
    }
    return host;
  }

  /** A leased match's host writes checkpoints, and stores its result only while its lease holds. */
  private leased(cluster: LobbyCluster): Pick<MatchHostOptions, 'checkpoints' | 'lease'> {
    return { checkpoints: cluster.checkpoints, lease: { held: (id) => cluster.held(id), lost: (id) => this.stop(id) } };
  }

  private hostOptions(): Pick<MatchHostOptions, 'now' | 'timers' | 'store'> {
    return { ...(this.o.now ? { now: this.o.now } : {}), ...(this.o.timers ? { timers: this.o.timers } : {}), ...(this.o.store ? { store: this.o.store } : {}) };
  }

  /** Whether the account plays a ranked match now, hosted here or placed by this home, from any tab: ranked 2v2 refuses it meanwhile. */
  playsRanked(userId: string): boolean {
    for (const h of this.matches.values()) if (h.ranked && !h.ended && (h.owner(0).userId === userId || h.owner(1).userId === userId)) return true;
    for (const [c, ranked] of this.placed) if (ranked && c.owner.userId === userId) return true;
    return false;
  }

  private elsewhere(userId: string): 'playing' | 'queued' | null {
    return this.o.rankedElsewhere?.(userId) ?? null;
  }

  /** Whether the peer's account plays a ranked 2v2 set now. */
  private playsTeams(c: VersusPeer): boolean {
    return c.owner.userId !== null && this.elsewhere(c.owner.userId) === 'playing';
  }

  private busy(conn: VersusPeer): boolean {
    if (this.queue.has(conn) || this.placed.has(conn) || this.sparPending.has(conn) || (conn.match && !conn.match.host.ended)) return true;
    return this.rooms.seats(conn);
  }

  private waiting(mode: VersusMode, ranked: boolean): number {
    let n = 0;
    for (const e of this.queue.values()) if (e.mode === mode && e.ranked === ranked) n++;
    return n;
  }

  private refuseMatch(conn: VersusPeer, matchId: string): void {
    const host = this.matches.get(matchId);
    if (host && !([0, 1] as const).some((s) => sameOwner(host.owner(s), conn)))
      return conn.error('not_your_match', 'This match is played by others.', { gameId: matchId });
    conn.error('unknown_match', 'No live match with this id on this connection.', { gameId: matchId });
  }

  /**
   * A ranked rematch meets the ranked rules as a new quick match would (0017): both still admitted,
   * neither on the other's list (pairs met too often today, one network or device), on two
   * addresses; its set as long as the bands the two stand in now. Refused, not played unranked:
   * a player who wanted rating would not notice the difference.
   */
  private async rankedAgain(offer: Offer): Promise<Verdict> {
    const [a, b] = offer.peers;
    const [x, y] = [a.owner.userId, b.owner.userId];
    const both = (message: string): Verdict => ({ ok: false, messages: [message, message] });
    if (!x || !y || x === y) return both('A ranked match needs two accounts.');
    if ([a, b].some((c) => this.playsTeams(c))) return both(REMATCH_ELSEWHERE);
    const entries = await Promise.all([this.rankedEntry({ userId: x, address: a.address, device: a.device }), this.rankedEntry({ userId: y, address: b.address, device: b.device })]);
    // A player the rules no longer admit hears why (a ban's reason among them); the other, only that.
    const refused = entries.findIndex((e) => !e.ok);
    if (refused >= 0) {
      const own = entries[refused]!;
      const theirs = 'The ranked rules do not allow your opponent another ranked match now. A private room (unranked) is open to you both.';
      const mine = own.ok ? theirs : own.message;
      return { ok: false, messages: refused === 0 ? [mine, theirs] : [theirs, mine] };
    }
    const apart = a.address === b.address || entries.some((e, i) => e.ok && e.avoid.includes(i === 0 ? y : x));
    if (apart) return both('The ranked rules keep you two apart for now: you have met in ranked as often as one pair may in a day, or play from one network or device. A private room (unranked) is open to you.');
    const [sa, sb] = await Promise.all([this.ratingFor(a, x, offer.mode), this.ratingFor(b, y, offer.mode)]);
    return { ok: true, firstTo: sa.band && sb.band ? setLengthOf(sa.band, sb.band) : MODES[offer.mode].firstTo };
  }

  private async rankedEntry(who: { userId: string; address: string; device: string | null }): Promise<RankedEntry> {
    if (this.o.rankedEntry) return this.o.rankedEntry(who);
    return (await import('@/lib/server/versus/pairing')).rankedEntry(who);
  }

  private ratingFor(peer: VersusPeer, userId: string, mode: VersusMode): Promise<QueueStanding> {
    const known = this.ratings.get(peer) ?? new Map<VersusMode, HeldStanding>();
    this.ratings.set(peer, known);
    const held = known.get(mode);
    // A standing without a band (the edges could not be read) turns its whole pool to pairing by
    // rating, so it is read again, but no sooner than the edges' own cache would give new ones:
    // re-reading it per queue message was a database read per message.
    if (held && !(held.unbanded && this.now() - held.at >= UNBANDED_REREAD_MS)) return held.standing;
    const entry: HeldStanding = { standing: this.ratingOf(userId, mode), at: this.now() };
    known.set(mode, entry);
    entry.standing.then((standing) => void (entry.unbanded = standing.band === null), () => known.delete(mode)); // a failure: read again next time
    return entry.standing;
  }

  /** Keyed by what a catch-up shows: the game, the set's score, and how far each seat has played, been dealt and received. */
  private catchUp(host: MatchHost): ServerMessage {
    const [a, b] = host.seats;
    const [x, y] = [a.stream, b.stream];
    const key = `${host.gameIndex}:${host.score.join()}:${x.t0}:${y.t0}:${x.lastSeq}:${y.lastSeq}:${x.dealt.length}:${y.dealt.length}:${a.garbage.length}:${b.garbage.length}`;
    const cached = this.caughtUp.get(host);
    if (cached?.key === key) return cached.message;
    const message = host.watching();
    this.caughtUp.set(host, { key, message });
    return message;
  }

  private async ratingOf(userId: string, mode: VersusMode): Promise<QueueStanding> {
    if (this.o.ratingOf) return this.o.ratingOf(userId, mode);
    return (await import('@/lib/server/versus/bands')).queueStanding({ userId, mode });
  }
}
