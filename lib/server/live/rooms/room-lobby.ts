import 'server-only';
import { randomBytes } from 'node:crypto';
import { teamsOf, type RoomRules, type VersusMode } from '@/lib/engine';
import { isSetBatch, type RoomClientMessage, type RoomMessage, type ServerMessage } from '@/lib/live/protocol';
import { ROOM_CLIENT_TYPES } from '@/lib/live/rooms';
import type { Owner } from '@/lib/server/games/owner';
import { roomRulesSchema } from '@/lib/validations/rooms';
import type { Timers } from '@/lib/server/live/match/match-host';
import { RoomHost, type RoomHostOptions, type RoomRestoreOptions } from '@/lib/server/live/rooms/room-host';
import { MAX_KICKED, RoomRestoreError, type RoomAround, type RoomCheckpoint, type RoomSetWritten } from '@/lib/server/live/rooms/room-checkpoint';
import type { LobbyCheckpoint } from '@/lib/server/live/rooms/lobby-checkpoint';
import { realTimers } from '@/lib/server/live/match/match-timing';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import { RoomStarts } from '@/lib/server/live/rooms/room-starts';
import type { RoomPeer } from '@/lib/server/live/rooms/room-peer';
import type { RoomSeatSpec } from '@/lib/server/live/rooms/room-seat';
import type { BotSpec } from '@/lib/bot/spec';
import { storeRoomMatch } from '@/lib/server/versus/room-store';

/** `held`: a person's seat kept for its owner after a take-up (their page dials again), with no socket yet. */
type Seat = { spec: RoomSeatSpec; peer: RoomPeer | null; ready: boolean; held?: boolean };
type Room = {
  code: string;
  mode: VersusMode;
  rules: RoomRules;
  host: number;
  seats: (Seat | null)[];
  watchers: Set<RoomPeer>;
  playing: RoomHost | null;
  /** Players the host removed: not let back in under the same account. */
  kicked: Set<string>;
  /** After a set, back to the lobby for another (a room of bots alone does not come back). */
  again: boolean;
  /** A ranked 2v2 set (startRanked): its players are busy on every tab while it plays. */
  ranked: boolean;
  /** Changes everyone readies again for (rules, bots, who sits): a ready names the terms its page showed. */
  terms: number;
  /** The address of the socket that made it (`rcreate`), while it is open: rooms made from one address are bounded. */
  madeFrom?: string;
  /** Its last change told to its people (a number from the lobby's count, never reused): the home writes to Redis only the rooms changed since. */
  rev?: number;
};
/** A room in its lobby as the home writes it: built (`read`) only when it changed since the last write. */
export type LobbyEntry = { code: string; rev: number; read: () => LobbyCheckpoint };

/** A room lobby's message: the browser's, or the door's command for a room or set (relayed to the home as it is). */
export const isRoomMessage = <M extends { t: string }>(m: M): m is Extract<M, RoomClientMessage> => ROOM_CLIENT_TYPES.has(m.t);
const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * This instance's rooms of 2–16 (decision 0034): made with their size, rules and bot seats, filled
 * by code, started by the room's host once every person is ready; then a RoomHost plays the set.
 * A socket sits in one room at a time; its seat is always the one it took, never one a message
 * names. Bounds: rooms and bot seats per instance, watchers per room (ROOM_LIMITS).
 */
export class RoomLobby {
  readonly rooms = new Map<string, Room>();
  readonly matches = new Map<string, RoomHost>();
  private readonly seated = new Map<RoomPeer, { room: Room; seat: number }>();
  private bots = 0;
  private revs = 0;
  /**
   * Whether this instance holds the rooms (the versus home, or the only instance). Not after
   * another took the home (stopLobbies): a set ending here then closes its room, whose people dial
   * again, instead of bringing it back to a lobby nobody can reach.
   */
  private holding = true;
  private readonly starts = new RoomStarts();
  private readonly now: () => number;
  /**
   * Whether the socket waits in the ranked 2v2 queue or sits in a party (set by team-queue.ts): it
   * takes no room meanwhile, or the match found for it would be refused and the three others unqueued.
   */
  waitsForTeams: (peer: RoomPeer) => boolean = () => false;

