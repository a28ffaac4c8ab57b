import 'server-only';
import { TICKS_PER_SECOND } from '@/lib/engine';

/**
 * What rooms may take of one instance, and of the room's slowest seat (decision 0034). Data, so
 * the lobby, the host, the tests and the bench read the same numbers.
 */
export const ROOM_LIMITS = {
  /** Rooms open on this instance (in the lobby or playing): each holds up to 16 seats' games. */
  roomsPerInstance: 500,
  /** Of those, rooms people make (`rcreate`): the rest are kept for ranked 2v2 sets, which rooms left open would otherwise refuse. */
  madeRoomsPerInstance: 400,
  /** Rooms made from one address and open at once: a few sockets holding rooms open do not fill the instance. */
  roomsPerAddress: 8,
  /** Bot seats on this instance, every room together: each costs a search per piece (bench:rooms). */
  botSeatsPerInstance: 400,
  /**
   * Sets started per hour by a room's host, per player and per address: each set is a stored match
   * and a verification per seat and game (a start and a leave at once too), as sparring's are.
   */
  startsPerHour: { player: 30, address: 120 },
  /** Rooms one connection may watch at once. */
  watchesPerConnection: 4,
  /** Watchers of one room besides its seats. */
  spectatorsPerRoom: 64,
  /**
   * A person's stream may trail the room's clock by this much before the seat is out of the game
   * (`lag`): the referee plays in lockstep, so every other seat's garbage waits for the slowest
   * (decision 0031), and a dropped connection stalls the room this long at most.
   */
  maxLagMs: 3_000,
  /** A batch may run this far past the room's clock (a browser's clock and ours drift a little). */
  aheadTicks: 6,
  /** The first game's countdown, and the pause between games of a set. */
  countdownMs: 3_000,
  betweenGamesMs: 2_000,
  /** A set taken up from its checkpoint after its host died: nobody is put out for lag this long after, while the pages dial again and resume. */
  takeUpGraceMs: 10_000,
  /** A room in its lobby taken up after its home died: each person's seat is kept for its owner's page this long, as it dials again. */
  lobbyHoldMs: 30_000,
  /** A room whose people have all been disconnected this long closes, unstored: its bots stop. */
  emptyCloseMs: 10_000,
  /** How often the host plays its bots to the clock and sends every seat's frames. */
  beatMs: 50,
} as const;

export const clockTick = (elapsedMs: number): number => Math.floor((Math.max(0, elapsedMs) * TICKS_PER_SECOND) / 1000);
