import 'server-only';
import type { LiveErrorCode, ServerMessage, VersusClientMessage } from '@/lib/live/protocol';
import type { LivePlayer } from '@/lib/live/wire';
import type { Owner } from '@/lib/server/games/owner';
import { CLUSTER, KEYS, LEASE_SCRIPTS } from '@/lib/server/live/cluster/cluster';
import { guarded } from '@/lib/server/live/guarded';
import type { Connection, VersusPeer } from '@/lib/server/live/connection';
import type { MatchHost } from '@/lib/server/live/match/match-host';
import type { RedisBus, VersusWire } from '@/lib/server/live/cluster/redis-bus';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import type { VersusLobby } from '@/lib/server/live/match/versus-lobby';

/** Where a connection's versus messages go: the lobby here, or the versus home elsewhere. */
export type VersusDoor = {
  /** A promise only when the message waits (a rating read, where versus runs): most are handled at once. */
  handle(conn: Connection, m: VersusClientMessage): Promise<void> | void;
  drop(conn: Connection): void;
  close(): void;
};

/** One instance: every versus message goes to its own lobby. */
export const localDoor = (lobby: VersusLobby): VersusDoor => ({
  handle: (conn, m) => lobby.handle(conn, m),
  drop: (conn) => lobby.drop(conn),
  close: () => {},
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

  constructor(
    private readonly link: RedisLink,
    private readonly bus: RedisBus,
    private readonly lobby: VersusLobby,
    /** Tests give each cluster of relays a home of its own. */
    private readonly homeKey: string = KEYS.versusHome,
  ) {
    this.timer = setInterval(() => void this.claim().then(() => this.forgetGone()), CLUSTER.renewEveryMs);
    this.timer.unref();
    void this.claim();
  }

  async handle(conn: Connection, m: VersusClientMessage): Promise<void> {
    const home = this.home ?? (await this.claim());
    if (!conn.open) return; // closed while the home was being looked up: nothing to relay or undo
    if (!home) return conn.error('server_error', 'Versus is unavailable for a moment (the instances cannot agree where it runs): try again.');
    if (home === this.link.instance) return this.lobby.handle(conn, m);
    conn.relayedTo = home;
    this.relayed.set(conn.id, conn);
    // Sent at once (the order of a socket's messages is the order of these calls); checked after.
    const heard = await this.bus.tell(home, { k: 'vin', from: this.link.instance, peer: conn.id, who: { owner: conn.owner, player: conn.player, address: conn.address, device: conn.device }, m });
    if (heard !== 0) return;
    // The home is gone (its lease has not expired yet): look again from the next message on.
    if (this.home === home) this.home = null;
    conn.error('server_error', 'The server running versus has just gone; try again in a few seconds.');
  }

  drop(conn: Connection): void {
    this.lobby.drop(conn);
    if (!conn.relayedTo) return;
    this.relayed.delete(conn.id);
    void this.bus.tell(conn.relayedTo, { k: 'vclose', from: this.link.instance, peer: conn.id });
  }

  /** A wire from another instance (redis-bus.ts hands it over). */
  receive(w: VersusWire): void {
    if (w.k === 'vout') {
      const conn = this.relayed.get(w.peer);
      if (conn) return conn.send(w.m);
      // An answer for a socket gone from here: its `vclose` was lost, so it is said again.
      void this.bus.tell(w.from, { k: 'vclose', from: this.link.instance, peer: w.peer });
      return;
    }
    const key = `${w.from}:${w.peer}`;
    if (w.k === 'vclose') return this.dropPeer(key);
    let peer = this.peers.get(key);
    if (!peer) {
      peer = new RelayedPeer(w.from, w.who.owner, w.who.player, w.who.address, w.who.device ?? null, (m) => void this.bus.tell(w.from, { k: 'vout', from: this.link.instance, peer: w.peer, m }));
      this.peers.set(key, peer);
    }
    guarded(() => this.lobby.handle(peer, w.m), (error) => {
      console.error('[live] a relayed versus message failed:', error);
      peer.error('server_error', 'The server could not handle this message.');
    });
  }

  /** A relayed socket closed (or its instance is gone): the lobby drops it, as it would its own. */
  private dropPeer(key: string): void {
    const peer = this.peers.get(key);
    if (!peer) return;
    this.peers.delete(key);
    peer.open = false;
    for (const stop of peer.watches.values()) stop();
    this.lobby.drop(peer);
    peer.watches.clear();
  }

  /**
   * On the home: the players of an instance that stopped (it no longer lists itself, every second,
   * in redis-bus.ts) are dropped, so a dead instance's players leave the queue and their rooms,
   * and their match seats start their resume window, instead of waiting there for ever.
   */
  private async forgetGone(): Promise<void> {
    if (this.home !== this.link.instance || this.peers.size === 0) return;
    const now = Date.now();
    const alive = new Set(await this.link.cmd.zrangebyscore(KEYS.listers, now - CLUSTER.listTtlMs, '+inf').catch(() => null));
    if (alive.size === 0) return; // Redis away or the list not written yet: nothing to go by
    // A peer newer than the list's expiry may come from an instance that has not listed itself yet.
    for (const [key, peer] of this.peers) if (!alive.has(peer.from) && now - peer.since > CLUSTER.listTtlMs) this.dropPeer(key);
  }

  close(): void {
    clearInterval(this.timer);
    if (this.home === this.link.instance) void this.link.cmd.eval(LEASE_SCRIPTS.drop, 1, this.homeKey, this.link.instance).catch(() => {});
  }

  /** Takes the home if nobody holds it, renews it if this instance does; returns the holder. */
  private claim(): Promise<string | null> {
    this.claiming ??= (async () => {
      const { cmd, instance } = this.link;
      try {
        if (this.home === instance && (await cmd.eval(LEASE_SCRIPTS.renew, 1, this.homeKey, instance, CLUSTER.leaseMs)) === 1) return instance;
        const set = await cmd.set(this.homeKey, instance, 'PX', CLUSTER.leaseMs, 'NX');
        this.home = set === 'OK' ? instance : await cmd.get(this.homeKey);
      } catch {
        // Redis away: the last home known stays the guess; a relayed message may then be lost.
      }
      return this.home;
    })().finally(() => (this.claiming = null));
    return this.claiming;
  }
}

/** A player connected to another instance, as the lobby on the home sees it. */
class RelayedPeer implements VersusPeer {
  open = true;
  readonly since = Date.now();
  match: { host: MatchHost; seat: 0 | 1 } | null = null;
  readonly watches = new Map<string, () => void>();

  constructor(
    /** The instance the player's socket is on. */
    readonly from: string,
    readonly owner: Owner,
    readonly player: LivePlayer,
    readonly address: string,
    readonly device: string | null,
    private readonly relay: (m: ServerMessage) => void,
  ) {}

  send(message: ServerMessage): void {
    if (this.open) this.relay(message);
  }

  error(code: LiveErrorCode, message: string, extra: { gameId?: string; seq?: number } = {}): void {
    this.send({ t: 'error', code, message, ...extra });
  }
}
