// What instances say to each other on Redis: redis-bus.ts sends and reads these, versus-relay.ts and
// placements.ts the versus ones.
import type { Handling, VersusMode } from '@/lib/engine';
import type { RoomMessage, ServerMessage, TeamClientMessage, VersusMessage } from '@/lib/live/protocol';
import type { LivePlayer } from '@/lib/live/wire';
import type { Owner } from '@/lib/server/games/owner';

/** What instances say to each other: on a game's channel, and on one instance's own. */
export type GameWire =
  | { k: 'm'; m: ServerMessage }
  | { k: 'catchup'; to: string; req: string; m: ServerMessage | null }
  /** The host was asked to hand the game over: its spectators elsewhere look for the next one. */
  | { k: 'moving' };
/**
 * What instances say about versus, on the receiving instance's channel: a player's message and its
 * socket closing (to the home), and the home's answers (to the player's instance). The player's
 * identity is the one its own instance read from its cookies; instances trust each other's Redis.
 */
export type VersusWire =
  /**
   * Room and ranked 2v2 messages (rooms/) ride the same wire: they are held on the home too. A batch's
   * type says not whose stream it is (protocol 2): `home` marks a room seat's, for the rooms there.
   */
  | { k: 'vin'; from: string; peer: string; who: Who; m: VersusMessage | RoomMessage | TeamClientMessage; home?: true; v?: number }
  | { k: 'vclose'; from: string; peer: string }
  /** `v` (vin, vout): the live protocol version the sender speaks (absent before version 2); another is not read (versus-relay.ts). */
  | { k: 'vout'; from: string; peer: string; m: ServerMessage; v?: number }
  /** The socket's match stopped on its host (its lease lost): its instance closes it, and the browser resumes. */
  | { k: 'vkick'; from: string; peer: string; code: number; reason: string }
  // The home asks seat 0's instance to host a match it paired; that instance reports back when it ends (versus-relay.ts).
  | { k: 'vhost'; from: string; req: HostRequest }
  /** `links`: who sits in the seats at the end (its socket may be new, after a take-up); `who` is absent from builds before it. */
  | { k: 'vafter'; from: string; req: AfterRequest; matchId: string | null; links: [LinkRef | null, LinkRef | null] }
  /** The instance asked hosts the match (its id): the home keeps the pair while the match can still be taken up. */
  | { k: 'vhosting'; from: string; id: string; matchId: string }
  /** An instance took a match the home placed up (after a hand-over or a crash): it reports its end now. */
  | { k: 'vtaken'; from: string; id: string }
  /** The match's host let it go (a shutdown, a lost lease): its spectators' instances look for where it goes on. */
  | { k: 'vmoved'; from: string; matchId: string };

type Setup = { handling: Handling; nextCount: number };
type Who = { owner: Owner; player: LivePlayer; address: string; device: string | null };
/** A socket as instances name it: the instance it is on and its connection id there. */
export type PeerRef = { instance: string; peer: string };
/** A seat's socket at a match's end, as the home may not know it yet. */
export type LinkRef = PeerRef & { who?: Who };
/** A match the home placed: its seats (who they are, as their own instance read it), never a seed. */
export type HostRequest = {
  id: string; mode: VersusMode; firstTo: number; ranked: boolean; room: string | null;
  seats: [PeerRef & { who: Who }, PeerRef & { who: Who }]; setup: [Setup, Setup];
};
/** What the home reads of a request in the report of its end: the pair's offer or room follows from it. */
export type AfterRequest = Pick<HostRequest, 'id' | 'mode' | 'firstTo' | 'ranked' | 'room' | 'setup'>;

export type InstanceWire = { k: 'watch'; gameId: string; from: string; n: number; req?: string } | { k: 'release'; gameId: string } | VersusWire;
export type SessionWire = { from: string; userId: string };

/** A spectator here of a game hosted here: `stop` ends its watch, wherever the game has gone since (RedisBus.leaving). */
export type HereWatch = { listener: (m: ServerMessage) => void; stop: () => void };
