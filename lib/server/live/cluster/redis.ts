import 'server-only';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { CLUSTER } from '@/lib/server/live/cluster/cluster';

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

/**
 * A Redis that stops answering without closing its socket (stopped, or the network between gone
 * quiet) never fails a command by itself: without these, a take-up waiting on it waited for ever
 * and every renewal piled up on the dead socket. A command unanswered after `commandMs` rejects (an
 * answer later than a lease's length is about a lease that has run out); a PING unanswered that
 * long, asked every `watchMs`, drops both connections, and they dial again.
 */
export type RedisTimeouts = { commandMs: number; watchMs: number };
const TIMEOUTS: RedisTimeouts = { commandMs: CLUSTER.leaseMs, watchMs: CLUSTER.renewEveryMs };

export function connectRedis(url: string, timeouts: RedisTimeouts = TIMEOUTS): RedisLink {
  const options = {
    maxRetriesPerRequest: 2,
    enableAutoPipelining: true,
    lazyConnect: false,
    commandTimeout: timeouts.commandMs,
    // Its caller was told it timed out: sent again on the next socket, it could run twice (the
    // stalled Redis may yet run what reached it).
    autoResendUnfulfilledCommands: false,
  } as const;
  const cmd = new Redis(url, options);
  const sub = new Redis(url, options);
  for (const c of [cmd, sub]) c.on('error', (error: Error) => console.error('[live] redis:', error.message));
  const instance = `${process.pid}-${randomBytes(4).toString('hex')}`;
  // One PING out at a time, and only one asked on the connection open now drops it: a late
  // timeout from the one before must not drop the new one.
  let term = 0;
  let asking = false;
  cmd.on('ready', () => term++);
  const watch = setInterval(() => {
    if (asking || cmd.status !== 'ready') return; // closed, or dialling again: its retries decide
    asking = true;
    const asked = term;
    cmd
      .ping()
      .catch(() => {
        if (cmd.status !== 'ready' || term !== asked) return;
        console.error(`[live] redis: no answer in ${timeouts.commandMs} ms, dialling again`);
        for (const c of [cmd, sub]) c.disconnect(true);
      })
      .finally(() => (asking = false));
  }, timeouts.watchMs);
  watch.unref();
  const kill = () => (clearInterval(watch), cmd.disconnect(), sub.disconnect());
  const close = () => {
    clearInterval(watch);
    setImmediate(() => {
      for (const c of [cmd, sub]) {
        // PING is autopipelined: answered after every command asked before it, whatever pipeline it waited behind.
        void c.ping().catch(() => {}).finally(() => c.quit().catch(() => c.disconnect()));
        setTimeout(() => c.disconnect(), QUIT_WAIT_MS).unref(); // Redis away: QUIT waits for nobody
      }
    });
  };
  return { instance, cmd, sub, close, kill };
}
