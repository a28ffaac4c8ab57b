import 'server-only';
import { env } from '@/lib/server/env';
import { createLocalBus, type LiveBus } from '@/lib/server/live/cluster/bus';
import { localLeases, RedisLeases, type GameLeases } from '@/lib/server/live/cluster/lease';
import { connectRedis, type RedisLink } from '@/lib/server/live/cluster/redis';
import { RedisBus, type BusHooks } from '@/lib/server/live/cluster/redis-bus';

/** What the hub needs besides the bus hooks: the games it holds, and what to do with one lost. */
export type HubHooks = BusHooks & { hosted(): string[]; lost(gameId: string): boolean };

export type SharedState = {
  bus: LiveBus;
  leases: GameLeases;
  /** Spectating a game hosted on another instance, and relaying versus to its home; null with one instance. */
  remote: { bus: RedisBus; link: RedisLink } | null;
  close(): void;
};

/** In memory with one instance (the default: nothing to run besides the site); on Redis when REDIS_URL is set. */
export function createSharedState(hooks: HubHooks, redisUrl: string | null | undefined = env.REDIS_URL): SharedState {
  if (!redisUrl) return { bus: createLocalBus(), leases: localLeases, remote: null, close: () => {} };
  const link = connectRedis(redisUrl);
  const bus = new RedisBus(link);
  bus.setHooks(hooks);
  // A game whose lease another instance took is let go here, and its spectators follow it there.
  const lost = (gameId: string) => void (hooks.lost(gameId) && bus.leaving(gameId));
  const leases = new RedisLeases(link, hooks.hosted, lost, (holder, gameId) => bus.askRelease(holder, gameId));
  return {
    bus, leases, remote: { bus, link },
    close: () => (bus.close(), leases.close(), link.close()),
  };
}
