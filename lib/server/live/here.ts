import 'server-only';
import type { AddressSlots, Slot } from '@/lib/server/live/address-slots';
import type { BudgetsById } from '@/lib/server/live/budgets';
import type { LiveBus } from '@/lib/server/live/cluster/bus';
import type { GameHost } from '@/lib/server/live/solo/game-host';
import type { GameLeases } from '@/lib/server/live/cluster/lease';
import type { SharedState } from '@/lib/server/live/cluster/shared-state';
import type { VersusDoor } from '@/lib/server/live/match/versus-relay';
import type { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import type { TeamQueue } from '@/lib/server/live/rooms/team-queue';

/**
 * What handling a message may use of the hub (hub.ts): the games hosted in this process and how
 * they are shared with the other instances. The hub is this plus the sockets; the handlers
 * (messages.ts, adopt.ts, watch.ts) see only this, so they sit below the hub, not beside it.
 */
export type LiveHere = {
  readonly hosts: Map<string, GameHost>;
  /** Set by the hub's drain(): no new sockets, games or adoptions; the process is about to exit. */
  readonly draining: boolean;
  readonly shared: SharedState;
  readonly bus: LiveBus;
  readonly leases: GameLeases;
  /** Where this instance's versus messages go (versus-relay.ts). */
  readonly door: VersusDoor;
  /** Rooms of 2–16 held on this instance (rooms/room-lobby.ts). */
  readonly rooms: RoomLobby;
  /** Ranked 2v2's parties and queue on this instance (rooms/team-queue.ts). */
  readonly teams: TeamQueue;
  /** Games hosted here per address: a start or an adoption takes a slot, the host gives it back when it closes. */
  readonly gamesByAddress: AddressSlots;
  /** Catch-ups given per game or match, from every connection here together. */
  readonly catchUpsByGame: BudgetsById;
  /** Tickets read for watches of games hosted nowhere, per address (watch.ts). */
  readonly ticketReadsByAddress: BudgetsById;
  /** Adoptions under way in this process, by game: a second one for the same game waits (adopt.ts). */
  readonly adoptions: Map<string, Promise<GameHost | null>>;
  addGame(host: GameHost): void;
  /** A host closed: its slot of gamesByAddress goes back. */
  removeGame(host: GameHost, slot: Slot): void;
};
