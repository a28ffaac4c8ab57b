import 'server-only';
import { CLUSTER, KEYS, LEASE_SCRIPTS } from '@/lib/server/live/cluster/cluster';
import type { RedisLink } from '@/lib/server/live/cluster/redis';

/** How long a holder looked up is trusted before it is asked again (a dead holder is also found by nobody hearing it). */
const HOLDER_CACHE_MS = 1_000;

/**
 * Which instance hosts each versus match (docs/decisions/0018): a lease like a live game's, set
 * when the match starts or is taken up, renewed while it is hosted, dropped when it closes. Every
 * message naming a match goes to its holder; a match whose holder is gone (the lease expired) is
 * taken up from its checkpoint by the instance its player's `vresume` reached.
 */
export class MatchLeases {
  private readonly renewer: NodeJS.Timeout;
  private readonly known = new Map<string, { holder: string | null; at: number }>();
  private readonly asking = new Map<string, Promise<string | null>>();
  /** Per match hosted here: when the last write that set or renewed its lease was sent (Date.now()). */
  private readonly renewedAt = new Map<string, number>();

  /**
   * `hosted()`: the matches this instance hosts; `lost(id)`: one it no longer holds, because another
   * instance has its lease now or because no renewal succeeded for a lease's time (Redis or this
   * process stalled: another may have taken it up). The host stops either way, unstored.
   */
  constructor(
    private readonly link: RedisLink,
    hosted: () => string[],
    lost: (matchId: string) => void,
  ) {
    this.renewer = setInterval(() => {
      const ids = new Set(hosted());
      for (const matchId of [...this.renewedAt.keys()]) if (!ids.has(matchId)) this.renewedAt.delete(matchId);
      for (const matchId of ids) {
        // Only a match claimed or taken here is timed: every match hosted here is (the sparring bot's too), until it is let go.
        const timed = this.renewedAt.has(matchId);
        if (timed && !this.held(matchId)) {
          this.renewedAt.delete(matchId);
          lost(matchId);
          continue;
        }
        const sent = Date.now();
        this.link.cmd.eval(LEASE_SCRIPTS.renew, 1, KEYS.matchHost(matchId), this.link.instance, CLUSTER.leaseMs)
          .then(async (ok) => {
            if (ok === 1) return this.renewed(matchId, sent);
            const set = await this.link.cmd.set(KEYS.matchHost(matchId), this.link.instance, 'PX', CLUSTER.leaseMs, 'NX');
            if (set === 'OK') this.renewed(matchId, sent);
            else if (this.renewedAt.delete(matchId) || !timed) lost(matchId);
          })
          .catch(() => {}); // Redis away: the match plays on here until a lease's time after the last renewal (held).
      }
    }, CLUSTER.renewEveryMs);
    this.renewer.unref();
  }

  /**
   * Whether this instance may still act for the match: a lease's time has not passed since the last
   * renewal it sent that succeeded (Redis counts the lease from when it got it, no earlier). Past
   * that, another instance may have taken the match up: a host asked here stops instead.
   */
  held(matchId: string): boolean {
    const at = this.renewedAt.get(matchId);
    return at !== undefined && Date.now() - at < CLUSTER.leaseMs;
  }

  private renewed(matchId: string, sent: number): void {
    const at = this.renewedAt.get(matchId);
    // A renewal answered after the match was let go (or stopped) does not bring it back.
    if (at !== undefined && sent > at) this.renewedAt.set(matchId, sent);
  }

  get instance(): string {
    return this.link.instance;
  }

  /** A match that starts here is this instance's (its id is new: nobody else can hold it). */
  claim(matchId: string): void {
    const sent = Date.now();
    this.known.set(matchId, { holder: this.link.instance, at: sent });
    // Held from now (its id is new): a SET that fails leaves it unrenewed, and it stops a lease's time later.
    this.renewedAt.set(matchId, sent);
    this.link.cmd.set(KEYS.matchHost(matchId), this.link.instance, 'PX', CLUSTER.leaseMs).catch(() => {});
  }

  /** Takes a match nobody holds (its holder died): true if this instance has it now. */
  async take(matchId: string): Promise<boolean> {
    const sent = Date.now();
    const set = await this.link.cmd.set(KEYS.matchHost(matchId), this.link.instance, 'PX', CLUSTER.leaseMs, 'NX').catch(() => null);
    if (set === 'OK') {
      this.known.set(matchId, { holder: this.link.instance, at: Date.now() });
      this.renewedAt.set(matchId, sent);
    }
    return set === 'OK';
  }

  release(matchId: string): void {
    this.known.delete(matchId);
    this.renewedAt.delete(matchId);
    this.link.cmd.eval(LEASE_SCRIPTS.drop, 1, KEYS.matchHost(matchId), this.link.instance).catch(() => {});
  }

  /** The instance hosting the match, null if none does (never hosted, over, or its holder died). Concurrent asks share one read, so a socket's messages keep their order. */
  holder(matchId: string): Promise<string | null> | string | null {
    const known = this.known.get(matchId);
    if (known && Date.now() - known.at < HOLDER_CACHE_MS) return known.holder;
    let asking = this.asking.get(matchId);
    if (!asking) {
      asking = this.link.cmd.get(KEYS.matchHost(matchId)).catch(() => known?.holder ?? null).then((holder) => {
        this.asking.delete(matchId);
        if (this.known.size > 10_000) this.known.clear(); // a cache, not a record: bounded by forgetting
        this.known.set(matchId, { holder, at: Date.now() });
        return holder;
      });
      this.asking.set(matchId, asking);
    }
    return asking;
  }

  /** The holder told did not hear (gone): look again next time. */
  forget(matchId: string): void {
    this.known.delete(matchId);
  }

  close(): void {
    clearInterval(this.renewer);
  }
}
