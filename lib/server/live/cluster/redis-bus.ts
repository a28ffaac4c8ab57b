import 'server-only';
import { randomBytes } from 'node:crypto';
import type { LiveGameSummary, RoomClientMessage, ServerMessage, TeamClientMessage, VersusClientMessage } from '@/lib/live/protocol';
import type { LivePlayer } from '@/lib/live/wire';
import type { LiveMatchSummary } from '@/lib/live/versus';
import type { Owner } from '@/lib/server/games/owner';
import { byInterest, createLocalBus, type LiveBus } from '@/lib/server/live/cluster/bus';
import { CLUSTER, KEYS } from '@/lib/server/live/cluster/cluster';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import type { Handling, VersusMode } from '@/lib/engine';

/** What instances say to each other: on a game's channel, and on one instance's own. */
type GameWire =
  | { k: 'm'; m: ServerMessage }
  | { k: 'catchup'; to: string; req: string; m: ServerMessage | null }
  /** The host was asked to hand the game over: its spectators elsewhere look for the next one. */
  | { k: 'moving' };
/**
 * What instances say about versus, on the receiving instance's channel: a player's message and its
 * socket closing (to the home), and the home's answers (to the player's instance). The player's
 * identity is the one its own instance read from its cookies; instances trust each other's Redis.
 */
export type VersusWire =
  /** Room and ranked 2v2 messages (rooms/) ride the same wire: they are held on the home too. */
  | { k: 'vin'; from: string; peer: string; who: Who; m: VersusClientMessage | RoomClientMessage | TeamClientMessage }
  | { k: 'vclose'; from: string; peer: string }
  | { k: 'vout'; from: string; peer: string; m: ServerMessage }
  /** The socket's match stopped on its host (its lease lost): its instance closes it, and the browser resumes. */
  | { k: 'vkick'; from: string; peer: string; code: number; reason: string }
  // The home asks seat 0's instance to host a match it paired; that instance reports back when it ends (versus-relay.ts).
  | { k: 'vhost'; from: string; req: HostRequest }
  /** `links`: who sits in the seats at the end (its socket may be new, after a take-up); `who` is absent from builds before it. */
  | { k: 'vafter'; from: string; req: AfterRequest; matchId: string | null; links: [LinkRef | null, LinkRef | null] }
  /** The instance asked hosts the match (its id): the home keeps the pair while the match can still be taken up. */
  | { k: 'vhosting'; from: string; id: string; matchId: string }
  /** An instance took a match the home placed up (after a hand-over or a crash): it reports its end now. */
  | { k: 'vtaken'; from: string; id: string }
  /** The match's host let it go (a shutdown, a lost lease): its spectators' instances look for where it goes on. */
  | { k: 'vmoved'; from: string; matchId: string };

type Setup = { handling: Handling; nextCount: number };
type Who = { owner: Owner; player: LivePlayer; address: string; device: string | null };
/** A socket as instances name it: the instance it is on and its connection id there. */
export type PeerRef = { instance: string; peer: string };
/** A seat's socket at a match's end, as the home may not know it yet. */
export type LinkRef = PeerRef & { who?: Who };
/** A match the home placed: its seats (who they are, as their own instance read it), never a seed. */
export type HostRequest = {
  id: string; mode: VersusMode; firstTo: number; ranked: boolean; room: string | null;
  seats: [PeerRef & { who: Who }, PeerRef & { who: Who }]; setup: [Setup, Setup];
};
/** What the home reads of a request in the report of its end: the pair's offer or room follows from it. */
export type AfterRequest = Pick<HostRequest, 'id' | 'mode' | 'firstTo' | 'ranked' | 'room' | 'setup'>;

type InstanceWire = { k: 'watch'; gameId: string; from: string; n: number; req?: string } | { k: 'release'; gameId: string } | VersusWire;
type SessionWire = { from: string; userId: string };

