import 'server-only';
import { randomInt } from 'node:crypto';
import type { VersusMode } from '@/lib/engine';
import type { VersusClientMessage } from '@/lib/live/protocol';
import type { RoomView } from '@/lib/live/versus';
import { sameOwner, type VersusPeer } from '@/lib/server/live/connection';
import type { Timers } from '@/lib/server/live/match/match-host';
import type { SeatSetup } from '@/lib/server/live/match/rematches';
import { keptMaker, type VersusRoomCheckpoint, type VersusRoomEntry } from '@/lib/server/live/match/versus-room-keep';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';

/**
 * A private versus room of two in its lobby.
 * `away`: the maker's socket dropped; its seat is kept for its page until this timer (ROOM_LIMITS.lobbyHoldMs).
 * `rev`: changes whenever its people are told it changed (send): the home writes it again (versus-room-keep.ts).
 */
export type PairRoom = { code: string; mode: VersusMode; firstTo: number; seats: [VersusPeer, VersusPeer | null]; ready: [boolean, boolean]; setup: [SeatSetup | null, SeatSetup | null]; away: unknown; rev?: number };
/** A room both of whose seats readied: its match is played by these two sockets, each with the setup it came with. */
export type StartingRoom = PairRoom & { seats: [VersusPeer, VersusPeer]; setup: [SeatSetup, SeatSetup] };
export type RoomMessage = Extract<VersusClientMessage, { t: 'room_create' | 'room_join' | 'room_set' | 'ready' | 'room_leave' }>;

const ROOM_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export type PairRoomsOptions = {
  timers: Timers;
  /** Whether the socket plays, queues, waits on a placed match or sits in a room: the lobby's one answer. */
  busy(conn: VersusPeer): boolean;
  /** Both seats ready: the room is gone from here, and its match starts (reopen brings it back after). */
  start(room: StartingRoom): void;
};

/**
 * The private rooms of two (create → share the link → join → both ready → the match), held on the
 * versus home: who sits where, the maker's seat kept while its page dials again, and what the next
 * home takes up if this one goes (decision 0017). Every message re-checks that the socket holds the
 * seat it acts on.
 */
export class PairRooms {
  private readonly rooms = new Map<string, PairRoom>();
  /** The last room revision given out (PairRoom.rev). */
  private revs = 0;
  /**
   * Rooms kept for dropped makers, counted by the address each was kept for (`keptAt`): the cap is
   * read at every drop, and a home going drops thousands of sockets at once, so it is not a scan.
   */
  private readonly keptByAddress = new Map<string, number>();
  private readonly keptAt = new Map<PairRoom, string>();
  /**
   * The room each socket sits in (a socket sits in one at most: every way in asks `busy` first),
   * read through roomOf. Every queue, room and sparring message asks whether its socket is busy,
   * and a home losing an instance drops thousands of its sockets in one turn: neither is a scan of
   * every room (bench:lobby).
   */
  private readonly seatedIn = new Map<VersusPeer, PairRoom>();
  /** Whether rooms are held here (several instances: only on the home; versus-relay.ts). */
  private held: () => boolean = () => true;

  constructor(private readonly o: PairRoomsOptions) {}

