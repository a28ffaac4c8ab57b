import 'server-only';
import type { ServerMessage } from '@/lib/live/protocol';
import type { Connection } from '@/lib/server/live/connection';
import type { RoomSetKeeper, VersusRooms } from '@/lib/server/live/cluster/room-sets';
import type { RoomLobby } from '@/lib/server/live/rooms/room-lobby';

/**
 * Room messages waiting at a home that takes sets up, in all and per socket. A take-up can last
 * seconds (a late 16-seat set takes ~0.3 s to rebuild, one after another), and every room
 * message that reaches the home meanwhile waits: past these, a message is not kept but its
 * socket is closed 1013, and the page dials again after its backoff.
 */
export const HOME_LINE_LIMITS = { waiting: 1_024, perSocket: 8 } as const;
/** A message waits this long at most for a take-up (Redis may not answer, or it has many sets to rebuild): then its socket is closed 1013, and the page sends it again. */
export const TAKE_UP_WAIT_MS = 15_000;

/** Who sent a room message at the home: a socket here, or one relayed from another instance (closed through it). */
export type LineSender = Pick<Connection, 'error' | 'close' | 'open'>;

/** What the room side of the versus relay needs from it. */
export type RoomHomeParts = {
  keeper: RoomSetKeeper;
  rooms: RoomLobby;
  /** The private versus rooms of two, kept with the rest. */
  versus?: VersusRooms;
  /** Whether this instance holds the versus home now. */
  isHome(): boolean;
  /** Looks the home up again (takes it if nobody holds it); its holder. */
  claim(): Promise<string | null>;
};

const BUSY = 'Rooms are being taken up on this server: reconnecting tries again in a moment.';
const MOVED = 'Rooms are held on another server now: reconnecting finds it.';

/**
 * The versus home's room sets across instances (decision 0034): the keeper writes them to Redis
 * and takes them up when this instance becomes the home; here, room messages wait in order behind
 * a take-up (so a resume finds its set), bounded; sockets in a set hear when its home goes or
 * moves, and dial again to resume it at the next.
 */
export class RoomHome {
  /** Room messages here waiting on a take-up, in order. */
  private line: Promise<void> | null = null;
  private waiting = 0;
  private readonly waitingBy = new Map<string, number>();
  /** Here: sockets seated in (or watching) a set at the home, by connection id. */
  private readonly inSets = new Map<string, Connection>();

  constructor(private readonly o: RoomHomeParts) {}

  /**
   * A room message at the home, after the sets it is taking up and after those that waited before
   * it. One naming a set or room held here already (`here`) goes at once unless its own socket has
   * one waiting (a seat's batches do not wait on a take-up's retries). One relayed from another
   * instance may come before this instance has heard it is the home: it asks first, and one that
   * finds the home elsewhere (or handed over) closes its socket.
   */
  inOrder(handle: () => Promise<void> | void, from: LineSender, key: string, here = false): Promise<void> | void {
    const { keeper } = this.o;
    if (this.o.isHome() && !keeper.handedOver && !this.waitingBy.has(key) && (here || (!this.line && !keeper.takingUp))) return handle();
    const mine = this.waitingBy.get(key) ?? 0;
    if (this.waiting >= HOME_LINE_LIMITS.waiting || mine >= HOME_LINE_LIMITS.perSocket) return from.close(1013, BUSY);
    this.waiting++;
    this.waitingBy.set(key, mine + 1);
    const failed = (error: unknown) => {
      console.error('[live] a room message failed:', error);
      from.error('server_error', 'The server could not handle this message.');
    };
    const before = this.line ?? (this.o.isHome() ? Promise.resolve() : this.o.claim().then(() => {}));
    // Its own deadline, from now: those before it had theirs earlier, so none waits past it.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), TAKE_UP_WAIT_MS).unref()));
    const next = before
      .then(() => Promise.race([keeper.takingUp, deadline]))
      .then((late) => {
        // Its socket closed meanwhile: a seat or a watch for it would be nobody's.
        if (!from.open) return;
        if (late === 'late' && keeper.takingUp) return from.close(1013, BUSY);
        if (!this.o.isHome() || keeper.handedOver) return from.close(1012, MOVED);
        // Handled in order, not waited for: one waiting on the database (a ranked queue's rating) holds up no other.
        void Promise.resolve(handle()).catch(failed);
      })
      .catch(failed)
      .finally(() => {
        clearTimeout(timer);
        this.done(key);
      });
    this.line = next;
    void next.then(() => {
      if (this.line === next) this.line = null;
    });
    return next;
  }

  private done(key: string): void {
    this.waiting--;
    const left = (this.waitingBy.get(key) ?? 1) - 1;
    if (left > 0) this.waitingBy.set(key, left);
    else this.waitingBy.delete(key);
  }

  /** This instance has just become the home: the sets the last one wrote are taken up here, messages waiting meanwhile. */
  takeUp(): Promise<void> {
    return this.o.keeper.takeUp();
  }

  /** The server stops: each set's last checkpoint is written for the next home. */
  handOver(): Promise<void> {
    return this.o.keeper.handOver();
  }

  close(): void {
    this.o.keeper.close();
  }

  /** Room messages waiting here now (the tests read it). */
  get queued(): number {
    return this.waiting;
  }

  /** A socket here heard from the home: whether it now sits in (or watches) a set there. */
  note(conn: Connection, m: ServerMessage): void {
    if (m.t === 'rmatch') this.inSets.set(conn.id, conn);
    else if (m.t === 'rover' || m.t === 'rclosed' || (m.t === 'rroom' && !m.playing)) this.inSets.delete(conn.id);
  }

  /** The socket left its set (unwatched, left the room, closed). */
  forget(id: string): void {
    this.inSets.delete(id);
  }

  /**
   * The home has gone (`spokeWith` tells whether a socket here spoke to it): the next home takes
   * its sets up, so a socket here in one of them closes 1012, and the page resumes it there.
   */
  gone(spokeWith: (id: string) => boolean): void {
    for (const [id, conn] of this.inSets) {
      if (!spokeWith(id)) continue;
      this.inSets.delete(id);
      if (conn.open) conn.close(1012, 'The server holding your room has gone: reconnecting takes your set up again.');
    }
  }

  /**
   * Another instance holds the home now, this one still running (it stalled, or lost Redis past the
   * lease): the next home takes the sets, the rooms in their lobby and the rooms of two up from
   * Redis, so they stop here (sets unstored), and their people's pages dial again to find them there.
   */
  lost(): void {
    this.o.keeper.lost();
    for (const peer of [...this.o.rooms.stopSets(), ...this.o.rooms.stopLobbies(), ...(this.o.versus?.stop() ?? [])]) if (peer.open) peer.close?.(1012, 'The server holding your room moved: reconnecting finds it there.');
  }
}
