import 'server-only';
import type { LiveGameSummary, ServerMessage } from '@/lib/live/protocol';
import type { LiveMatchSummary } from '@/lib/live/versus';
import { byInterest, createLocalBus, type LiveBus } from '@/lib/server/live/cluster/bus';
import { CLUSTER, KEYS } from '@/lib/server/live/cluster/cluster';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import { RemoteWatches } from '@/lib/server/live/cluster/remote-watches';
import type { GameWire, HereWatch, InstanceWire, SessionWire, VersusWire } from '@/lib/server/live/cluster/wires';

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

/**
 * The live bus across instances. A host's spectators on its own instance are served in memory as
 * before; frames go to Redis only while some other instance has spectators of that game (they
 * say so on the host's instance channel), so an unwatched game costs Redis nothing; the host
 * publishes a catch-up asked for on the game's channel too (spectators elsewhere: remote-watches.ts).
 * "Live now" is each instance's own list, rewritten every second with an expiry, merged on read.
 */
export class RedisBus implements LiveBus {
  private readonly local = createLocalBus();
  private readonly remoteCounts = new Map<string, Map<string, number>>();
  /** Spectators here of games hosted elsewhere. */
  private readonly remote: RemoteWatches;
  /** Spectators here of the games hosted here, by game: they follow a game that leaves (leaving). */
  private readonly hereWatches = new Map<string, Set<HereWatch>>();
  /** The instances listed at the last sync. */
  private listedBefore = new Set<string>();
  private others: LiveGameSummary[] = [];
  private otherMatches: LiveMatchSummary[] = [];
  private readonly lister: NodeJS.Timeout;
  private hooks: BusHooks | null = null;

  constructor(private readonly link: RedisLink) {
    this.remote = new RemoteWatches(link, this.local, (gameId) => this.hooks?.snapshot(gameId) ?? null);
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
        else this.remote.onGame(channel.slice(KEYS.gameChannel('').length), JSON.parse(text) as GameWire);
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
    this.remote.leftHere(gameId, here);
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

  // Versus matches, wherever hosted, are listed as the games are: each instance's own, merged on read.
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
   * catch-up was delivered, or null if no live instance hosts it (RemoteWatches.watch).
   */
  watch(gameId: string, listener: (message: ServerMessage) => void, resumable?: () => Promise<boolean>): Promise<(() => void) | null> {
    return this.remote.watch(gameId, listener, resumable);
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
    this.remote.watchAgain(new Set(listed), now - CLUSTER.listTtlMs);
    this.forgetDeadCounts(new Set(listed));
    const listers = listed.filter((i) => i !== instance);
    const lists = await Promise.all(listers.map((i) => cmd.hvals(KEYS.listed(i))));
    const entries = lists.flat().map((text) => JSON.parse(text) as LiveGameSummary | LiveMatchSummary);
    this.others = entries.filter((e): e is LiveGameSummary => 'gameId' in e);
    this.otherMatches = entries.filter((e): e is LiveMatchSummary => 'matchId' in e);
  }
}
