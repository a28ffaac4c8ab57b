import 'server-only';
import type { RedisRoomCheckpoints } from '@/lib/server/live/cluster/room-checkpoints';
import type { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import type { RoomSetWritten } from '@/lib/server/live/rooms/room-checkpoint';

/** How often the home writes its room sets: what a take-up replays past, at most (the players' pages resend it). */
export const ROOM_SET_WRITE_MS = 1_000;
/** A take-up Redis did not fully answer is tried again this many times, a write's interval apart. */
const TAKE_UP_TRIES = 10;

/**
 * The versus home's room sets kept on Redis (decision 0034): each written every ROOM_SET_WRITE_MS
 * while this instance holds the home, dropped once it has ended here (stored, or closed empty),
 * and taken up by whichever instance holds the home next, from a crash or a shutdown. Messages
 * for rooms wait for a take-up under way (`takingUp`), so a resume finds its set.
 */
export class RoomSetKeeper {
  /** Sets this instance has written, so it drops each once it has ended here. */
  private readonly mine = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> | null = null;
  private stopped = false;
  takingUp: Promise<void> | null = null;
  /** The rooms in their lobby the last home wrote are still to be read (a take-up under way). */
  private lobbiesDue = false;

  constructor(
    private readonly store: RedisRoomCheckpoints,
    private readonly lobby: RoomLobby,
    private readonly isHome: () => boolean,
  ) {
    this.timer = setInterval(() => void this.write(), ROOM_SET_WRITE_MS);
    this.timer.unref();
  }

  /** Writes every set here, then drops those that ended; one write at a time. */
  write(): Promise<void> {
    // While sets are taken up, those not yet rebuilt here must not read as ended.
    if (this.stopped || this.takingUp || !this.isHome()) return Promise.resolve();
    this.writing ??= (async () => {
      const here = new Set<string>();
      for (const { cp, room } of this.lobby.sets()) {
        here.add(cp.matchId);
        // Refused: another instance holds the home now (the relay stops these sets when it hears so).
        if (!(await this.store.save(cp, room))) return;
        this.mine.add(cp.matchId);
      }
      for (const id of this.mine) {
        if (here.has(id) || this.lobby.matches.has(id)) continue;
        this.mine.delete(id);
        this.store.drop(id);
      }
      // Not before the last home's have been read: they would be written over.
      if (!this.lobbiesDue) await this.store.saveLobbies(this.lobby.lobbies());
    })().finally(() => (this.writing = null));
    return this.writing;
  }

  /**
   * This instance has just become the home: every set listed under it is taken up here (once,
   * whatever asks meanwhile). A set is dropped only when it is gone, unreadable or refused; one
   * Redis did not answer for is asked again a little later, never dropped.
   */
  takeUp(attempt = 0): Promise<void> {
    this.takingUp ??= (async () => {
      let again = false;
      const ids = await this.store.listed().catch(() => ((again = true), [] as string[]));
      for (const id of ids) {
        if (this.lobby.matches.has(id)) continue;
        let written: RoomSetWritten | null;
        try {
          written = await this.store.read(id);
        } catch {
          again = true;
          continue;
        }
        let taken = false;
        try {
          taken = written !== null && this.lobby.takeUp(written);
        } catch (error) {
          // A bug in rebuilding one set must not end the process (and then every next home's, in turn).
          console.error(`[rooms] set ${id} could not be taken up:`, error);
        }
        if (taken) {
          this.mine.add(id);
          console.info(`[rooms] set ${id} of room ${written!.cp.code} taken up here, ${Math.round(written!.lateMs)} ms after its last checkpoint`);
        } else if (!this.lobby.matches.has(id)) this.store.drop(id);
      }
      // Then the rooms in their lobby, once read (a later try, if Redis did not answer).
      if (attempt === 0) this.lobbiesDue = true;
      if (this.lobbiesDue) {
        this.store.forgetLobbies();
        try {
          const rooms = await this.store.lobbies();
          this.lobbiesDue = false;
          for (const room of rooms) {
            try {
              if (this.lobby.takeUpLobby(room)) console.info(`[rooms] room ${room.code} taken up here in its lobby, its people's seats kept for them`);
              else console.error(`[rooms] room ${room.code} not taken up in its lobby: its code is held here, or this instance holds as many rooms as it can`);
            } catch (error) {
              console.error(`[rooms] room ${room.code} could not be taken up in its lobby:`, error);
            }
          }
        } catch {
          again = true;
        }
      }
      if (again && attempt < TAKE_UP_TRIES && this.isHome()) setTimeout(() => void this.takeUp(attempt + 1), ROOM_SET_WRITE_MS).unref();
      else this.lobbiesDue = false; // given up (said above): this home's own rooms are written from now on
    })()
      .catch((error: unknown) => console.error('[rooms] taking sets up failed:', error))
      .finally(() => (this.takingUp = null));
    return this.takingUp;
  }

  /** Another instance holds the home now (it takes these sets up): this one writes and drops none of them. */
  lost(): void {
    this.lobbiesDue = false;
    this.store.forgetLobbies();
    for (const id of this.mine) this.store.forget(id);
    this.mine.clear();
  }

  /** The server stops: each set's last checkpoint is written, and none is dropped as its host closes here. */
  async handOver(): Promise<void> {
    await this.writing;
    await this.write();
    this.stopped = true;
    for (const id of this.mine) this.store.forget(id);
  }

  /** Whether this instance has handed its sets over (it stops): room messages go to the next home. */
  get handedOver(): boolean {
    return this.stopped;
  }

  close(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}