  handle(conn: VersusPeer, m: RoomMessage): void {
    switch (m.t) {
      case 'room_create': {
        if (this.o.busy(conn)) return conn.error('already_playing', 'This connection is already in a match, a room or the queue.');
        // A kept seat outlives its socket: sockets dialled and dropped in turn would hold rooms without end
        // (rooms whose maker is connected are bounded by the address's sockets).
        if (this.keptFor(conn.address) >= ROOM_LIMITS.roomsPerAddress)
          return conn.error('rate_limited', `At most ${ROOM_LIMITS.roomsPerAddress} rooms open at once from one address: close one first.`);
        let code = '';
        do code = Array.from({ length: 6 }, () => ROOM_ALPHABET[randomInt(ROOM_ALPHABET.length)]).join('');
        while (this.rooms.has(code));
        const room: PairRoom = { code, mode: m.mode, firstTo: m.firstTo, seats: [conn, null], ready: [false, false], setup: [{ handling: m.handling, nextCount: m.nextCount }, null], away: null };
        this.rooms.set(code, room);
        this.seatedIn.set(conn, room);
        return this.send(room);
      }
      case 'room_join': {
        const room = this.rooms.get(m.code);
        if (!room) return conn.error('unknown_room', 'No open room has this code (it closed, or its match started).');
        if (room.seats[0] === conn || room.seats[1] === conn) return this.send(room);
        if (this.o.busy(conn)) return conn.error('already_playing', 'This connection is already in a match, a room or the queue.');
        const setup = { handling: m.handling, nextCount: m.nextCount };
        // Its maker's page dialling again, kept or not yet noticed gone (a dead network closes nothing
        // for a heartbeat or two, and the page dials again at once): back in its seat, the chair with it.
        if (sameOwner(room.seats[0].owner, conn)) return this.makerBack(room, conn, setup);
        // The guest's page likewise: its seat again, not a refusal from its own dead socket.
        const guest = room.seats[1];
        if (guest && !sameOwner(guest.owner, conn)) return conn.error('room_full', 'This room already has two players.');
        if (guest) this.seatedIn.delete(guest);
        room.seats[1] = conn;
        this.seatedIn.set(conn, room);
        room.setup[1] = setup;
        room.ready = [false, false];
        return this.send(room);
      }
      case 'room_set': {
        const room = this.rooms.get(m.code);
        if (!room) return conn.error('unknown_room', 'No open room has this code.');
        if (room.seats[0] !== conn) return conn.error('not_room_host', 'Only the player who made the room picks the mode and the set.');
        room.mode = m.mode;
        room.firstTo = m.firstTo;
        room.ready = [false, false]; // a changed set is agreed to again
        return this.send(room);
      }
      case 'ready': {
        const room = this.rooms.get(m.code);
        const seat = room ? room.seats.indexOf(conn) : -1;
        if (!room || seat < 0) return conn.error('unknown_room', 'You are not in this room.');
        room.ready[seat] = m.ready;
        if (!room.ready[0] || !room.ready[1] || !room.seats[1]) return this.send(room);
        this.rooms.delete(room.code);
        this.unseat(room);
        for (const c of room.seats) c?.send({ t: 'room_closed', code: room.code, reason: 'started' });
        // Both seats are their sockets' (readied by them), so both setups are theirs.
        return this.o.start(room as StartingRoom);
      }
      case 'room_leave': {
        const room = this.rooms.get(m.code);
        // Its maker's page leaving from a socket dialled since its seat was kept (it left while its link was down).
        const kept = room && room.away !== null && sameOwner(room.seats[0].owner, conn);
        const seat = room ? (kept ? 0 : room.seats.indexOf(conn)) : -1;
        if (!room || seat < 0) return conn.error('unknown_room', 'You are not in this room.');
        // On purpose, so nothing is kept: the guest is not left waiting on a maker who is not coming back.
        if (seat === 0) this.close(room);
        else this.guestGone(room);
        // Its answer: the page is in the lobby already, and an instance relaying it counts it seated no more.
        return conn.send({ t: 'room_closed', code: room.code, reason: 'left' });
      }
      default:
        m satisfies never;
    }
  }

  /** How many rooms are kept here for makers behind this address whose sockets dropped. */
  private keptFor(address: string): number {
    return this.keptByAddress.get(address) ?? 0;
  }

  /** Whether the socket sits in a room here. */
  seats(conn: VersusPeer): boolean {
    return this.roomOf(conn) !== null;
  }

  /** The socket closed: a maker's seat is kept for its page, a guest's is freed. */
  drop(conn: VersusPeer): void {
    const room = this.roomOf(conn);
    this.seatedIn.delete(conn);
    if (room?.seats[0] === conn) this.makerAway(room);
    else if (room?.seats[1] === conn) this.guestGone(room);
  }

  /** The room the socket sits in here, if any: its entry in `seatedIn`, as the room itself still says. */
  private roomOf(conn: VersusPeer): PairRoom | null {
    const room = this.seatedIn.get(conn);
    return room && this.rooms.get(room.code) === room && room.seats.includes(conn) ? room : null;
  }

  /** The room is gone from here: its sockets sit in it no more. */
  private unseat(room: PairRoom): void {
    for (const c of room.seats) if (c && this.seatedIn.get(c) === room) this.seatedIn.delete(c);
  }

  /**
   * A room's match is over: the room opens again with the same code and both players, not ready,
   * so they can play again (or change the set) as in any game's lobby. Only if both are still
   * connected and in nothing else.
   */
  reopen(room: Pick<PairRoom, 'code' | 'mode' | 'firstTo' | 'setup'>, links: ReadonlyArray<VersusPeer | null>): void {
    const [a, b] = links;
    // Not where rooms are no longer held (another instance took the home): it would be written nowhere, its people kept busy here.
    if (!a || !b || !this.held() || this.rooms.has(room.code) || [a, b].some((c) => !c.open || this.o.busy(c))) return;
    const again: PairRoom = { code: room.code, mode: room.mode, firstTo: room.firstTo, setup: room.setup, seats: [a, b], ready: [false, false], away: null };
    this.rooms.set(again.code, again);
    this.seatedIn.set(a, again);
    this.seatedIn.set(b, again);
    this.send(again);
  }

  /** Several instances: rooms are held only while this instance is the home. */
  setHeld(held: () => boolean): void {
    this.held = held;
  }

