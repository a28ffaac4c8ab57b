import 'server-only';
import { CLUSTER, KEYS } from '@/lib/server/live/cluster/cluster';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { SPAR_REFUSALS, type SparEntry, type SparRefusal, type SparringLedger } from '@/lib/server/live/match/sparring-ledger';

const HOUR_MS = 3_600_000;
const { sparringMatchesPerPlayer, sparringMatchesPerAddress, sparringStartsPerHour } = LIVE_LIMITS;
const LIMITS = [sparringMatchesPerPlayer, sparringMatchesPerAddress, sparringStartsPerHour.player, sparringStartsPerHour.address];

/** Redis's own clock in ms: the same for every instance, and read when the script runs, however late it was sent. */
const NOW = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * A start (KEYS: the player's and the address's held, then their starts; ARGV: how long a hold
 * lasts unrenewed, the hour, the match id, then LIMITS): the number of the first budget that
 * refuses (SPAR_REFUSALS, from 1), or 0 with every budget spent. One script, so two instances
 * starting at once never both pass a budget with one left.
 */
const START = `${NOW}
for i = 1, 2 do redis.call('zremrangebyscore', KEYS[i], '-inf', now) end
for i = 3, 4 do redis.call('zremrangebyscore', KEYS[i], '-inf', now - tonumber(ARGV[2])) end
for i = 1, 4 do
  if redis.call('zcard', KEYS[i]) >= tonumber(ARGV[3 + i]) then return i end
end
for i = 1, 2 do
  redis.call('zadd', KEYS[i], now + tonumber(ARGV[1]), ARGV[3])
  redis.call('pexpire', KEYS[i], ARGV[1])
end
for i = 3, 4 do
  redis.call('zadd', KEYS[i], now, ARGV[3])
  redis.call('pexpire', KEYS[i], ARGV[2])
end
return 0`;

/** A hold renewed, or taken up (KEYS: the player's and the address's held; ARGV: how long it lasts unrenewed, the match id). */
const HOLD = `${NOW}
for i = 1, 2 do
  redis.call('zadd', KEYS[i], now + tonumber(ARGV[1]), ARGV[2])
  redis.call('pexpire', KEYS[i], ARGV[1])
end
return 1`;

const UNREACHABLE: SparRefusal = { code: 'server_error', message: 'The sparring bot is unavailable for a moment (the servers cannot reach each other): try again.' };

/**
 * The sparring budgets of several instances, in Redis. A held match is a member of its player's
 * and its address's sets, scored by when it lapses (on Redis's clock): its host renews it as it
 * renews leases, so an instance that dies stops holding its matches a lease's time later, and the
 * instance taking one up holds it on (the member is the match id: counted once wherever it is hosted).
 */
export class RedisSparringLedger implements SparringLedger {
  private readonly held = new Map<string, SparEntry>();
  private readonly renewer: NodeJS.Timeout;

  constructor(
    private readonly link: RedisLink,
    /** Whether this instance still holds the match's lease (match-leases.ts): past it, a hold is renewed by whoever took the match up, or lapses. */
    private readonly leased: (matchId: string) => boolean = () => true,
  ) {
    this.renewer = setInterval(() => {
      for (const e of this.held.values()) if (this.leased(e.matchId)) this.renew(e);
    }, CLUSTER.renewEveryMs);
    this.renewer.unref();
  }

  async start(e: SparEntry): Promise<SparRefusal | null> {
    const keys = [KEYS.sparHeld('who', e.who), KEYS.sparHeld('address', e.address), KEYS.sparStarts('who', e.who), KEYS.sparStarts('address', e.address)];
    const refused = await this.link.cmd.eval(START, 4, ...keys, CLUSTER.leaseMs, HOUR_MS, e.matchId, ...LIMITS).then(Number, () => -1);
    if (refused < 0) return UNREACHABLE;
    if (refused > 0) return SPAR_REFUSALS[refused - 1] ?? UNREACHABLE;
    this.held.set(e.matchId, e);
    return null;
  }

  hold(e: SparEntry): void {
    this.held.set(e.matchId, e);
    this.renew(e);
  }

  end(matchId: string): void {
    const e = this.held.get(matchId);
    if (!e) return;
    this.held.delete(matchId);
    const { cmd } = this.link;
    void Promise.all([cmd.zrem(KEYS.sparHeld('who', e.who), matchId), cmd.zrem(KEYS.sparHeld('address', e.address), matchId)]).catch(() => {}); // Redis away: it lapses on its own
  }

  handedOver(matchId: string): void {
    // Not removed: it lapses unless the instance taking the match up holds it first.
    this.held.delete(matchId);
  }

  close(): void {
    clearInterval(this.renewer);
  }

  private renew(e: SparEntry): void {
    this.link.cmd.eval(HOLD, 2, KEYS.sparHeld('who', e.who), KEYS.sparHeld('address', e.address), CLUSTER.leaseMs, e.matchId).catch(() => {}); // Redis away: the next renewal tries again
  }
}
