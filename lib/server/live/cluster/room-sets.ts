import 'server-only';
import type { RedisRoomCheckpoints } from '@/lib/server/live/cluster/room-checkpoints';
import type { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import type { RoomSetWritten } from '@/lib/server/live/rooms/room-checkpoint';
import { MAX_ROOMS_TAKEN_UP, type VersusRoomCheckpoint } from '@/lib/server/live/match/versus-room-keep';
import type { PairRooms } from '@/lib/server/live/match/pair-rooms';

/** What the keeper needs of the versus lobby's rooms of two (pair-rooms.ts). */
export type VersusRooms = Pick<PairRooms, 'kept' | 'takeUp' | 'stop'>;

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
  /** A take-up under way, its retries included: room messages for what is not here yet wait for it. */
  takingUp: Promise<void> | null = null;
  /** One of its passes is reading and rebuilding: no write meanwhile (a set not rebuilt yet would read as ended here). Between retries, sets are written. */
  private passing = false;
  /** The rooms in their lobby the last home wrote are still to be read: this home writes none of its own until then. */
  private lobbiesDue = false;
  /**
   * Counts each time this instance became the home or stopped being it: a write or a take-up that
   * began under an older one stops at its next step (it would write over, or rebuild, what is now
   * another instance's).
   */
  private term = 0;

  constructor(
    private readonly store: RedisRoomCheckpoints,
    private readonly lobby: RoomLobby,
    private readonly isHome: () => boolean,
    /** The private versus rooms of two at the home (PairRooms): kept as its rooms in their lobby are. */
    private readonly versus: VersusRooms | null = null,
  ) {
    this.timer = setInterval(() => void this.write(), ROOM_SET_WRITE_MS);
    this.timer.unref();
  }

  private current(term: number): boolean {
    return term === this.term && this.isHome() && !this.stopped;
  }

  /** Writes every set here, then drops those that ended, then the rooms in their lobby and the rooms of two; one write at a time. */
  write(): Promise<void> {
    // While sets are taken up, those not yet rebuilt here must not read as ended.
    if (this.stopped || this.passing || !this.isHome()) return Promise.resolve();
    const term = this.term;
    this.writing ??= (async () => {
      const here = new Set<string>();
      for (const { cp, room } of this.lobby.sets()) {
        here.add(cp.matchId);
        // Refused: another instance holds the home now (the relay stops these sets when it hears so).
        if (!(await this.store.save(cp, room)) || !this.current(term)) return;
        this.mine.add(cp.matchId);
      }
      for (const id of this.mine) {
        if (here.has(id) || this.lobby.matches.has(id)) continue;
        this.mine.delete(id);
        this.store.drop(id);
      }
      // Not before the last home's have been read: they would be written over.
      if (!this.lobbiesDue && this.current(term) && (await this.store.saveLobbies(this.lobby.lobbies())) && this.versus && this.current(term))
        await this.store.saveVersusRooms(this.versus.kept());
    })().finally(() => (this.writing = null));
    return this.writing;
  }

  /**
   * This instance has just become the home: every set listed under it, then every room in its
   * lobby, is taken up here, after any take-up or write still under way. A set is dropped only
   * when it is gone, unreadable or refused; what Redis did not answer for is asked again a write's
   * interval later, up to TAKE_UP_TRIES times, never dropped.
   */
  takeUp(): Promise<void> {
    const term = ++this.term;
    this.lobbiesDue = true;
    this.lobby.hold();
    const after = Promise.allSettled([this.takingUp, this.writing]);
    const run = after.then(async () => {
      for (let attempt = 0; this.current(term); attempt++) {
        this.passing = true;
        const again = await this.takeUpOnce(term).finally(() => (this.passing = false));
        if (!again) return;
        if (attempt + 1 >= TAKE_UP_TRIES) return console.error(`[rooms] taking sets up: Redis did not answer ${TAKE_UP_TRIES} times; what it did not answer for is lost`);
        await new Promise((resolve) => setTimeout(resolve, ROOM_SET_WRITE_MS).unref());
      }
    });
    const p: Promise<void> = run
      .catch((error: unknown) => console.error('[rooms] taking sets up failed:', error))
      .finally(() => {
        // Given up, or done: this home's own rooms are written from now on.
        if (term === this.term) this.lobbiesDue = false;
        if (this.takingUp === p) this.takingUp = null;
      });
    this.takingUp = p;
    return p;
  }

  /** One pass over what the last home wrote; true if Redis left something unanswered. */
  private async takeUpOnce(term: number): Promise<boolean> {
    let again = false;
    const ids = await this.store.listed().catch(() => ((again = true), [] as string[]));
    for (const id of ids) {
      if (!this.current(term)) return false;
      if (this.lobby.matches.has(id)) continue;
      let written: RoomSetWritten | null;
      try {
        written = await this.store.read(id);
      } catch {
        again = true;
        continue;
      }
      if (!this.current(term)) return false;
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
    // Then the rooms in their lobby, once read (a set's room, held here now, keeps its set).
    if (!this.current(term)) return false;
    if (!this.lobbiesDue) return again;
    this.store.forgetLobbies();
    let rooms: Awaited<ReturnType<RedisRoomCheckpoints['lobbies']>>;
    try {
      rooms = await this.store.lobbies();
    } catch {
      return true;
    }
    let pairs: VersusRoomCheckpoint[] = [];
    try {
      if (this.versus) pairs = await this.store.versusRooms();
    } catch {
      return true;
    }
    if (!this.current(term)) return false;
    this.lobbiesDue = false;
    if (pairs.length > MAX_ROOMS_TAKEN_UP) console.error(`[rooms] ${pairs.length - MAX_ROOMS_TAKEN_UP} versus rooms of two left out: more than a home holds`);
    for (const room of pairs.slice(0, MAX_ROOMS_TAKEN_UP)) {
      try {
        if (this.versus!.takeUp(room)) console.info(`[rooms] versus room ${room.code} taken up here, its maker's seat kept for it`);
        else console.error(`[rooms] versus room ${room.code} not taken up: its code is held here`);
      } catch (error) {
        console.error(`[rooms] versus room ${room.code} could not be taken up:`, error);
      }
    }
    for (const room of rooms) {
      try {
        if (this.lobby.takeUpLobby(room)) console.info(`[rooms] room ${room.code} taken up here in its lobby, its people's seats kept for them`);
        else console.error(`[rooms] room ${room.code} not taken up in its lobby: its code is held here, or this instance holds as many rooms as it can`);
      } catch (error) {
        console.error(`[rooms] room ${room.code} could not be taken up in its lobby:`, error);
      }
    }
    return again;
  }

  /** Another instance holds the home now (it takes these sets up): this one writes and drops none of them. */
  lost(): void {
    this.term++;
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
