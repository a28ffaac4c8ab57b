import 'server-only';
import type { RedisRoomCheckpoints } from '@/lib/server/live/cluster/room-checkpoints';
import type { RoomLobby } from '@/lib/server/live/rooms/room-lobby';

/** How often the home writes its room sets: what a take-up replays past, at most (the players' pages resend it). */
export const ROOM_SET_WRITE_MS = 1_000;

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
    })().finally(() => (this.writing = null));
    return this.writing;
  }

  /** This instance has just become the home: every set listed under it is taken up here (once, whatever asks meanwhile). */
  takeUp(): Promise<void> {
    this.takingUp ??= (async () => {
      for (const id of await this.store.listed().catch(() => [] as string[])) {
        if (this.lobby.matches.has(id)) continue;
        const written = await this.store.read(id).catch(() => null);
        if (written && this.lobby.takeUp(written)) {
          this.mine.add(id);
          console.info(`[rooms] set ${id} of room ${written.cp.code} taken up here, ${Math.round(written.lateMs)} ms after its last checkpoint`);
          continue;
        }
        // Gone, unreadable or refused: never to be taken up by anyone.
        if (!this.lobby.matches.has(id)) this.store.drop(id);
      }
    })().finally(() => (this.takingUp = null));
    return this.takingUp;
  }

  /** Another instance holds the home now (it takes these sets up): this one writes and drops none of them. */
  lost(): void {
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