/** What the bus asks of the hub on the hosting instance. Any host kind (a game, a match) can answer. */
export type BusHooks = {
  /** Everything a new spectator needs (the `watching` message), or null if not hosted here. */
  snapshot(gameId: string): ServerMessage | null;
  /** The number of spectators on other instances changed. */
  watchersChanged(gameId: string): void;
  /** Another instance asks for this game (its player reconnected there): whether it is handed over. */
  release(gameId: string): boolean;
  /** A relayed versus message, to or from the versus home (versus-relay.ts). */
  versus?(wire: VersusWire): void;
  /** A player's session changed on another instance (KEYS.sessions): their sockets here are checked. */
  sessionChanged?(userId: string): void;
};

/** How many hosts one watch follows while it waits for its catch-up. */
const MOVES_FOLLOWED = 3;
/** The host of a game watched while no instance holds its lease (its host died, its player not back yet). */
const NOBODY = '';

/** A spectator here of a game hosted elsewhere; `local` once the game was taken up here (its frames then come from this instance's bus). */

type Watcher = { listener: (m: ServerMessage) => void; ready: boolean; local: (() => void) | null };
/**
 * One catch-up asked of a game's host for every watcher here that waits on it: spectators coming
 * together, or following a game that moved, cost its host one snapshot per instance, not one each.
 */
type Ask = { holder: string; req: string; n: number; waiting: Set<Watcher>; changed: boolean; settle: (outcome: AskOutcome) => void; done: Promise<AskOutcome> };
/** `deaf`: nobody listens on the host's channel (it died). */
type AskOutcome = 'caught' | 'refused' | 'deaf';
/** A spectator here of a game hosted here: `stop` ends its watch, wherever the game has gone since (leaving). */
type HereWatch = { listener: (m: ServerMessage) => void; stop: () => void };

/**
 * The live bus across instances. A host's spectators on its own instance are served in memory as
 * before; frames go to Redis only while some other instance has spectators of that game (they
 * say so on the host's instance channel), so an unwatched game costs Redis nothing. A spectator
 * elsewhere subscribes to the game's channel first, then asks the host for the catch-up, which
 * the host publishes on the same channel: frames before it are dropped (it includes them), frames
 * after it follow in order (one publisher, one channel). "Live now" is each instance's own list,
 * rewritten every second with an expiry, merged on read.
 */
export class RedisBus implements LiveBus {
  private readonly local = createLocalBus();
  private readonly remoteCounts = new Map<string, Map<string, number>>();
  private readonly watchers = new Map<string, Set<Watcher>>();
  /** The instance hosting each game watched here, and since when it is known to: asked again if it goes. */
  private readonly watchedAt = new Map<string, { holder: string; since: number }>();
  /** Games watched here whose host went, waiting to be taken up: one look for all their spectators. */
  private readonly moving = new Map<string, Promise<boolean>>();
  /** Spectators here of the games hosted here, by game: they follow a game that leaves (leaving). */
  private readonly hereWatches = new Map<string, Set<HereWatch>>();
  /** The catch-up each game watched here waits for, if any. */
  private readonly asks = new Map<string, Ask>();
  /** The instances listed at the last sync. */
  private listedBefore = new Set<string>();
  private others: LiveGameSummary[] = [];
  private otherMatches: LiveMatchSummary[] = [];
  private readonly lister: NodeJS.Timeout;
  private hooks: BusHooks | null = null;

