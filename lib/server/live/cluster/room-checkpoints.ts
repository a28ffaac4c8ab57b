import 'server-only';
import type { z } from 'zod';
import { CLUSTER, KEYS, LEASE_SCRIPTS } from '@/lib/server/live/cluster/cluster';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import { lobbyCheckpointSchema, type LobbyCheckpoint } from '@/lib/server/live/rooms/lobby-checkpoint';
import type { LobbyEntry } from '@/lib/server/live/rooms/room-lobby';
import { versusRoomCheckpointSchema, type VersusRoomCheckpoint, type VersusRoomEntry } from '@/lib/server/live/match/versus-room-keep';
import { parseRoomCheckpoint, roomAroundSchema, type RoomAround, type RoomCheckpoint, type RoomCheckpointGame, type RoomSetWritten } from '@/lib/server/live/rooms/room-checkpoint';

type Seat = RoomCheckpointGame['seats'][number];
/** One seat's part of a write: each list from an index on, its ticks, and (the game in play) its deals. */
type SeatChunk = { e: [number, Seat['events']]; t: [number, Seat['targets']]; j?: [number, NonNullable<Seat['joins']>]; k: number; d?: number };
type Chunk = { g: number; s: SeatChunk[]; l: RoomCheckpointGame['leaves']; x: RoomCheckpointGame['decided'] };
/** How much of a game this instance has written, and whether it was the game in play then. */
type Written = { inPlay: boolean; e: number[]; t: number[]; j: number[] };

/**
 * Room sets' checkpoints on Redis (decision 0034), written by the versus home while it holds its
 * lease, in one script: the head (seats, state, phase: small) is set, and what each game gained
 * since the last write is appended, so a write costs what was played since (a late 16-seat game
 * rewritten whole each second was ~0.5 MB). The game in play only grows; once decided it is
 * written afresh, as the referee holds it. The next home reads every set listed under the home's
 * key and takes it up. Redis may lose them (it holds no finished set): then the set is lost.
 */
export class RedisRoomCheckpoints {
  /** Per set, per game: how much of it this instance has written. */
  private readonly written = new Map<string, Written[]>();
  /** The rooms in their lobby, and the versus rooms of two, as this instance last wrote them: each one's `rev`, by code (null: to be written afresh). */
  private readonly lobbiesWritten: Record<LobbyKind, Map<string, number> | null> = { rooms: null, versus: null };

  constructor(
    private readonly link: RedisLink,
    private readonly homeKey: string,
  ) {}

  /** Writes what changed since the last write; false when this instance no longer holds the home (nothing written). */
  async save(cp: RoomCheckpoint, room: RoomAround): Promise<boolean> {
    const { games, ...head } = cp;
    const fresh = !this.written.has(cp.matchId);
    const written = this.written.get(cp.matchId) ?? [];
    this.written.set(cp.matchId, written);
    const chunks: string[] = [];
    games.forEach((game, g) => {
      const inPlay = game.seats.some((x) => x.joins !== undefined);
      let w = written[g];
      if (w && !w.inPlay && !inPlay) return; // decided, written so: it never changes
      // Written as the game in play and decided since (or never written): afresh from its start.
      if (!w || w.inPlay !== inPlay || game.seats.some((x, s) => x.events.length < w!.e[s]! || x.targets.length < w!.t[s]! || (x.joins?.length ?? 0) < w!.j[s]!)) {
        w = { inPlay, e: game.seats.map(() => 0), t: game.seats.map(() => 0), j: game.seats.map(() => 0) };
      }
      const from = w;
      const s: SeatChunk[] = game.seats.map((x, i) => ({
        e: [from.e[i]!, x.events.slice(from.e[i])], t: [from.t[i]!, x.targets.slice(from.t[i])], k: x.ticks,
        ...(x.joins ? { j: [from.j[i]!, x.joins.slice(from.j[i])] as [number, NonNullable<Seat['joins']>] } : {}), ...(x.dealt !== undefined ? { d: x.dealt } : {}),
      }));
      written[g] = { inPlay, e: game.seats.map((x) => x.events.length), t: game.seats.map((x) => x.targets.length), j: game.seats.map((x) => x.joins?.length ?? 0) };
      chunks.push(JSON.stringify({ g, s, l: game.leaves, x: game.decided } satisfies Chunk));
    });
    const key = KEYS.roomSet(cp.matchId);
    const headText = JSON.stringify({ ...head, games: games.length, room });
    try {
      const ok = await this.link.cmd.eval(LEASE_SCRIPTS.roomSet, 4, this.homeKey, key, `${key}:games`, KEYS.roomSets(this.homeKey), this.link.instance, CLUSTER.matchCheckpointMs, headText, fresh ? '1' : '0', cp.matchId, ...chunks);
      if (ok === 1) return true;
    } catch {
      // Unwritten: the next write starts over rather than append after a gap.
    }
    this.written.delete(cp.matchId);
    return false;
  }