  constructor(private readonly o: { now?: () => number; timers?: Timers; stalls?: () => number; store?: RoomHostOptions['store'] } = {}) {
    this.now = o.now ?? (() => performance.now());
  }

  get botSeats(): number {
    return this.bots;
  }

  handle(peer: RoomPeer, m: RoomMessage): void {
    if ((m.t === 'rcreate' || m.t === 'rjoin' || m.t === 'rresume') && this.waitsForTeams(peer))
      return peer.error('already_playing', 'This connection waits in the ranked 2v2 queue or a party: leave it first.');
    switch (m.t) {
      case 'rcreate':
        return this.create(peer, m);
      case 'rjoin': {
        const room = this.open(peer, m.code);
        if (!room) return;
        if (this.seated.has(peer)) return peer.error('already_playing', 'This connection already sits in a room.');
        if (room.kicked.has(ownerKey(peer.owner))) return peer.error('not_eligible', 'The room’s host removed you from this room.');
        // Its own seat kept since a take-up (the page dialled again), or the first free one.
        const mine = room.seats.findIndex((x) => x?.held && ownerKey(x.spec.owner) === ownerKey(peer.owner));
        const s = mine >= 0 ? mine : room.seats.findIndex((x) => x === null);
        if (s < 0) return peer.error('room_full', 'Every seat of this room is taken.');
        room.seats[s] = { spec: { owner: peer.owner, player: peer.player, handling: m.handling }, peer, ready: false };
        this.seated.set(peer, { room, seat: s });
        // Whom everyone plays changed (not by a page back to the seat kept for it): each readies again.
        return mine >= 0 ? this.tell(room) : this.changed(room);
      }
      case 'rready': {
        const at = this.mine(peer, m.code);
        if (!at || at.room.playing) return;
        // Sent before the terms changed (new rules crossing it): the page is shown the room as it is now, not readied.
        if (m.ready && m.terms !== undefined && m.terms !== at.room.terms) return peer.send(this.view(at.room, at.seat));
        at.room.seats[at.seat]!.ready = m.ready;
        return this.tell(at.room);
      }
      case 'rstart':
        return this.start(peer, m.code);
      case 'inputs': {
        const at = this.seated.get(peer);
        const host = this.matches.get(m.stream);
        if (!host) return peer.error('unknown_match', 'No live room match with this id here.', { gameId: m.stream });
        if (!at || at.room.playing !== host || !host.holds(at.seat, peer)) return peer.error('not_your_match', 'This connection has no seat in this match.', { gameId: m.stream });
        if (!isSetBatch(m)) return peer.error('bad_message', 'A room batch names its game of the set.', { gameId: m.stream, seq: m.seq });
        const fail = host.inputs(at.seat, m);
        if (fail) peer.error(fail.code, fail.message, { gameId: m.stream, seq: m.seq });
        return;
      }
      case 'rleave': {
        const at = this.mine(peer, m.code);
        if (at) this.leave(peer, at.room, at.seat);
        return;
      }
      case 'rresume': {
        const host = this.matches.get(m.matchId);
        if (this.seated.has(peer)) return peer.error('already_playing', 'This connection already sits in a room.');
        const s = host ? host.resume(m.token, peer, peer.owner) : null;
        if (!host || s === null) return peer.error('resume_failed', 'That room seat cannot be taken up again.', { gameId: m.matchId });
        const room = this.rooms.get(host.o.code)!;
        // The socket that held the seat (another tab, still open) no longer sits here: its leave would end this one's seat.
        const was = room.seats[s]!.peer;
        if (was && was !== peer && this.seated.get(was)?.room === room) this.seated.delete(was);
        room.seats[s]!.peer = peer;
        this.seated.set(peer, { room, seat: s });
        return;
      }
      case 'rwatch': {
        const room = this.rooms.get(m.code);
        if (!room) return peer.error('unknown_room', 'No room with this code.');
        if (room.watchers.has(peer)) return;
        // Each room watched sends its every seat's frames to this socket: a few at once, as games.
        if ([...this.rooms.values()].filter((r) => r.watchers.has(peer)).length >= ROOM_LIMITS.watchesPerConnection)
          return peer.error('rate_limited', `At most ${ROOM_LIMITS.watchesPerConnection} rooms watched at once.`);
        if (room.watchers.size >= ROOM_LIMITS.spectatorsPerRoom) return peer.error('room_full', 'This room has as many watchers as it takes.');
        if (room.playing && !room.playing.watch(peer)) return peer.error('room_full', 'This room has as many watchers as it takes.');
        room.watchers.add(peer);
        if (!room.playing) peer.send(this.view(room, null));
        return;
      }
      case 'runwatch': {
        const room = this.rooms.get(m.code);
        room?.watchers.delete(peer);
        room?.playing?.unwatch(peer);
        return;
      }
      case 'rkick':
        return this.chair(peer, m.code, (room) => this.kick(peer, room, m.seat));
      case 'rhost':
        return this.chair(peer, m.code, (room) => {
          const x = room.seats[m.seat];
          if (!x || x.spec.bot || m.seat === room.host) return peer.error('bad_message', 'The host’s chair goes to another person’s seat.');
          if (x.held) return peer.error('bad_message', 'That seat’s player has not come back yet.');
          room.host = m.seat;
          this.tell(room);
        });
      case 'rrules':
        return this.chair(peer, m.code, (room) => this.lobbyOnly(peer, room) && this.setRules(peer, room, m.mode, m.rules));
      case 'rbot':
        return this.chair(peer, m.code, (room) => this.lobbyOnly(peer, room) && this.setBot(peer, room, m.seat, m.bot));
      default:
        m satisfies never;
    }
  }