  constructor(private readonly link: RedisLink) {
    const mine = KEYS.instanceChannel(link.instance);
    // Again on each new connection: one refused before Redis answered (away at start) is in no list
    // the connection subscribes again from by itself, and this instance would hear nothing meant for it.
    const subscribe = () => void link.sub.subscribe(mine, KEYS.sessions).catch((error: Error) => console.error('[live] redis subscribe:', error.message));
    subscribe();
    link.sub.on('ready', subscribe);
    link.sub.on('message', (channel: string, text: string) => {
      try {
        if (channel === mine) this.onInstance(JSON.parse(text) as InstanceWire);
        else if (channel === KEYS.sessions) this.onSession(JSON.parse(text) as SessionWire);
        else this.onGame(channel.slice(KEYS.gameChannel('').length), JSON.parse(text) as GameWire);
      } catch (error) {
        console.error('[live] a relayed message failed:', error);
      }
    });
    this.lister = setInterval(() => void this.syncList().catch(() => {}), CLUSTER.listEveryMs);
    this.lister.unref();
  }

  setHooks(hooks: BusHooks): void {
    this.hooks = hooks;
  }

  publish(gameId: string, message: ServerMessage): void {
    this.local.publish(gameId, message);
    if (this.remoteSpectators(gameId) > 0) this.send(KEYS.gameChannel(gameId), { k: 'm', m: message } satisfies GameWire);
    if (message.t === 'ended') this.remoteCounts.delete(gameId);
  }

  subscribe(gameId: string, listener: (message: ServerMessage) => void): () => void {
    const watch: HereWatch = { listener, stop: this.local.subscribe(gameId, listener) };
    const set = this.hereWatches.get(gameId) ?? new Set();
    this.hereWatches.set(gameId, set.add(watch));
    return () => {
      watch.stop();
      if (set.delete(watch) && set.size === 0 && this.hereWatches.get(gameId) === set) this.hereWatches.delete(gameId);
    };
  }

  /**
   * This instance no longer hosts a game still in play (handed over, or its lease found taken):
   * spectators elsewhere are told (`moving`), and those here are watched from here as any game
   * hosted elsewhere, caught up at the next host once it holds the lease (follow).
   */
  leaving(gameId: string): void {
    if (this.remoteSpectators(gameId) > 0) this.send(KEYS.gameChannel(gameId), { k: 'moving' } satisfies GameWire);
    this.remoteCounts.delete(gameId);
    const here = [...(this.hereWatches.get(gameId) ?? [])];
    this.hereWatches.delete(gameId);
    const set = this.watchers.get(gameId) ?? new Set<Watcher>();
    // Watchers from elsewhere whose game had been taken up here read this instance's bus: no more.
    for (const w of set) {
      w.local?.();
      w.local = null;
    }
    for (const h of here) {
      h.stop();
      const watcher: Watcher = { listener: h.listener, ready: true, local: null };
      h.stop = () => this.unwatch(gameId, watcher);
      set.add(watcher);
    }
    if (set.size === 0) return;
    const fresh = !this.watchers.has(gameId);
    this.watchers.set(gameId, set);
    this.watchedAt.set(gameId, { holder: this.link.instance, since: Date.now() });
    if (!fresh) return this.follow(gameId, this.link.instance);
    // Subscribed before the next host is asked: its catch-up comes on the game's channel.
    this.link.sub.subscribe(KEYS.gameChannel(gameId)).then(
      () => this.follow(gameId, this.link.instance),
      () => {
        this.forgetWatched(gameId);
        for (const w of set) this.gone(gameId, w);
      },
    );
  }

  subscribers(gameId: string): number {
    return this.local.subscribers(gameId) + this.remoteSpectators(gameId);
  }

  announce(summary: LiveGameSummary): void {
    this.local.announce(summary);
  }

  withdraw(gameId: string): void {
    this.local.withdraw(gameId);
    // Not at once: a finished game withdraws, then publishes `ended` for its spectators.
    setTimeout(() => this.local.subscribers(gameId) === 0 && this.remoteCounts.delete(gameId), 30_000).unref();
  }

  // Versus matches are hosted by the versus home (versus-relay.ts); its list reaches the others as
  // the games' lists do.
  announceMatch(summary: LiveMatchSummary): void {
    this.local.announceMatch(summary);
  }

  withdrawMatch(matchId: string): void {
    this.local.withdrawMatch(matchId);
  }

