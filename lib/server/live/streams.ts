import 'server-only';
import type { ServerMessage } from '@/lib/live/protocol';

/** Whose a seat's stream is, past a solo game (the connection's own host): a versus match's or a room set's. */
export type StreamKind = 'match' | 'room';

/** A socket's last few seats remembered: its match now, a rematch's, a room's next set. */
const REMEMBERED = 4;

/**
 * The seats' streams the server told one socket it plays (protocol 2 keys every batch by its stream
 * id, lib/live/protocol.ts `inputs`): a seat in a match (`match`, `vresumed`) or in a room's set
 * (`rmatch` with a seat, `rresumed`), the last few, until it is over or the socket is out of its
 * room (`rclosed`, or its own `rleave`). A batch finds its owner here, on the socket's
 * own instance, before anything is asked of another one; a batch naming any other stream is
 * answered here, so made-up ids cost neither Redis nor the host.
 */
export class StreamBook {
  /** `code`: a room set's room, as `rmatch` named it. */
  private readonly seats: { id: string; kind: StreamKind; code?: string }[] = [];

  /** What the socket is told, as it is sent (Connection.send): the streams it now plays. */
  heard(m: ServerMessage): void {
    switch (m.t) {
      case 'match':
      case 'vresumed':
        return this.add(m.matchId, 'match');
      case 'rmatch':
        if (m.seat !== null) this.add(m.matchId, 'room', m.code);
        return;
      case 'rresumed': // after its rmatch (RoomHost.resume), whose room it keeps
        return this.add(m.matchId, 'room', this.seats.find((s) => s.id === m.matchId)?.code);
      case 'vover':
      case 'rover':
        return this.forget(m.matchId); // played no more: a late batch is answered here, as a made-up one is
      case 'rclosed': // kicked, or its room gone: its seat is nobody's on this socket
        return this.leftRoom(m.code);
      default:
        return; // every other message names no new seat
    }
  }

  /** The socket is out of this room (told so, or it said `rleave`): its set's batches are answered here from now on. */
  leftRoom(code: string): void {
    for (let at = this.seats.length - 1; at >= 0; at--) if (this.seats[at]!.code === code) this.seats.splice(at, 1);
  }

  private add(id: string, kind: StreamKind, code?: string): void {
    this.forget(id);
    this.seats.push(code === undefined ? { id, kind } : { id, kind, code });
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
