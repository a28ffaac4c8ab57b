import 'server-only';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import type { Connection } from '@/lib/server/live/connection';
import type { LiveHere } from '@/lib/server/live/here';

/**
 * A `watch` for a game this instance does not host: with several instances, the spectator's
 * socket may have landed on another one than the player's; the bus relays (redis-bus.ts).
 */
export async function watchElsewhere(hub: LiveHere, conn: Connection, gameId: string): Promise<void> {
  const remote = hub.shared.remote;
  if (conn.watches.has(gameId)) return;
  if (conn.watches.size >= LIVE_LIMITS.watchesPerConnection)
    return conn.error('rate_limited', `At most ${LIVE_LIMITS.watchesPerConnection} games watched at once.`, { gameId });
  // Held while the catch-up is on its way (seconds, or a dead host's take-up): it counts against the
  // socket's watches, and an `unwatch` meanwhile ends the watch once it starts.
  let unwatched = false;
  const waiting = () => void (unwatched = true);
  conn.watches.set(gameId, waiting);
  let stop: (() => void) | null;
  try {
    stop = remote ? await remote.bus.watch(gameId, (msg) => unwatched || conn.send(msg)) : null;
  } finally {
    if (conn.watches.get(gameId) === waiting) conn.watches.delete(gameId);
  }
  if (!stop) return unwatched ? undefined : conn.error('unknown_game', 'No live game with this id is being played now.', { gameId });
  // The socket closed, or unwatched, while the catch-up was on its way.
  if (!conn.open || unwatched || conn.watches.has(gameId)) return stop();
  conn.watches.set(gameId, stop);
}