  listMatches(): LiveMatchSummary[] {
    const here = this.local.listMatches();
    const ids = new Set(here.map((m) => m.matchId));
    return [...here, ...this.otherMatches.filter((m) => !ids.has(m.matchId))].sort(byInterest);
  }

  list(): LiveGameSummary[] {
    const here = this.local.list();
    const ids = new Set(here.map((g) => g.gameId));
    return [...here, ...this.others.filter((g) => !ids.has(g.gameId))].sort(byInterest);
  }

  /**
   * Watches a game hosted on another instance: resolves with the stop function once the host's
   * catch-up was delivered, or null if no live instance hosts it. A host that died is waited out
   * until its player's resume takes the game up (CLUSTER.watchTakeUpWaitMs), as is one that dies
   * while watched (watchAgain): the spectator then gets the catch-up of where it is hosted now.
   */
  async watch(gameId: string, listener: (message: ServerMessage) => void, resumable: () => Promise<boolean> = async () => false): Promise<(() => void) | null> {
    const leased = await this.link.cmd.get(KEYS.host(gameId));
    if (leased === this.link.instance) return null;
    // Hosted nowhere: one whose dead host's lease ran out (`resumable`: its player may still take it
    // up) is waited for as one whose host is deaf (ask).
    if (leased === null && !(await resumable().catch(() => false))) return null;
    const holder = leased ?? NOBODY;
    let set = this.watchers.get(gameId);
    if (!set) {
      set = new Set();
      this.watchers.set(gameId, set);
      this.watchedAt.set(gameId, { holder, since: Date.now() });
      // Refused or timed out: no empty set left behind, or the next watch would not subscribe.
      await this.link.sub.subscribe(KEYS.gameChannel(gameId)).catch((error: unknown) => {
        if (this.watchers.get(gameId) === set) this.forgetWatched(gameId);
        throw error;
      });
    }
    const watcher: Watcher = { listener, ready: false, local: null };
    const others = [...set];
    set.add(watcher);
    // Its lease names another host than the one this set watches (the game was handed over): all of them watch it there.
    if (this.watchedAt.get(gameId)?.holder !== holder) {
      this.watchedAt.set(gameId, { holder, since: Date.now() });
      this.askAgain(gameId, others);
    }
    const stop = () => this.unwatch(gameId, watcher);
    const ok = await this.ask(gameId, watcher);
    if (!ok) stop();
    return ok ? stop : null;
  }

  private unwatch(gameId: string, watcher: Watcher): void {
    const current = this.watchers.get(gameId);
    if (!current?.delete(watcher)) return;
    watcher.local?.();
    const at = this.watchedAt.get(gameId)?.holder;
    if (at && at !== this.link.instance) this.send(KEYS.instanceChannel(at), { k: 'watch', gameId, from: this.link.instance, n: current.size } satisfies InstanceWire);
    const ask = this.asks.get(gameId);
    if (ask) ask.changed = true;
    if (current.size === 0) this.forgetWatched(gameId);
  }

  /**
   * The game moved: those of `watchers` caught up before are asked for where it is now (one still
   * waiting on its catch-up asks by itself: ask). One refused there is told so, and watches no more.
   */
  private askAgain(gameId: string, watchers: Iterable<Watcher>): void {
    for (const w of watchers) {
      if (!w.ready || w.local) continue;
      void this.ask(gameId, w).then((ok) => {
        if (ok || !this.watchers.get(gameId)?.has(w)) return; // caught up, or it stopped watching meanwhile
        this.unwatch(gameId, w);
        this.gone(gameId, w);
      });
    }
  }