  /** The socket closed: its seat waits for a resume while it plays, and is freed in a room not started. */
  closed(peer: RoomPeer): void {
    for (const room of this.rooms.values()) if (room.watchers.delete(peer)) room.playing?.unwatch(peer);
    const at = this.seated.get(peer);
    if (!at) return;
    this.seated.delete(peer);
    if (at.room.playing) return at.room.playing.dropped(at.seat, peer);
    this.leave(peer, at.room, at.seat);
  }

  /** Each set in play here (or ended, not yet stored) with its room, as another instance would take it up (takeUp). */
  sets(): Array<{ cp: RoomCheckpoint; room: RoomAround }> {
    const out: Array<{ cp: RoomCheckpoint; room: RoomAround }> = [];
    for (const room of this.rooms.values()) {
      if (!room.playing || room.playing.closed) continue;
      // The latest kicks, as many as the checkpoint takes (a chair kicking joiner after joiner would otherwise make its set unreadable).
      out.push({ cp: room.playing.checkpoint(), room: { host: room.host, kicked: [...room.kicked].slice(-MAX_KICKED), again: room.again, ranked: room.ranked } });
    }
    return out;
  }

  /**
   * A set whose home died, rebuilt here from its checkpoint (RoomHost.restore) in a room of the same
   * code, its people away until each resumes with the seat's token. Refused (false, said in the log)
   * when the code or the set is already held here, the instance's bounds are reached, or it does not
   * replay as written.
   */
  takeUp({ cp, room: around, lateMs }: RoomSetWritten): boolean {
    const botSeats = cp.seats.filter((x) => x.bot).length;
    const refuse = (why: string) => (console.error(`[rooms] set ${cp.matchId} of room ${cp.code} not taken up: ${why}`), false);
    if (this.rooms.has(cp.code) || this.matches.has(cp.matchId)) return refuse('held here already');
    if (this.rooms.size >= ROOM_LIMITS.roomsPerInstance || this.bots + botSeats > ROOM_LIMITS.botSeatsPerInstance) return refuse('this instance holds as many rooms or bots as it can');
    const room: Room = {
      code: cp.code, mode: cp.mode, rules: cp.rules, host: around.host, watchers: new Set(), playing: null, kicked: new Set(around.kicked), again: around.again, ranked: around.ranked, terms: 0,
      seats: cp.seats.map((spec) => ({ spec, peer: null, ready: true })),
    };
    let host: RoomHost;
    try {
      host = RoomHost.restore(cp, { ...this.hostOptions(room), lateMs });
    } catch (error) {
      if (error instanceof RoomRestoreError) return refuse(error.message);
      throw error;
    }
    if (host.closed) return refuse('it closed as it was rebuilt');
    room.playing = host;
    this.rooms.set(room.code, room);
    this.matches.set(host.matchId, host);
    this.bots += botSeats;
    return true;
  }

