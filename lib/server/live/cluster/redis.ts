import 'server-only';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * The two connections an instance keeps to Redis: commands, and one in subscriber mode (a
 * subscribed connection can issue nothing else). Failed commands reject rather than queue for
 * ever: a live game keeps playing on its own instance while Redis is away.
 */
export type RedisLink = { instance: string; cmd: Redis; sub: Redis; close(): void };

export function connectRedis(url: string): RedisLink {
  const options = { maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: false } as const;
  const cmd = new Redis(url, options);
  const sub = new Redis(url, options);
  for (const c of [cmd, sub]) c.on('error', (error: Error) => console.error('[live] redis:', error.message));
  const instance = `${process.pid}-${randomBytes(4).toString('hex')}`;
  return { instance, cmd, sub, close: () => (cmd.disconnect(), sub.disconnect()) };
}
