import 'server-only';
import type { AckCheckpoint } from '@/lib/server/live/solo/ack-digest';
import { CLUSTER, KEYS, LEASE_SCRIPTS } from '@/lib/server/live/cluster/cluster';
import type { RedisLink } from '@/lib/server/live/cluster/redis';

/**
 * What a handover carries to the instance that takes a game: facts the ticket does not hold, and
 * how far the game was acknowledged at that moment (newer than the ticket's checkpoint). `lagMs`:
 * how far it trailed the clock past what was excused, the least of its last batches' (GameHost).
 */
export type Carried = { pauses: number; unranked: string | null; ack?: AckCheckpoint | null; awayMs?: number; lagMs?: number };

/**
 * Which instance hosts each live game. One instance alone holds every game it has in memory, so
 * the local version grants everything; on Redis a game is leased to one instance, renewed while
 * it hosts the game, and taken over by another only once released or expired.
 */
export interface GameLeases {
  /** Marks a game this instance just dealt as its own. */
  claim(gameId: string): void;
  /**
   * Takes a game this instance does not hold (a reconnect that landed here): asks the holder to
   * hand it over and waits for the lease to be released, or to expire if the holder died.
   * Null if it could not be had; otherwise what the previous host passed on.
   */
  take(gameId: string): Promise<{ carried: Carried | null } | null>;
  /**
   * Lets a game go (closed here, or handed to another instance with what it carries); settles once
   * Redis has it, true, or could not be reached, false (the lease then expires on its own), so a
   * process about to exit can wait for it and say whether it did.
   */
  release(gameId: string, carried?: Carried): Promise<boolean>;
  /** Whether another instance is recording this game's end right now. */
  recordingElsewhere(gameId: string): Promise<boolean>;
  setRecording(gameId: string, on: boolean): void;
}

export const localLeases: GameLeases = {
  claim: () => {},
  take: async () => ({ carried: null }),
  release: async () => true,
  recordingElsewhere: async () => false,
  setRecording: () => {},
};

export class RedisLeases implements GameLeases {
  private readonly renewer: NodeJS.Timeout;
  private readonly recordingHere = new Set<string>();

  /**
   * `hosted()` lists the games this instance holds; `lost(gameId)` is called for one whose lease
   * another instance now has (it was handed over while this one could not reach Redis).
   * `askRelease(holder, gameId)` sends the handover request (the bus carries it).
   */
  constructor(
    private readonly link: RedisLink,
    hosted: () => string[],
    lost: (gameId: string) => void,
    private readonly askRelease: (holder: string, gameId: string) => void,
  ) {
    this.renewer = setInterval(() => {
      for (const gameId of hosted()) {
        this.link.cmd
          .eval(LEASE_SCRIPTS.renew, 1, KEYS.host(gameId), this.link.instance, CLUSTER.leaseMs)
          .then(async (ok) => {
            if (ok === 1) return;
            // Expired while Redis was away and nobody took it: take it back; taken: let it go.
            const set = await this.link.cmd.set(KEYS.host(gameId), this.link.instance, 'PX', CLUSTER.leaseMs, 'NX');
            if (set !== 'OK') lost(gameId);
          })
          .catch(() => {}); // Redis away: the game plays on here; the renewal after it comes back decides.
      }
      for (const gameId of this.recordingHere) this.link.cmd.pexpire(KEYS.recording(gameId), CLUSTER.leaseMs).catch(() => {});
    }, CLUSTER.renewEveryMs);
    this.renewer.unref();
  }

  claim(gameId: string): void {
    this.link.cmd.set(KEYS.host(gameId), this.link.instance, 'PX', CLUSTER.leaseMs).catch(() => {});
  }

  async take(gameId: string): Promise<{ carried: Carried | null } | null> {
    const deadline = Date.now() + CLUSTER.leaseMs + CLUSTER.renewEveryMs;
    let asked = false;
    for (;;) {
      const set = await this.link.cmd.set(KEYS.host(gameId), this.link.instance, 'PX', CLUSTER.leaseMs, 'NX');
      if (set === 'OK') {
        const carried = await this.link.cmd.get(KEYS.carry(gameId));
        return { carried: carried ? (JSON.parse(carried) as Carried) : null };
      }
      const holder = await this.link.cmd.get(KEYS.host(gameId));
      if (holder === this.link.instance) return { carried: null };
      if (holder && !asked) {
        this.askRelease(holder, gameId);
        asked = true;
      }
      if (Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async release(gameId: string, carried?: Carried): Promise<boolean> {
    const { cmd, instance } = this.link;
    this.setRecording(gameId, false);
    // One transaction: the instance taking over finds what is carried the moment the lease is free.
    const tx = cmd.multi();
    if (carried) tx.set(KEYS.carry(gameId), JSON.stringify(carried), 'PX', CLUSTER.carryMs);
    return tx.eval(LEASE_SCRIPTS.drop, 1, KEYS.host(gameId), instance)
      .exec()
      .then((replies) => replies !== null && replies.every(([error]) => error === null))
      .catch(() => false); // Redis away: the lease expires on its own.
  }

  async recordingElsewhere(gameId: string): Promise<boolean> {
    return (await this.link.cmd.exists(KEYS.recording(gameId)).catch(() => 0)) === 1;
  }

  setRecording(gameId: string, on: boolean): void {
    const key = KEYS.recording(gameId);
    // Renewed with the leases (recording can take minutes while the database is away), so it
    // expires soon after this instance dies: a POST elsewhere then stops waiting for it.
    if (on) this.recordingHere.add(gameId);
    else this.recordingHere.delete(gameId);
    void (on ? this.link.cmd.set(key, this.link.instance, 'PX', CLUSTER.leaseMs) : this.link.cmd.del(key)).catch(() => {});
  }

  close(): void {
    clearInterval(this.renewer);
  }
}
