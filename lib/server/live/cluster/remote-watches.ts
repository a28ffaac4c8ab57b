import 'server-only';
import { randomBytes } from 'node:crypto';
import type { ServerMessage } from '@/lib/live/protocol';
import type { LiveBus } from '@/lib/server/live/cluster/bus';
import { CLUSTER, KEYS } from '@/lib/server/live/cluster/cluster';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import type { GameWire, HereWatch, InstanceWire } from '@/lib/server/live/cluster/wires';

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

/**
 * Spectators on this instance of games hosted on others (RedisBus hands them here). A spectator
 * subscribes to the game's channel first, then asks the host for the catch-up, which the host
 * publishes on the same channel: frames before it are dropped (it includes them), frames after it
 * follow in order (one publisher, one channel). A game that moves (handed over, its host dead and
 * its player resuming elsewhere) is followed to its next host, or, taken up here, watched on this
 * instance's own bus.
 */
export class RemoteWatches {
  private readonly watchers = new Map<string, Set<Watcher>>();
  /** The instance hosting each game watched here, and since when it is known to: asked again if it goes. */
  private readonly watchedAt = new Map<string, { holder: string; since: number }>();
  /** Games watched here whose host went, waiting to be taken up: one look for all their spectators. */
  private readonly moving = new Map<string, Promise<boolean>>();
  /** The catch-up each game watched here waits for, if any. */
  private readonly asks = new Map<string, Ask>();

  /** `snapshot`: a game's catch-up, once it is hosted here (null if it is not). */
  constructor(
    private readonly link: RedisLink,
    private readonly local: LiveBus,
    private readonly snapshot: (gameId: string) => ServerMessage | null,
  ) {}

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
    const snapshot = this.snapshot(gameId);
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
  watchAgain(alive: ReadonlySet<string>, listedSince: number): void {
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
   * The spectators here of a game this instance let go (RedisBus.leaving): from now on watched from
   * here as any game hosted elsewhere, caught up at the next host once it holds the lease.
   */
  leftHere(gameId: string, here: readonly HereWatch[]): void {
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

  /** A message on the channel of a game watched here. */
  onGame(gameId: string, w: GameWire): void {
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

  private forgetWatched(gameId: string): void {
    if (!this.watchers.delete(gameId)) return;
    this.watchedAt.delete(gameId);
    // Its catch-up, if on its way, is nobody's: a spectator coming next asks (and is counted) afresh.
    this.asks.get(gameId)?.settle('refused');
    void this.link.sub.unsubscribe(KEYS.gameChannel(gameId)).catch(() => {});
  }

  private send(channel: string, wire: InstanceWire): void {
    this.link.cmd.publish(channel, JSON.stringify(wire)).catch(() => {}); // Redis away: the host counts this instance's spectators as before
  }
}