  /** The set ended here (stored, or closed unstored), or cannot be taken up: its checkpoint goes, only while this instance holds the home. */
  drop(matchId: string): void {
    this.written.delete(matchId);
    const key = KEYS.roomSet(matchId);
    this.link.cmd.eval(LEASE_SCRIPTS.roomSetDrop, 4, this.homeKey, key, `${key}:games`, KEYS.roomSets(this.homeKey), this.link.instance, matchId).catch(() => {});
  }

  /** This instance writes no more of the set (it closed here): the checkpoint stays for whoever takes it up. */
  forget(matchId: string): void {
    this.written.delete(matchId);
  }

  /**
   * The home's rooms in their lobby: a room written when it changed (`rev`; a few hundred bytes to
   * a few KB), one gone deleted, and the whole let go by Redis LOBBIES_TTL_MS after the last write;
   * false when this instance no longer holds the home.
   */
  saveLobbies(rooms: LobbyEntry[]): Promise<boolean> {
    return this.saveRooms('rooms', rooms);
  }

  /** The home's private versus rooms of two, written as its rooms in their lobby are. */
  saveVersusRooms(rooms: VersusRoomEntry[]): Promise<boolean> {
    return this.saveRooms('versus', rooms);
  }

  private async saveRooms(kind: LobbyKind, rooms: Array<{ code: string; rev: number; read: () => unknown }>): Promise<boolean> {
    const written = this.lobbiesWritten[kind];
    const changed = rooms.filter((r) => written?.get(r.code) !== r.rev).flatMap((r) => [r.code, JSON.stringify(r.read())]);
    const now = new Map(rooms.map((r) => [r.code, r.rev]));
    const gone = written ? [...written.keys()].filter((code) => !now.has(code)) : [];
    try {
      const ok = await this.link.cmd.eval(
        LEASE_SCRIPTS.roomLobbies, 2, this.homeKey, LOBBY_KEYS[kind](this.homeKey), this.link.instance, LOBBIES_TTL_MS,
        written ? '0' : '1', changed.length / 2, ...changed, ...gone,
      );
      if (ok === 1) {
        this.lobbiesWritten[kind] = now;
        return true;
      }
    } catch {
      // Unwritten: the next write writes them all afresh.
    }
    this.lobbiesWritten[kind] = null;
    return false;
  }

  /** Another instance holds (or held) the home meanwhile: the next write of the rooms in their lobby (and of two) replaces whatever is there. */
  forgetLobbies(): void {
    this.lobbiesWritten.rooms = null;
    this.lobbiesWritten.versus = null;
  }

  /** The rooms in their lobby the last home wrote; one that does not parse is said in the log and left out. Throws if Redis does not answer. */
  lobbies(): Promise<LobbyCheckpoint[]> {
    return this.readRooms('rooms', lobbyCheckpointSchema);
  }

  /** The versus rooms of two the last home wrote, as lobbies(). */
  versusRooms(): Promise<VersusRoomCheckpoint[]> {
    return this.readRooms('versus', versusRoomCheckpointSchema);
  }

