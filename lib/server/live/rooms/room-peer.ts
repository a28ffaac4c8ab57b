import type { LiveErrorCode, ServerMessage } from '@/lib/live/protocol';
import type { LivePlayer } from '@/lib/live/wire';
import type { Owner } from '@/lib/server/games/owner';

/** Whoever the room lobby deals with: a socket on this instance (Connection is one). */
export type RoomPeer = {
  readonly owner: Owner;
  readonly player: LivePlayer;
  /** The client's address key: room starts are counted per address too, and ranked 2v2 keeps one address's players apart. */
  readonly address: string;
  /** The browser's device id, or null: ranked 2v2 keeps one device's players apart. */
  readonly device: string | null;
  readonly open: boolean;
  send(message: ServerMessage, waitMs?: number): void;
  error(code: LiveErrorCode, message: string, extra?: { gameId?: string; seq?: number }): void;
  /** Closes its socket (a relayed one's through its instance): the page dials again. */
  close?(code: number, reason: string): void;
};