  /** Every room here, as the next home takes it up (takeUp) if this one goes. */
  kept(): VersusRoomEntry[] {
    return [...this.rooms.values()].map((room) => ({
      code: room.code, rev: (room.rev ??= ++this.revs),
      read: () => ({ code: room.code, mode: room.mode, firstTo: room.firstTo, maker: { owner: room.seats[0].owner, player: room.seats[0].player, address: room.seats[0].address } }),
    }));
  }

  /**
   * A room whose home went, rebuilt here with its code and set; its maker's seat kept for its page
   * (`room_join` by the same player sits it back) for ROOM_LIMITS.lobbyHoldMs, the guest's free.
   * False when the code is held here.
   */
  takeUp(cp: VersusRoomCheckpoint): boolean {
    if (this.rooms.has(cp.code)) return false;
    const room: PairRoom = { code: cp.code, mode: cp.mode, firstTo: cp.firstTo, seats: [keptMaker(cp.maker), null], ready: [false, false], setup: [null, null], away: null };
    this.rooms.set(room.code, room);
    this.seatedIn.set(room.seats[0], room);
    this.makerAway(room, false);
    return true;
  }

  /**
   * Another instance holds the home now and takes the rooms up from Redis: they close here,
   * unannounced, and their people, returned, are told to dial again there.
   */
  stop(): VersusPeer[] {
    const people: VersusPeer[] = [];
    for (const room of this.rooms.values()) {
      this.unkeep(room);
      for (const p of room.seats) if (p) people.push(p);
    }
    this.rooms.clear();
    this.seatedIn.clear();
    return people;
  }

  /** The lobby's shutdown: no kept seat's timer fires after it. */
  clearTimers(): void {
    for (const room of this.rooms.values()) if (room.away !== null) this.o.timers.clear(room.away);
  }

  private send(room: PairRoom): void {
    room.rev = ++this.revs;
    for (const s of [0, 1] as const) {
      const view: RoomView = {
        code: room.code, mode: room.mode, firstTo: room.firstTo, seats: [room.seats[0].player, room.seats[1]?.player ?? null], ready: room.ready, you: s,
        ...(room.away !== null ? { away: true as const } : {}),
      };
      room.seats[s]?.send({ t: 'room', room: view });
    }
  }

  /**
   * The maker's socket dropped (a phone asleep, a network blip): its seat is kept for its page for
   * ROOM_LIMITS.lobbyHoldMs, as a room of 2–16 keeps a person's, and the guest readies again once
   * it is back. Not back by then: the room closes.
   */
  private makerAway(room: PairRoom, capped = true): void {
    // Kept already (its old socket dropped again: its instance gone too): one timer, from the first drop.
    if (room.away !== null) return;
    // Kept only within its address's share, whenever its socket drops: rooms made while connected,
    // then dropped (or dialled and dropped in turn), would otherwise all be kept past the cap. Not
    // for rooms taken up from a home that went: the server dropped those, not their makers.
    const address = room.seats[0].address;
    if (capped && this.keptFor(address) >= ROOM_LIMITS.roomsPerAddress) return this.close(room);
    room.ready = [false, false];
    room.away = this.o.timers.set(() => {
      this.unkeep(room);
      if (this.rooms.get(room.code) === room) this.close(room);
    }, ROOM_LIMITS.lobbyHoldMs);
    this.keptAt.set(room, address);
    this.keptByAddress.set(address, this.keptFor(address) + 1);
    this.send(room);
  }

  /** The room's maker is back, or the room goes: its seat is kept no more, nor counted. */
  private unkeep(room: PairRoom): void {
    if (room.away !== null) this.o.timers.clear(room.away);
    room.away = null;
    const address = this.keptAt.get(room);
    if (address === undefined) return;
    this.keptAt.delete(room);
    const n = this.keptFor(address) - 1;
    if (n > 0) this.keptByAddress.set(address, n);
    else this.keptByAddress.delete(address);
  }

  private makerBack(room: PairRoom, conn: VersusPeer, setup: SeatSetup): void {
    this.unkeep(room);
    if (this.seatedIn.get(room.seats[0]) === room) this.seatedIn.delete(room.seats[0]);
    room.seats[0] = conn;
    this.seatedIn.set(conn, room);
    room.setup[0] = setup;
    room.ready = [false, false];
    this.send(room);
  }

  /** Its maker gone (left, or not back in time): the room closes, and the guest is told. */
  private close(room: PairRoom): void {
    this.unkeep(room);
    this.rooms.delete(room.code);
    this.unseat(room);
    room.seats[1]?.send({ t: 'room_closed', code: room.code, reason: 'left' });
  }

  /** The guest gone (left, or its socket closed): the seat is free for whoever opens the link next. */
  private guestGone(room: PairRoom): void {
    if (room.seats[1] && this.seatedIn.get(room.seats[1]) === room) this.seatedIn.delete(room.seats[1]);
    room.seats[1] = null;
    room.setup[1] = null;
    room.ready = [false, false];
    this.send(room);
  }
}