  /**
   * Every set here stops, unstored, its room closed: another instance holds the home now and takes
   * them up from their checkpoints. The people seated and watching, to be told to dial again there.
   */
  stopSets(): RoomPeer[] {
    const peers: RoomPeer[] = [];
    for (const room of [...this.rooms.values()]) {
      if (!room.playing || room.playing.ended) continue;
      for (const x of room.seats) if (x?.peer && this.seated.get(x.peer)?.room === room) peers.push(x.peer);
      peers.push(...room.watchers);
      room.playing.close();
    }
    return peers;
  }

  /** Every room in its lobby here, as the next home takes it up (takeUpLobby): ranked sets have none. */
  lobbies(): LobbyEntry[] {
    const out: LobbyEntry[] = [];
    for (const room of this.rooms.values()) {
      if (room.playing || room.ranked || room.host < 0) continue;
      const read = (): LobbyCheckpoint => ({
        code: room.code, mode: room.mode, rules: room.rules, host: room.host, seats: room.seats.map((x) => (x ? { ...x.spec, ready: x.ready } : null)),
        kicked: [...room.kicked].slice(-MAX_KICKED), again: room.again, terms: room.terms, ...(room.madeFrom === undefined ? {} : { madeFrom: room.madeFrom }),
      });
      out.push({ code: room.code, rev: (room.rev ??= ++this.revs), read });
    }
    return out;
  }

  /**
   * A room in its lobby whose home died, rebuilt here with its code, chair, rules and bots; each
   * person's seat kept for its owner (`rjoin` by the same account sits there again, not ready)
   * for ROOM_LIMITS.lobbyHoldMs, then freed. False when the code is held here or the bounds are reached.
   */
  takeUpLobby(w: LobbyCheckpoint): boolean {
    const botSeats = w.seats.filter((x) => x?.bot).length;
    if (this.rooms.has(w.code) || this.rooms.size >= ROOM_LIMITS.roomsPerInstance || this.bots + botSeats > ROOM_LIMITS.botSeatsPerInstance) return false;
    const room: Room = {
      code: w.code, mode: w.mode, rules: w.rules, host: w.host, watchers: new Set(), playing: null, kicked: new Set(w.kicked), again: w.again, ranked: false,
      terms: w.terms ?? 0, ...(w.madeFrom === undefined ? {} : { madeFrom: w.madeFrom }),
      seats: w.seats.map((x) => (x ? { spec: { owner: x.owner, player: x.player, handling: x.handling, ...(x.bot ? { bot: x.bot } : {}) }, peer: null, ready: !!x.bot, ...(x.bot ? {} : { held: true }) } : null)),
    };
    room.rev = ++this.revs;
    this.rooms.set(room.code, room);
    this.bots += botSeats;
    (this.o.timers ?? realTimers).set(() => this.unhold(room), ROOM_LIMITS.lobbyHoldMs);
    return true;
  }

  /** The hold is over: a seat whose owner did not come back is free (the room closes when no person is left). */
  private unhold(room: Room): void {
    if (this.rooms.get(room.code) !== room || room.playing) return;
    let freed = false;
    room.seats.forEach((x, s) => {
      if (!x?.held) return;
      room.seats[s] = null;
      freed = true;
    });
    if (!freed) return;
    if (this.closedEmpty(room)) return;
    if (!room.seats[room.host]) room.host = room.seats.findIndex((x) => x !== null && !x.spec.bot);
    this.tell(room);
  }