  private async readRooms<T extends { code: string }>(kind: LobbyKind, schema: z.ZodType<T>): Promise<T[]> {
    const all = await this.link.cmd.hgetall(LOBBY_KEYS[kind](this.homeKey));
    return Object.entries(all).flatMap(([code, text]) => {
      let raw: unknown = null;
      try {
        raw = JSON.parse(text);
      } catch {
        // refused below
      }
      const room = schema.safeParse(raw);
      if (room.success && room.data.code === code) return [room.data];
      console.error(`[rooms] room ${code} cannot be taken up in its lobby: ${room.success ? 'its code' : room.error.issues[0]?.message}`);
      return [];
    });
  }

  /** The sets listed under the home's key. */
  async listed(): Promise<string[]> {
    return this.link.cmd.smembers(KEYS.roomSets(this.homeKey));
  }

  /** A set's last checkpoint and its room, or null (gone, or unreadable: said in the log, as it is then never taken up); throws if Redis does not answer. */
  async read(matchId: string): Promise<RoomSetWritten | null> {
    const key = KEYS.roomSet(matchId);
    const replies = await this.link.cmd.multi().get(key).lrange(`${key}:games`, 0, -1).exec();
    const head = replies?.[0]?.[1] as string | null | undefined;
    if (!head) return null;
    let text = '';
    let room: unknown = null;
    try {
      const { games: count, room: around, ...rest } = JSON.parse(head) as Omit<RoomCheckpoint, 'games'> & { games: number; room: unknown };
      const games: RoomCheckpointGame[] = [];
      for (const raw of (replies?.[1]?.[1] as string[] | undefined) ?? []) fold(games, JSON.parse(raw) as Chunk);
      text = JSON.stringify({ ...rest, games: games.slice(0, count) });
      room = around;
    } catch {
      // an unreadable head or chunk: refused below, as any checkpoint that does not parse
    }
    const parsed = parseRoomCheckpoint(text);
    const around = roomAroundSchema.safeParse(room);
    if (!parsed.ok || !around.success) {
      console.error(`[rooms] set ${matchId}'s checkpoint cannot be read: ${parsed.ok ? 'its room' : parsed.message}`);
      return null;
    }
    // Two machines' clocks: bounded, so a skew neither stops the set's clock nor jumps it far.
    return { cp: parsed.checkpoint, room: around.data, lateMs: Math.min(MAX_LATE_MS, Math.max(0, Date.now() - parsed.checkpoint.writtenAt)) };
  }
}

/** Rooms of 2–16 in their lobby, and private versus rooms of two: each kind a hash of its own (a code may name one of each). */
type LobbyKind = 'rooms' | 'versus';
const LOBBY_KEYS: Record<LobbyKind, (homeKey: string) => string> = { rooms: KEYS.roomLobbies, versus: KEYS.versusRooms };

/** Redis lets the rooms in their lobby go this long after the home's last write (it writes each second). */
const LOBBIES_TTL_MS = 30_000;

/** The most a set's clock moves on when taken up: past it, its pages have long given it up. */
const MAX_LATE_MS = 30_000;

/** One write's chunk onto the games read so far: each list cut where the chunk starts, then extended, in place (a copy per chunk made a read quadratic). */
function fold(games: RoomCheckpointGame[], c: Chunk): void {
  const game = (games[c.g] ??= { seats: [], leaves: [], decided: null });
  const onto = <T>(list: T[], [from, more]: [number, T[]]): void => {
    // A chunk past the end: an append was lost (a failover, an eviction): this is not the set written.
    if (from > list.length) throw new Error(`a chunk of game ${c.g} starts at ${from}, past what was written (${list.length})`);
    list.length = from;
    for (const x of more) list.push(x);
  };
  c.s.forEach((x, s) => {
    const seat = (game.seats[s] ??= { events: [], ticks: 0, targets: [] });
    onto(seat.events, x.e);
    onto(seat.targets, x.t);
    seat.ticks = x.k;
    if (x.j) onto((seat.joins ??= []), x.j);
    else delete seat.joins;
    if (x.d !== undefined) seat.dealt = x.d;
    else delete seat.dealt;
  });
  game.leaves = c.l;
  game.decided = c.x;
}
