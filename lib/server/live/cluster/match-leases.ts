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

  /** `hosted()`: the matches this instance hosts; `lost(id)`: one whose lease another instance now has (it stops, unstored). */
  constructor(
    private readonly link: RedisLink,
    hosted: () => string[],
    lost: (matchId: string) => void,
  ) {
    this.renewer = setInterval(() => {
      for (const matchId of hosted()) {
        this.link.cmd.eval(LEASE_SCRIPTS.renew, 1, KEYS.matchHost(matchId), this.link.instance, CLUSTER.leaseMs)
          .then(async (ok) => {
            if (ok === 1) return;
            const set = await this.link.cmd.set(KEYS.matchHost(matchId), this.link.instance, 'PX', CLUSTER.leaseMs, 'NX');
            if (set !== 'OK') lost(matchId);
          })
          .catch(() => {}); // Redis away: the match plays on here; the renewal after it comes back decides.
      }
    }, CLUSTER.renewEveryMs);
    this.renewer.unref();
  }

  get instance(): string {
    return this.link.instance;
  }

  /** A match that starts here is this instance's (its id is new: nobody else can hold it). */
  claim(matchId: string): void {
    this.known.set(matchId, { holder: this.link.instance, at: Date.now() });
    this.link.cmd.set(KEYS.matchHost(matchId), this.link.instance, 'PX', CLUSTER.leaseMs).catch(() => {});
  }

  /** Takes a match nobody holds (its holder died): true if this instance has it now. */
  async take(matchId: string): Promise<boolean> {
    const set = await this.link.cmd.set(KEYS.matchHost(matchId), this.link.instance, 'PX', CLUSTER.leaseMs, 'NX').catch(() => null);
    if (set === 'OK') this.known.set(matchId, { holder: this.link.instance, at: Date.now() });
    return set === 'OK';
  }

  release(matchId: string): void {
    this.known.delete(matchId);
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