  /**
   * Every room in its lobby closes here: another instance holds the home now and takes them up.
   * The people seated and watching, to be told to dial again there.
   */
  stopLobbies(): RoomPeer[] {
    this.holding = false;
    const peers: RoomPeer[] = [];
    for (const room of [...this.rooms.values()]) {
      if (room.playing) continue;
      for (const x of room.seats) if (x?.peer) peers.push(x.peer);
      peers.push(...room.watchers);
      this.ended(room, null);
    }
    return peers;
  }

  /** This instance holds the rooms (again): it has just become the versus home. */
  hold(): void {
    this.holding = true;
  }

  /** Whether what a room message names (its set, or its room) is held here: it need not wait for a take-up. */
  holds(m: RoomMessage): boolean {
    switch (m.t) {
      case 'inputs':
        return this.matches.has(m.stream);
      case 'rresume':
        return this.matches.has(m.matchId);
      case 'rcreate':
        return false;
      case 'rjoin':
      case 'rready':
      case 'rstart':
      case 'rleave':
      case 'rwatch':
      case 'runwatch':
      case 'rkick':
      case 'rhost':
      case 'rrules':
      case 'rbot':
        return this.rooms.has(m.code);
      default:
        m satisfies never;
        return false;
    }
  }

  /** Every room's set stops, unstored (the server closes). */
  close(): void {
    for (const host of [...this.matches.values()]) host.close();
  }

  /** Resolves once every set that has ended here is stored or refused (a shutdown waits for it, as for versus). */
  async stored(): Promise<void> {
    await Promise.allSettled([...this.matches.values()].map((host) => host.stored));
  }

  /** A room of bots and the people given, started at once: for the bench and tests, not the socket. */
  playNow(o: { mode: VersusMode; rules: RoomRules; seats: RoomSeatSpec[]; peers?: (RoomPeer | null)[] }): RoomHost {
    const room: Room = { code: this.newCode(), mode: o.mode, rules: o.rules, host: 0, watchers: new Set(), playing: null, kicked: new Set(), again: false, ranked: false, terms: 0, seats: o.seats.map((spec, s) => ({ spec, peer: o.peers?.[s] ?? null, ready: true })) };
    this.rooms.set(room.code, room);
    this.bots += o.seats.filter((s) => s.bot).length;
    return this.play(room);
  }

  private create(peer: RoomPeer, m: Extract<RoomClientMessage, { t: 'rcreate' }>): void {
    if (this.seated.has(peer)) return peer.error('already_playing', 'This connection already sits in a room.');
    // Ranked 2v2 sets keep rooms of their own: a crowd of rooms left open does not stop them.
    const open = [...this.rooms.values()];
    if (open.length >= ROOM_LIMITS.roomsPerInstance || open.filter((r) => !r.ranked).length >= ROOM_LIMITS.madeRoomsPerInstance)
      return peer.error('rate_limited', 'This server holds as many rooms as it can; try again later.');
    if (open.filter((r) => r.madeFrom === peer.address).length >= ROOM_LIMITS.roomsPerAddress)
      return peer.error('rate_limited', `At most ${ROOM_LIMITS.roomsPerAddress} rooms open at once from one address: close one first.`);
    if (this.bots + m.bots.length > ROOM_LIMITS.botSeatsPerInstance) return peer.error('rate_limited', 'This server plays as many bots as it can; try fewer.');
    // The schema bounded the message; parsed again for the typed rules the engine takes.
    const rules = peopleRules(peer, m.size, m.rules);
    if (!rules) return;
    const seats: (Seat | null)[] = Array.from({ length: m.size }, () => null);
    seats[0] = { spec: { owner: peer.owner, player: peer.player, handling: m.handling }, peer, ready: false };
    for (const b of m.bots) seats[b.seat] = botSeat(b, m.handling);
    const room: Room = { code: this.newCode(), mode: m.mode, rules, host: 0, seats, watchers: new Set(), playing: null, kicked: new Set(), again: true, ranked: false, terms: 0, madeFrom: peer.address };
    this.rooms.set(room.code, room);
    this.bots += m.bots.length;
    this.seated.set(peer, { room, seat: 0 });
    this.tell(room);
  }

