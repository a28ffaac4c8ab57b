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
  const stop = remote ? await remote.bus.watch(gameId, (msg) => conn.send(msg)) : null;
  if (!stop) return conn.error('unknown_game', 'No live game with this id is being played now.', { gameId });
  // The socket closed (or asked twice) while the catch-up was on its way.
  if (!conn.open || conn.watches.has(gameId)) return stop();
  conn.watches.set(gameId, stop);
}