  /**
   * Asks the game's host for this watcher's catch-up and waits for it. A host that does not hear
   * (gone) is waited out until the game is taken up: the next host is asked, or, taken up here,
   * the game is watched on this instance's own bus.
   */
  private async ask(gameId: string, watcher: Watcher): Promise<boolean> {
    // A host that does not hear yet renews its lease (it lost Redis for a moment) is asked again, a few times.
    for (let moves = 0; moves <= MOVES_FOLLOWED; moves++) {
      const at = this.watchedAt.get(gameId);
      const set = this.watchers.get(gameId);
      if (!at || !set?.has(watcher)) return false;
      if (at.holder === this.link.instance) return this.watchHere(gameId, watcher);
      if (at.holder === NOBODY) {
        if (!(await this.moved(gameId, NOBODY))) return false;
        continue;
      }
      watcher.ready = false;
      const outcome = await this.catchUp(gameId, at.holder, watcher, set.size);
      if (outcome === 'deaf') {
        if (!(await this.moved(gameId, at.holder))) return false;
        continue;
      }
      if (outcome === 'caught') return watcher.ready;
      // Refused by a host that handed the game over meanwhile: asked for where its lease is now.
      if (this.watchedAt.get(gameId)?.holder === at.holder) {
        const now = await this.link.cmd.get(KEYS.host(gameId)).catch(() => null);
        if (!now || now === at.holder || !this.watchers.get(gameId)?.has(watcher)) return false;
        this.watchedAt.set(gameId, { holder: now, since: Date.now() });
      }
    }
    return false;
  }

  /** Joins the catch-up this game's watchers here wait for at `holder`, or asks for one (Ask). */
  private catchUp(gameId: string, holder: string, watcher: Watcher, n: number): Promise<AskOutcome> {
    const pending = this.asks.get(gameId);
    if (pending?.holder === holder) {
      pending.waiting.add(watcher);
      pending.changed = true;
      return pending.done;
    }
    let resolve: (outcome: AskOutcome) => void = () => {};
    const done = new Promise<AskOutcome>((r) => (resolve = r));
    const ask: Ask = { holder, req: randomBytes(6).toString('hex'), n, waiting: new Set([watcher]), changed: false, settle: () => {}, done };
    const timer = setTimeout(() => ask.settle('refused'), CLUSTER.catchUpWaitMs);
    ask.settle = (outcome) => {
      clearTimeout(timer);
      if (this.asks.get(gameId) === ask) this.asks.delete(gameId);
      resolve(outcome);
    };
    this.asks.set(gameId, ask);
    const wire = { k: 'watch', gameId, from: this.link.instance, n, req: ask.req } satisfies InstanceWire;
    // Redis away: the wait's end decides.
    this.link.cmd.publish(KEYS.instanceChannel(holder), JSON.stringify(wire)).then((heard) => heard === 0 && ask.settle('deaf'), () => {});
    return done;
  }

  /** A game watched from elsewhere was taken up here: its spectator gets the catch-up and the frames of this instance's own bus. */
  private watchHere(gameId: string, watcher: Watcher): boolean {
    const snapshot = this.hooks?.snapshot(gameId);
    if (!snapshot) return false;
    watcher.local?.();
    watcher.local = this.local.subscribe(gameId, watcher.listener);
    watcher.ready = true;
    watcher.listener(snapshot);
    return true;
  }

  private gone(gameId: string, watcher: Watcher): void {
    watcher.listener({ t: 'error', code: 'unknown_game', gameId, message: 'The server hosting this game went away, and nobody has taken it up.' });
  }