  private start(peer: RoomPeer, code: string): void {
    const at = this.mine(peer, code);
    if (!at || at.room.playing) return;
    const room = at.room;
    if (at.seat !== room.host) return peer.error('not_room_host', 'Only the room’s host starts it.');
    if (room.seats.some((x) => x === null)) return peer.error('room_full', 'Every seat must be taken first (a person or a bot).');
    if (room.seats.some((x) => !x!.ready)) return peer.error('not_eligible', 'Everyone in the room must be ready.');
    if (this.starts.take([peer], this.now())) this.play(room);
  }

  /** A ranked set is stored ranked (a store given to the lobby, as tests give one, is used as it is). */
  private hostOptions(room: Room): RoomRestoreOptions {
    const store: RoomHostOptions['store'] = room.ranked ? (this.o.store ?? ((x) => storeRoomMatch({ ...x, ranked: true }))) : this.o.store;
    return { ...this.o, ...(store ? { store } : {}), onClose: (h) => this.ended(room, h) };
  }

  private play(room: Room): RoomHost {
    const host = new RoomHost({
      matchId: randomBytes(12).toString('hex'), code: room.code, seed: randomBytes(16).toString('base64url'), mode: room.mode, rules: room.rules,
      seats: room.seats.map((x) => x!.spec), ...this.hostOptions(room),
    });
    room.playing = host;
    this.matches.set(host.matchId, host);
    host.begin(room.seats.map((x) => x!.peer));
    for (const w of room.watchers) host.watch(w);
    return host;
  }

  private ended(room: Room, host: RoomHost | null): void {
    if (host) this.matches.delete(host.matchId);
    if (host?.finished && room.again && this.holding && this.backToLobby(room)) return;
    if (host?.finished && room.again && !this.holding) {
      for (const p of [...room.seats.map((x) => x?.peer), ...room.watchers]) if (p?.open) p.close?.(1012, 'The server holding your room moved: reconnecting finds it there.');
    }
    this.rooms.delete(room.code);
    this.bots -= room.seats.filter((x) => x?.spec.bot).length;
    // Only those still seated here: one who left this set may sit in another room by now.
    for (const x of room.seats) if (x?.peer && this.seated.get(x.peer)?.room === room) this.seated.delete(x.peer);
  }

  /**
   * After a set: the people still seated here keep their seats and ready again; a seat whose
   * player left, was kicked or is not connected now is free. False when no person is left.
   */
  private backToLobby(room: Room): boolean {
    room.playing = null;
    room.seats = room.seats.map((x, s) => {
      if (!x || x.spec.bot) return x;
      const at = x.peer ? this.seated.get(x.peer) : undefined;
      return at?.room === room && at.seat === s ? { ...x, ready: false } : null;
    });
    const first = room.seats.findIndex((x) => x !== null && !x.spec.bot);
    if (first < 0) return false;
    if (!room.seats[room.host] || room.seats[room.host]!.spec.bot) room.host = first;
    this.tell(room);
    return true;
  }

  /** What only the room's host may do, from its own seat in that room. */
  private chair(peer: RoomPeer, code: string, act: (room: Room) => void): void {
    const at = this.mine(peer, code);
    if (!at) return;
    if (at.seat !== at.room.host) return peer.error('not_room_host', 'Only the room’s host does that.');
    act(at.room);
  }

  private lobbyOnly(peer: RoomPeer, room: Room): boolean {
    if (room.playing) peer.error('room_full', 'Not while the room plays a set; after it.');
    return !room.playing;
  }

