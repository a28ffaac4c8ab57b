import 'server-only';
import type { ServerMessage } from '@/lib/live/protocol';

/** Whose a seat's stream is, past a solo game (the connection's own host): a versus match's or a room set's. */
export type StreamKind = 'match' | 'room';

/** A socket's last few seats remembered: its match now, a rematch's, a room's next set. */
const REMEMBERED = 4;

/**
 * The seats' streams the server told one socket it plays (protocol 2 keys every batch by its stream
 * id, lib/live/protocol.ts `inputs`): a seat in a match (`match`, `vresumed`) or in a room's set
 * (`rmatch` with a seat, `rresumed`), the last few, until it is over. A batch finds its owner here, on the socket's
 * own instance, before anything is asked of another one; a batch naming any other stream is
 * answered here, so made-up ids cost neither Redis nor the host.
 */
export class StreamBook {
  private readonly seats: { id: string; kind: StreamKind }[] = [];

  /** What the socket is told, as it is sent (Connection.send): the streams it now plays. */
  heard(m: ServerMessage): void {
    switch (m.t) {
      case 'match':
      case 'vresumed':
        return this.add(m.matchId, 'match');
      case 'rmatch':
        if (m.seat !== null) this.add(m.matchId, 'room');
        return;
      case 'rresumed':
        return this.add(m.matchId, 'room');
      case 'vover':
      case 'rover':
        return this.forget(m.matchId); // played no more: a late batch is answered here, as a made-up one is
      default:
        return; // every other message names no new seat
    }
  }

  private add(id: string, kind: StreamKind): void {
    this.forget(id);
    this.seats.push({ id, kind });
    if (this.seats.length > REMEMBERED) this.seats.shift();
  }

  private forget(id: string): void {
    const at = this.seats.findIndex((s) => s.id === id);
    if (at >= 0) this.seats.splice(at, 1);
  }

  /** The kind of a stream this socket was told it plays, or undefined. */
  kindOf(id: string): StreamKind | undefined {
    return this.seats.find((s) => s.id === id)?.kind;
  }
}