  /**
   * The host of a game watched here is gone: true once another instance (or this one) holds its
   * lease (its player resumed there), false if none does within the wait. A lease `gone` still
   * holds a lease's time on was renewed: it lives after all.
   */
  private moved(gameId: string, gone: string): Promise<boolean> {
    let next = this.moving.get(gameId);
    if (next) return next;
    next = (async () => {
      const began = Date.now();
      for (; Date.now() - began < CLUSTER.watchTakeUpWaitMs; await new Promise((r) => setTimeout(r, 500).unref())) {
        const holder = await this.link.cmd.get(KEYS.host(gameId)).catch(() => null);
        if (holder !== null && (holder !== gone || Date.now() - began > CLUSTER.leaseMs + CLUSTER.renewEveryMs)) {
          // Gone, or already asked there (a new spectator's watch found it first): nobody to ask again.
          if (!this.watchedAt.has(gameId) || (this.watchedAt.get(gameId)?.holder === holder && holder !== gone)) return true;
          this.watchedAt.set(gameId, { holder, since: Date.now() });
          this.askAgain(gameId, [...(this.watchers.get(gameId) ?? [])]);
          return true;
        }
      }
      return false;
    })().finally(() => this.moving.delete(gameId));
    this.moving.set(gameId, next);
    return next;
  }

  /**
   * Games watched here whose host no longer lists itself (it died): once taken up, each spectator
   * is asked for again there (moved); one nobody takes up is told so, and its watch ends. A host
   * alive that hands its game over says so on the game's channel (`moving`), to the same end.
   */
  private watchAgain(alive: ReadonlySet<string>, listedSince: number): void {
    for (const [gameId, at] of this.watchedAt) {
      if (at.holder === this.link.instance || alive.has(at.holder) || at.since > listedSince || this.moving.has(gameId)) continue;
      this.follow(gameId, at.holder);
    }
  }

  /** A watched game's host went (`gone`): its spectators here follow it to the next, or are told nobody took it up. */
  private follow(gameId: string, gone: string): void {
    void this.moved(gameId, gone).then((ok) => {
      if (ok) return;
      const set = [...(this.watchers.get(gameId) ?? [])];
      this.forgetWatched(gameId);
      for (const w of set) this.gone(gameId, w);
    });
  }

  /**
   * Spectators counted on an instance that stopped listing itself (it died) are not counted any
   * more, nor sent frames. One not listed yet (it has just started) is counted until it is.
   */
  private forgetDeadCounts(alive: ReadonlySet<string>): void {
    const gone = [...this.listedBefore].filter((i) => !alive.has(i));
    this.listedBefore = new Set(alive);
    if (gone.length === 0) return;
    for (const [gameId, counts] of this.remoteCounts) {
      let changed = false;
      for (const from of gone) changed = counts.delete(from) || changed;
      if (counts.size === 0) this.remoteCounts.delete(gameId);
      if (changed) this.hooks?.watchersChanged(gameId);
    }
  }

  private forgetWatched(gameId: string): void {
    if (!this.watchers.delete(gameId)) return;
    this.watchedAt.delete(gameId);
    // Its catch-up, if on its way, is nobody's: a spectator coming next asks (and is counted) afresh.
    this.asks.get(gameId)?.settle('refused');
    void this.link.sub.unsubscribe(KEYS.gameChannel(gameId)).catch(() => {});
  }

  /** Asks the instance holding a game's lease to hand it over (lease.ts waits for the release). */
  askRelease(holder: string, gameId: string): void {
    this.send(KEYS.instanceChannel(holder), { k: 'release', gameId } satisfies InstanceWire);
  }

  /**
   * A versus message for one instance: in order with everything else this instance sends it.
   * Resolves with how many listened (0: that instance is gone), or null if Redis was away.
   */
  tell(instance: string, wire: VersusWire): Promise<number | null> {
    return this.link.cmd.publish(KEYS.instanceChannel(instance), JSON.stringify(wire)).catch(() => null);
  }

  /** Tells every other instance that a player's session changed (account/sessions.ts forgetSessionState). */
  sessionChanged(userId: string): void {
    this.send(KEYS.sessions, { from: this.link.instance, userId } satisfies SessionWire);
  }

  close(): void {
    clearInterval(this.lister);
  }

  private remoteSpectators(gameId: string): number {
    let n = 0;
    for (const count of this.remoteCounts.get(gameId)?.values() ?? []) n += count;
    return n;
  }