  /** Empties a seat; a person is told, leaves any set in play, and may not join this room again. */
  private kick(peer: RoomPeer, room: Room, seat: number): void {
    const x = room.seats[seat];
    if (!x || seat === room.host) return peer.error('bad_message', 'The host kicks another seat that is taken.');
    if (x.spec.bot) {
      if (!this.lobbyOnly(peer, room)) return;
      room.seats[seat] = null;
      this.bots--;
      return this.changed(room);
    }
    room.kicked.add(ownerKey(x.spec.owner));
    const at = x.peer ? this.seated.get(x.peer) : undefined;
    if (x.peer && at?.room === room) {
      this.seated.delete(x.peer);
      x.peer.send({ t: 'rclosed', code: room.code, reason: 'kicked' });
    }
    if (room.playing) return room.playing.leave(seat);
    room.seats[seat] = null;
    this.changed(room);
  }

  private setRules(peer: RoomPeer, room: Room, mode: VersusMode, raw: unknown): void {
    const rules = peopleRules(peer, room.seats.length, raw);
    if (!rules) return;
    Object.assign(room, { mode, rules });
    this.changed(room);
  }

  private setBot(peer: RoomPeer, room: Room, seat: number, bot: BotSpec | null): void {
    // The schema bounds a seat by the largest room: past this room's last seat it would grow the room.
    if (seat >= room.seats.length) return peer.error('bad_message', `This room has seats 0–${room.seats.length - 1}.`);
    const x = room.seats[seat];
    if (x && !x.spec.bot) return peer.error('bad_message', 'That seat is a person’s: kick them first.');
    if (!bot) {
      if (!x) return;
      room.seats[seat] = null;
      this.bots--;
      return this.changed(room);
    }
    if (!x && this.bots + 1 > ROOM_LIMITS.botSeatsPerInstance) return peer.error('rate_limited', 'This server plays as many bots as it can; try fewer.');
    if (!x) this.bots++;
    room.seats[seat] = botSeat(bot, room.seats[room.host]!.spec.handling);
    this.changed(room);
  }

  /** The room's rules or seats changed in the lobby: everyone readies again for the room as it is now. */
  private changed(room: Room): void {
    room.terms++;
    for (const x of room.seats) if (x && !x.spec.bot) x.ready = false;
    this.tell(room);
  }

  private leave(peer: RoomPeer, room: Room, seat: number): void {
    this.seated.delete(peer);
    if (room.playing) return room.playing.leave(seat);
    room.seats[seat] = null;
    if (this.closedEmpty(room)) return;
    // The host's chair passes to the first person seated here (one whose seat is kept for them, if nobody else is).
    if (seat === room.host) {
      const here = room.seats.findIndex((x) => x !== null && !x.spec.bot && !x.held);
      room.host = here >= 0 ? here : room.seats.findIndex((x) => x !== null && !x.spec.bot);
    }
    this.changed(room);
  }

  /** A room in its lobby with no person left closes, its watchers told: true if it did. */
  private closedEmpty(room: Room): boolean {
    if (!room.seats.every((x) => x === null || x.spec.bot)) return false;
    for (const w of room.watchers) w.send({ t: 'rclosed', code: room.code, reason: 'empty' });
    this.ended(room, null);
    return true;
  }

  private open(peer: RoomPeer, code: string): Room | null {
    const room = this.rooms.get(code);
    if (!room) return peer.error('unknown_room', 'No room with this code.'), null;
    if (room.playing) return peer.error('room_full', 'This room is playing; watch it instead.'), null;
    return room;
  }

  private mine(peer: RoomPeer, code: string): { room: Room; seat: number } | null {
    const at = this.seated.get(peer);
    if (!at || at.room.code !== code) return peer.error('unknown_room', 'This connection has no seat in that room.'), null;
    return at;
  }

