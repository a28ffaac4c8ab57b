import 'server-only';
import type { ServerMessage } from '@/lib/live/protocol';
import { mayWatchMore, type Connection } from '@/lib/server/live/connection';
import type { LiveHere } from '@/lib/server/live/here';
import { mayBeTakenUp } from '@/lib/server/live/solo/adopt';

/**
 * A `watch` for a game this instance does not host: with several instances, the spectator's
 * socket may have landed on another one than the player's; the bus relays (remote-watches.ts).
 */
export async function watchElsewhere(hub: LiveHere, conn: Connection, gameId: string): Promise<void> {
  const remote = hub.shared.remote;
  if (conn.watches.has(gameId) || !mayWatchMore(conn, hub.door.watchingElsewhere(conn), gameId)) return;
  // Held while the catch-up is on its way (seconds, or a dead host's take-up): it counts against the
  // socket's watches, and an `unwatch` meanwhile ends the watch once it starts.
  let unwatched = false;
  const waiting = () => void (unwatched = true);
  conn.watches.set(gameId, waiting);
  let stop: (() => void) | null;
  try {
    // Hosted nowhere: its ticket says whether a resume may still take it up, read within the address's budget.
    const resumable = async () => hub.ticketReadsByAddress.take(conn.address, performance.now()) && (await mayBeTakenUp(gameId));
    stop = remote ? await remote.bus.watch(gameId, spectating(conn, gameId, () => unwatched), resumable) : null;
  } finally {
    if (conn.watches.get(gameId) === waiting) conn.watches.delete(gameId);
  }
  if (!stop) return unwatched ? undefined : conn.error('unknown_game', 'No live game with this id is being played now.', { gameId });
  // The socket closed, or unwatched, while the catch-up was on its way.
  if (!conn.open || unwatched || conn.watches.has(gameId)) return stop();
  conn.watches.set(gameId, stop);
}

/**
 * What a spectator's socket gets of a watched game: its messages, unless it unwatched meanwhile.
 * Told the game is gone (its host died and nobody took it up), the watch is over: the socket may
 * watch it again, and the slot is free.
 */
export function spectating(conn: Connection, gameId: string, unwatched: () => boolean = () => false): (m: ServerMessage) => void {
  return (m) => {
    if (unwatched()) return;
    if (m.t === 'error' && m.code === 'unknown_game' && m.gameId === gameId) conn.watches.delete(gameId);
    conn.send(m);
  };
}
