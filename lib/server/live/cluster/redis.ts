import 'server-only';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * The two connections an instance keeps to Redis: commands, and one in subscriber mode (a
 * subscribed connection can issue nothing else). Failed commands reject rather than queue for
 * ever: a live game keeps playing on its own instance while Redis is away.
 */
export type RedisLink = {
  instance: string;
  cmd: Redis;
  sub: Redis;
  /**
   * After what was asked before it (an autopipelined command waits for the loop's next turn, or for
   * the pipeline ahead of it): QUIT once a PING asked after them is answered, so a lease let go at
   * shutdown reaches Redis. Closing at once dropped such a command, its promise rejected as it closed.
   */
  close(): void;
  /** At once, whatever was not sent lost: a crash, in tests. */
  kill(): void;
};

/** How long a closing link waits for Redis to answer what was asked before it. */
const QUIT_WAIT_MS = 1_000;

export function connectRedis(url: string): RedisLink {
  const options = { maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: false } as const;
  const cmd = new Redis(url, options);
  const sub = new Redis(url, options);
  for (const c of [cmd, sub]) c.on('error', (error: Error) => console.error('[live] redis:', error.message));
  const instance = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const kill = () => (cmd.disconnect(), sub.disconnect());
  const close = () =>
    void setImmediate(() => {
      for (const c of [cmd, sub]) {
        // PING is autopipelined: answered after every command asked before it, whatever pipeline it waited behind.
        void c.ping().catch(() => {}).finally(() => c.quit().catch(() => c.disconnect()));
        setTimeout(() => c.disconnect(), QUIT_WAIT_MS).unref(); // Redis away: QUIT waits for nobody
      }
    });
  return { instance, cmd, sub, close, kill };
}