  private view(room: Room, you: number | null): ServerMessage {
    const teams = teamsOf(room.rules, room.seats.length);
    return {
      t: 'rroom', code: room.code, mode: room.mode, rules: { ...room.rules }, host: room.host, you, playing: room.playing !== null, terms: room.terms,
      seats: room.seats.map((x, s) => ({ player: x?.spec.player ?? null, team: teams[s]!, ready: x?.ready ?? false })),
    };
  }

  private tell(room: Room): void {
    room.rev = ++this.revs;
    room.seats.forEach((x, s) => x?.peer?.send(this.view(room, s)));
    for (const w of room.watchers) w.send(this.view(room, null));
  }

  private newCode(): string {
    for (;;) {
      const bytes = randomBytes(6);
      const code = Array.from(bytes, (b) => CODE_LETTERS[b % CODE_LETTERS.length]).join('');
      if (!this.rooms.has(code)) return code;
    }
  }

  /** The first of the people with no room set start left this hour (told why), or null: the ranked queue asks before queueing them. */
  startsRefused(peers: readonly RoomPeer[]): RoomPeer | null {
    return this.starts.refused(peers, this.now());
  }

  /** Whether the account sits in a ranked 2v2 set being played here, from any tab (a seat it left included, until the set ends). */
  playsRanked(userId: string): boolean {
    for (const room of this.rooms.values()) if (room.ranked && room.playing && !room.playing.ended && room.seats.some((x) => x?.spec.owner.userId === userId)) return true;
    return false;
  }

  /**
   * A ranked 2v2 set on the seats given, started at once (team-queue.ts; decision 0036): stored
   * ranked, with no chair (host −1: kick, hand-over, rules and bots are nobody's), and no lobby
   * after it. Each of the people
   * pays a start, as a room's host does. Refused, naming the people in the way, when one of them
   * already sits in a room here or has no start left; every one when the instance holds as many
   * rooms as it can.
   */
  startRanked(o: { mode: VersusMode; rules: RoomRules; seats: RoomSeatSpec[]; peers: RoomPeer[] }): { ok: true } | { ok: false; refused: RoomPeer[] } {
    const seated = o.peers.filter((p) => this.seated.has(p));
    if (seated.length > 0) return { ok: false, refused: seated };
    if (this.rooms.size >= ROOM_LIMITS.roomsPerInstance) {
      for (const p of o.peers) p.error('rate_limited', 'This server holds as many rooms as it can; try again later.');
      return { ok: false, refused: o.peers };
    }
    const broke = this.starts.refused(o.peers, this.now());
    if (broke) return { ok: false, refused: [broke] };
    this.starts.take(o.peers, this.now());
    const room: Room = {
      code: this.newCode(), mode: o.mode, rules: o.rules, host: -1, watchers: new Set(), playing: null, kicked: new Set(), again: false, ranked: true, terms: 0,
      seats: o.seats.map((spec, s) => ({ spec, peer: o.peers[s]!, ready: true })),
    };
    this.rooms.set(room.code, room);
    o.peers.forEach((p, seat) => this.seated.set(p, { room, seat }));
    this.play(room);
    return { ok: true };
  }
}

const ownerKey = (o: Owner): string => (o.userId ? `u:${o.userId}` : `g:${o.guestId}`);

function botSeat(b: BotSpec, handling: RoomSeatSpec['handling']): Seat {
  const bot = { pps: b.pps, style: b.style };
  return { spec: { owner: { userId: null, guestId: null }, player: { name: null, guest: false, bot }, handling, bot }, peer: null, ready: true };
}

/** Rules for a room with people in it, checked against its size; refused with the check's own words. */
function peopleRules(peer: RoomPeer, size: number, raw: unknown): RoomRules | null {
  const r = roomRulesSchema(size).safeParse(raw);
  if (!r.success) return peer.error('bad_message', `Room rules: ${r.error.issues[0]!.message}`), null;
  // A browser's game takes one hole per message (decision 0031): messy rooms are for bots alone.
  if (r.data.messiness > 0) return peer.error('bad_message', 'Rooms with people in them play with messiness 0.'), null;
  return r.data;
}
