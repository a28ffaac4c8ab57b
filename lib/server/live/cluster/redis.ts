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
 * answer later than a lease's length is about a lease that has run out). Each connection is asked
 * a PING every `watchMs`; after MISSES unanswered in a row it is reset and dials again.
 */
export type RedisTimeouts = { commandMs: number; watchMs: number };
const TIMEOUTS: RedisTimeouts = { commandMs: CLUSTER.leaseMs, watchMs: CLUSTER.renewEveryMs };
/**
 * PINGs unanswered in a row before a connection is reset: one pause of a lease's length (a fork,
 * an fsync) resets nothing, since every instance's connections would go at once and what was
 * published meanwhile would be lost.
 */
const MISSES = 2;

export function connectRedis(url: string, timeouts: RedisTimeouts = TIMEOUTS): RedisLink {
  const options = { maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: false, commandTimeout: timeouts.commandMs } as const;
  // A command whose caller was told it timed out is not sent again on the next socket: it could
  // run twice. The subscriber's are (a SUBSCRIBE unanswered when its socket went is in no list the
  // next socket subscribes again from, and twice is harmless).
  const cmd = new Redis(url, { ...options, autoResendUnfulfilledCommands: false });
  const sub = new Redis(url, options);
  for (const c of [cmd, sub]) c.on('error', (error: Error) => console.error('[live] redis:', error.message));
  const instance = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const unwatch = [cmd, sub].map((c) => watch(c, timeouts));
  const kill = () => (unwatch.forEach((f) => f()), cmd.disconnect(), sub.disconnect());
  const close = () => {
    unwatch.forEach((f) => f());
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

/** Resets `c` once MISSES PINGs in a row go unanswered; returns what stops the watch. */
function watch(c: Redis, timeouts: RedisTimeouts): () => void {
  // One PING out at a time, and only those asked on the connection open now count: a late timeout
  // from the one before must not reset the new one.
  let term = 0;
  let asking = false;
  let missed = 0;
  c.on('ready', () => ((term += 1), (missed = 0)));
  const timer = setInterval(() => {
    if (asking || c.status !== 'ready') return; // closed, or dialling again: its retries decide
    asking = true;
    const asked = term;
    c.ping()
      .then(
        () => void (term === asked && (missed = 0)),
        () => {
          if (c.status !== 'ready' || term !== asked || ++missed < MISSES) return;
          console.error(`[live] redis: ${MISSES} PINGs unanswered in ${timeouts.commandMs} ms each, dialling again`);
          // Reset, not closed: what this socket has not sent yet is thrown away, rather than reaching
          // Redis late, after what the next socket carries (an older checkpoint over a newer one).
          c.stream?.resetAndDestroy();
        },
      )
      .finally(() => (asking = false));
  }, timeouts.watchMs);
  timer.unref();
  return () => clearInterval(timer);
}