  private onInstance(w: InstanceWire): void {
    if (w.k === 'release') {
      if (this.hooks?.release(w.gameId)) this.leaving(w.gameId);
      return;
    }
    if (w.k !== 'watch') return this.hooks?.versus?.(w);
    const counts = this.remoteCounts.get(w.gameId) ?? new Map<string, number>();
    if (w.n > 0) counts.set(w.from, w.n);
    else counts.delete(w.from);
    if (counts.size > 0) this.remoteCounts.set(w.gameId, counts);
    else this.remoteCounts.delete(w.gameId);
    // Counted first, so every frame after the catch-up is relayed.
    if (w.req) this.send(KEYS.gameChannel(w.gameId), { k: 'catchup', to: w.from, req: w.req, m: this.hooks?.snapshot(w.gameId) ?? null } satisfies GameWire);
    this.hooks?.watchersChanged(w.gameId);
  }

  private onSession(w: SessionWire): void {
    if (w.from !== this.link.instance && typeof w.userId === 'string') this.hooks?.sessionChanged?.(w.userId);
  }

  private onGame(gameId: string, w: GameWire): void {
    if (w.k === 'moving') {
      const at = this.watchedAt.get(gameId);
      if (at && at.holder !== this.link.instance && !this.moving.has(gameId)) this.follow(gameId, at.holder);
      return;
    }
    const set = this.watchers.get(gameId);
    if (w.k === 'm') {
      // Taken up here: its frames come from this instance's bus.
      for (const watcher of set ?? []) if (!watcher.local && watcher.ready) watcher.listener(w.m);
      return;
    }
    const ask = this.asks.get(gameId);
    if (w.to !== this.link.instance || ask?.req !== w.req) return;
    for (const watcher of ask.waiting) {
      if (!set?.has(watcher) || watcher.local) continue;
      watcher.ready = w.m !== null;
      if (w.m) watcher.listener(w.m);
    }
    ask.settle(w.m ? 'caught' : 'refused');
    // Watchers came or went while it was on its way: the host counts those here now.
    if (w.m && set && ask.changed && ask.holder === this.watchedAt.get(gameId)?.holder)
      this.send(KEYS.instanceChannel(ask.holder), { k: 'watch', gameId, from: this.link.instance, n: set.size } satisfies InstanceWire);
  }

  private send(channel: string, wire: GameWire | InstanceWire | SessionWire): void {
    this.link.cmd.publish(channel, JSON.stringify(wire)).catch(() => {}); // Redis away: spectators elsewhere miss frames, the game goes on
  }

  /** Rewrites this instance's entries and reads everyone else's. */
  private async syncList(): Promise<void> {
    const { cmd, instance } = this.link;
    const key = KEYS.listed(instance);
    const mine = [...this.local.list(), ...this.local.listMatches()];
    const now = Date.now();
    const tx = cmd.multi().del(key);
    if (mine.length > 0) tx.hset(key, Object.fromEntries(mine.map((g) => ['gameId' in g ? g.gameId : `match:${g.matchId}`, JSON.stringify(g)])));
    await tx.pexpire(key, CLUSTER.listTtlMs).zadd(KEYS.listers, now, instance).zremrangebyscore(KEYS.listers, 0, now - CLUSTER.listTtlMs).exec();
    const listed = await cmd.zrangebyscore(KEYS.listers, now - CLUSTER.listTtlMs, '+inf');
    this.watchAgain(new Set(listed), now - CLUSTER.listTtlMs);
    this.forgetDeadCounts(new Set(listed));
    const listers = listed.filter((i) => i !== instance);
    const lists = await Promise.all(listers.map((i) => cmd.hvals(KEYS.listed(i))));
    const entries = lists.flat().map((text) => JSON.parse(text) as LiveGameSummary | LiveMatchSummary);
    this.others = entries.filter((e): e is LiveGameSummary => 'gameId' in e);
    this.otherMatches = entries.filter((e): e is LiveMatchSummary => 'matchId' in e);
  }
}
